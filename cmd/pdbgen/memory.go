package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// memoryLimit is --max-memory, or the MemAvailable of /proc/meminfo (0 when
// unknown, as on other systems than Linux: no check).
func memoryLimit(flagValue string) (uint64, error) {
	if flagValue != "" {
		return parseBytes(flagValue)
	}
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, nil
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseUint(f[0], 10, 64)
				if err == nil {
					return kb * 1024, nil
				}
			}
		}
	}
	return 0, nil
}

// parseBytes parses "123", "512M", "4G" (powers of 1024).
func parseBytes(s string) (uint64, error) {
	mult := uint64(1)
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("--max-memory %q: want a size such as 512M or 4G", s)
	}
	return uint64(v * float64(mult)), nil
}

// humanBytes formats n with a binary unit (B, KiB, MiB, GiB).
func humanBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
