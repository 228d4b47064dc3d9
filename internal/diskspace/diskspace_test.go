package diskspace

import (
	"path/filepath"
	"runtime"
	"testing"
)

// TestFree: a folder and a path below it that does not exist yet report
// the same file system, with some space free where statfs exists.
func TestFree(t *testing.T) {
	dir := t.TempDir()
	a, okA := Free(dir)
	b, okB := Free(filepath.Join(dir, "not", "yet"))
	if okA != okB {
		t.Fatalf("known %v for the folder, %v below it", okA, okB)
	}
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		if !okA || a == 0 || b == 0 {
			t.Fatalf("Free = %d, %v and %d, %v; want some space known", a, okA, b, okB)
		}
		// The two calls are moments apart: within 64 MiB of each other.
		if d := int64(a) - int64(b); d > 64<<20 || d < -64<<20 {
			t.Errorf("Free(%s) = %d, below it %d", dir, a, b)
		}
	}
}
