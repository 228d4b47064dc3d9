//go:build unix

package solver

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) used so far by this process, or
// 0 where it is not available.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
