package main

import "syscall"

// peakRSS is the process's peak resident set size in bytes (getrusage
// ru_maxrss, which Linux reports in KiB), or 0 when unknown.
func peakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return uint64(ru.Maxrss) * 1024
}
