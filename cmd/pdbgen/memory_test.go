package main

import (
	"runtime"
	"testing"
)

// TestPeakRSSUnit: after touching 64 MiB the peak RSS is at least that and
// far below 64 GiB, which catches ru_maxrss read in the wrong unit (KiB on
// Linux, bytes on macOS). Other systems report 0 (unknown).
func TestPeakRSSUnit(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		if got := peakRSS(); got != 0 {
			t.Errorf("peakRSS = %d on %s, want 0 (unknown)", got, runtime.GOOS)
		}
		return
	}
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	got := peakRSS()
	runtime.KeepAlive(buf)
	if got < 64<<20 || got > 64<<30 {
		t.Errorf("peakRSS = %d bytes after touching 64 MiB, want between 64 MiB and 64 GiB", got)
	}
}
