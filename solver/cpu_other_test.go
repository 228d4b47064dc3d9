//go:build !unix

package solver

import "time"

// cpuTime is the CPU time (user + system) used so far by this process, or
// 0 where it is not available.
func cpuTime() time.Duration { return 0 }
