package builder

import (
	"io"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// MustPlan is NewShardPlan failing tb on error.
func MustPlan(tb testing.TB, p *puzzle.Pattern, shards int) *ShardPlan {
	tb.Helper()
	pl, err := NewShardPlan(p, shards)
	if err != nil {
		tb.Fatal(err)
	}
	return pl
}

// WithUsePull returns opt with the rule that chooses the kernel of every
// level of the additive search replaced: tests force push-only or
// pull-only levels with it. The rule is called once per level, in order,
// from one goroutine.
func WithUsePull(opt Options, rule func(level int, frontier, unvisited uint64) bool) Options {
	opt.usePull = rule
	return opt
}

// DefaultUsePull is the rule Build uses.
var DefaultUsePull = defaultUsePull

// SetWriteHook makes every file BuildOutOfCore writes go through
// hook(path, file) until the test ends: tests fill a disk with it.
func SetWriteHook(tb testing.TB, hook func(path string, w io.Writer) io.Writer) {
	writeHook = hook
	tb.Cleanup(func() { writeHook = nil })
}
