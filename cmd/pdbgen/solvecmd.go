package main

import (
	"strings"

	"github.com/tilepdb/tilepdb/solver"
)

// The solve command's entry: usage, summary and help. Its flags and run
// (runSolve, parseSolveConfig) are in solve.go.

// solveCmd is "pdbgen solve": its usage line, summary and help (the flags are
// defined where it parses them).
var solveCmd = &command{name: "solve", usage: "[--algorithm " + strings.Join(solver.Algorithms(), "|") + "] [--weight W] [--anytime] [--schedule W,W,...] [--restarts] [--beam] [--width W] [--max-nodes N] [--time-limit DUR] [--reflect] [--compact-index] [--zero-aware-bytes] [--rank-weights W,W,...] [--polish windows,tail|none] [-j N] [-t N] [--json] [--from blank-first] [--max-memory SIZE] FILE... < boards   (bidirectional without tables: --board WxH [--goal G])",
	short: "solve boards from stdin (optimally, or faster with a proven bound)",
	help: `Prints "<board> : length <L> moves <M> nodes <K>" per board, or
"<board> : unsolvable". <M> spells the moves as the direction in which the
BLANK moves: u up, d down, l left, r right (u swaps the blank with the tile
above it); "-" for a board already at the goal. <K> counts the states
generated. --json prints one object per line instead. FILE is table files
or set files (a set file names its tables; several parts may share one
table through a board symmetry; a catalogue, set file version 2, gives
the maximum over its partitions of each partition's sum). -t N shares
each board's IDA* search among N threads (parallel IDA*); moves and node
counts do not depend on it.

` + algorithmsHelp() + `
The anytime algorithms (anytime, restarts, anytime-beam) print a first
solution at once and each improvement as its own line ("<board> : improved
length ..."), then the final line. Besides IDA*, each line adds
"[weight W | width W] lower <LB> bound <B> [optimal] [stopped <reason>]": LB is a
proven lower bound on the optimal length, B = L/LB rounded up (the proven
factor over the optimum), "optimal" when L = LB.

Limits of the algorithms other than ida, per board: --max-nodes N
states stored (for anytime-beam it ends the whole search); --time-limit
DUR (also IDA*); --max-memory covers the whole process: the tables and the
searches (an equal share each with -j; each search at most 1 GiB without
--max-memory; a beam wider than the memory allows stops at it). Without
--time-limit, anytime-beam doubles the width until a beam reaches the
memory limit (or --width), then runs IDA* until the optimum is proven. A
search that reaches a limit answers "<board> : stopped
<time-limit|node-limit|memory-limit> ..." with what it proved, or its best
solution so far with "stopped <reason>"; a beam search that runs out of new
states answers "stopped beam-exhausted" (a wider beam may succeed).

` + boardHelp + "\n\n" + exitHelp + `
Solve also exits 1 when a limit stopped a board before any solution (one
line on stderr says which and what was proven; a board with a solution
stopped by a limit is answered, exit 0). Ctrl-C prints what the searches in
progress had proven ("interrupted while solving ...").`,
	run: runSolve}
