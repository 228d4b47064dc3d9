package builder

import (
	"context"
	"fmt"
	"runtime"

	"github.com/tilepdb/tilepdb/puzzle"
)

// BuildSharded computes the table of the additive pattern p as Build
// does, byte for byte, with the search split into shards run by the shard
// kernel (ShardPlan) in memory: each level runs the shards one after the
// other, each with opt.Workers goroutines, and hands the batches to their
// owners in memory. Its memory is Build's plus the batches of one level.
// It is the reference driver of the kernel; the out-of-core driver
// (BuildOutOfCore) keeps the shards in files instead. Progress events come
// after every level.
func BuildSharded(ctx context.Context, p *puzzle.Pattern, shards int, opt Options) ([]uint8, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	pl, err := NewShardPlan(p, shards)
	if err != nil {
		return nil, err
	}
	pl.SetWorkers(opt.Workers)
	if opt.usePull != nil {
		pl.usePull = opt.usePull
	}
	values := make([]uint8, p.Size())
	for i := range values {
		values[i] = puzzle.Unreached
	}
	runs := make([]*shardRun, shards)
	for s := range runs {
		runs[s] = pl.newRun(s)
		lo, hi := pl.EntryRange(s)
		runs[s].values = values[lo:hi]
	}
	inbox := make([][][]byte, shards) // the batches each shard gets at the level
	var expanded uint64
	for level := 0; ; level++ {
		next := make([][][]byte, shards)
		var more uint64
		for s, r := range runs {
			if _, _, err := r.mergeAll(ctx, inbox[s], opt.Workers); err != nil {
				return nil, err
			}
			inbox[s] = nil
			lv, err := r.expand(ctx, opt.Workers)
			if err != nil {
				return nil, err
			}
			for t := range shards {
				if b := lv.batch(t); b != nil {
					next[t] = append(next[t], b)
				}
				more += lv.sent[t]
			}
			expanded += lv.frontier
			more += lv.marked
		}
		if opt.Progress != nil {
			var reached uint64
			for _, r := range runs {
				reached += r.reached
			}
			opt.Progress(Event{Level: level, Reached: reached, Total: pl.States(), LevelDone: true, NewStates: reached - expanded})
		}
		inbox = next
		if more == 0 {
			break
		}
	}
	if total := pl.States(); expanded != total {
		return nil, fmt.Errorf("builder: %s: %d of %d abstract states unreached", p, total-expanded, total)
	}
	return values, nil
}
