// Package sysmem answers "how much memory may this process still use?" for
// the checks that commands run before they allocate a table (building one,
// or loading one to look up, solve or verify), parses the --max-memory sizes
// those checks accept, and words their refusals.
//
// A memory check compares an estimate of what an operation needs with a
// Budget: the --max-memory value when one is given, otherwise the memory
// available to the process (Available), otherwise nothing (no check).
package sysmem

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Available returns the bytes of memory this process can still allocate
// without swapping, and whether that is known.
//
// Linux: MemAvailable from /proc/meminfo (the kernel's estimate, since Linux
// 3.14, of the memory available for new work without swapping), lowered to
// the room left under the control group's memory limit when there is one
// (cgroup v2 memory.max − memory.current, or cgroup v1
// memory.limit_in_bytes − memory.usage_in_bytes, read at the usual mount
// points under /sys/fs/cgroup). Other systems: (0, false); only an explicit
// --max-memory then limits what commands attempt.
func Available() (uint64, bool) { return available() }

// MinSize is the smallest --max-memory accepted: 1 MiB (nothing this
// project does fits in less; a smaller value is almost surely a typo such
// as "0.5" for half a gigabyte).
const MinSize = 1 << 20

// sizeRE is a size: a decimal number (optionally with a fraction), then an
// optional unit K, M, G or T, optionally followed by "i", "B" or "iB" (matched case-insensitively).
var sizeRE = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)\s*(?:([KMGT])(?:IB|I|B)?|B)?$`)

// ParseSize parses a memory size as given to --max-memory: a number of
// bytes, or a number with the unit K, M, G or T (powers of 1024; "KiB",
// "KB", "k" are the same unit), e.g. "4G", "1.5GiB", "512m", "1073741824".
// Sizes below MinSize, above 2^63 bytes, negative, NaN, infinities,
// exponents and anything else are rejected with an error naming the value.
func ParseSize(s string) (uint64, error) {
	bad := func(why string) error {
		return fmt.Errorf("--max-memory %q: %s (want a size such as 512M, 4G or 1.5GiB)", s, why)
	}
	m := sizeRE.FindStringSubmatch(strings.ToUpper(strings.TrimSpace(s)))
	if m == nil {
		return 0, bad("not a size")
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, bad("not a size")
	}
	mult := 1.0
	switch m[2] {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	case "T":
		mult = 1 << 40
	}
	b := v * mult
	switch {
	case math.IsNaN(b) || b > 1<<63:
		return 0, bad("too large")
	case b < MinSize:
		return 0, bad("less than the minimum of 1M")
	}
	return uint64(b), nil
}

// FormatSize writes n bytes for people: "812 B", "3.4 KiB", "512.0 MiB",
// "40.6 GiB", "1.2 TiB" (powers of 1024, one decimal).
func FormatSize(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= unit
		if f < unit || u == "TiB" {
			return fmt.Sprintf("%.1f %s", f, u)
		}
	}
	panic("unreachable")
}

// Budget is the memory an operation may use.
type Budget struct {
	Limit    uint64 // bytes; meaningful only when Known
	Known    bool   // false: no --max-memory and the available memory is unknown; nothing is refused
	FromFlag bool   // Limit came from --max-memory rather than from Available
}

// NewBudget returns the budget for a --max-memory flag value: the parsed
// value when maxMemory is not empty (it overrides the available memory, so
// that a user with swap can go beyond it), else Available. The error is
// ParseSize's.
func NewBudget(maxMemory string) (Budget, error) {
	if maxMemory != "" {
		n, err := ParseSize(maxMemory)
		if err != nil {
			return Budget{}, err
		}
		return Budget{Limit: n, Known: true, FromFlag: true}, nil
	}
	n, ok := Available()
	return Budget{Limit: n, Known: ok}, nil
}

// Check returns nil when need bytes fit the budget (or the budget is
// unknown), else a *TooLargeError for what (a file or table name).
func (b Budget) Check(what string, need uint64) error {
	if !b.Known || need <= b.Limit {
		return nil
	}
	return &TooLargeError{What: what, Need: need, Limit: b.Limit, FromFlag: b.FromFlag}
}

// TooLargeError is a refusal to start an operation that needs more memory
// than the budget.
type TooLargeError struct {
	What     string // what needs the memory, e.g. a file name
	Need     uint64 // estimated bytes needed
	Limit    uint64 // bytes in the budget
	FromFlag bool   // the limit is --max-memory
}

// Error is one line, e.g. "big.pdb needs 40.6 GiB of memory, 21.3 GiB
// available (--max-memory overrides)" or "big.pdb needs 40.6 GiB of
// memory, more than --max-memory 4.0 GiB".
func (e *TooLargeError) Error() string {
	if e.FromFlag {
		return fmt.Sprintf("%s needs %s of memory, more than --max-memory %s", e.What, FormatSize(e.Need), FormatSize(e.Limit))
	}
	return fmt.Sprintf("%s needs %s of memory, %s available (--max-memory overrides)", e.What, FormatSize(e.Need), FormatSize(e.Limit))
}
