//go:build linux

package sysmem

import (
	"os"
	"strconv"
	"strings"
)

func available() (uint64, bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	avail, ok := memAvailable(string(data))
	if !ok {
		return 0, false
	}
	if room, ok := cgroupRoom(); ok {
		avail = min(avail, room)
	}
	return avail, true
}

// memAvailable parses the MemAvailable line of /proc/meminfo ("kB" there
// means KiB).
func memAvailable(meminfo string) (uint64, bool) {
	for _, line := range strings.Split(meminfo, "\n") {
		rest, ok := strings.CutPrefix(line, "MemAvailable:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, false
		}
		kib, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil || kib > 1<<53 {
			return 0, false
		}
		return kib << 10, true
	}
	return 0, false
}

// cgroupRoom is limit − usage of the cgroup's memory controller as seen at
// the usual mount points (v2, then v1), when a limit is set.
func cgroupRoom() (uint64, bool) {
	for _, pair := range [][2]string{
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
	} {
		limit, ok1 := readUint(pair[0])
		usage, ok2 := readUint(pair[1])
		if !ok1 || !ok2 {
			continue
		}
		return room(limit, usage)
	}
	return 0, false
}

// room is limit − usage, or false when limit means "no limit" (v2 "max"
// does not parse; v1 writes a number near 2^63).
func room(limit, usage uint64) (uint64, bool) {
	if limit >= 1<<62 {
		return 0, false
	}
	if usage >= limit {
		return 0, true
	}
	return limit - usage, true
}

func readUint(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil
}
