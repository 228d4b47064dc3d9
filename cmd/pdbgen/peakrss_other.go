//go:build !linux && !darwin

package main

// peakRSS is 0 (unknown) where getrusage's ru_maxrss is not read: Windows,
// the BSDs and others. The build log then omits the peak RSS line.
func peakRSS() uint64 { return 0 }
