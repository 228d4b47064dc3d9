package main

// The solve command's entry: usage, summary and help. Its flags and run
// (runSolve, parseSolveConfig) are in solve.go.

// solveCmd is "pdbgen solve": its usage line, summary and help (the flags are
// defined where it parses them).
var solveCmd = &command{name: "solve", usage: "[--algorithm ida|wastar|anytime|bidirectional|beam] [--weight W] [--anytime] [--schedule W,W,...] [--restarts] [--beam] [--width W] [--max-nodes N] [--time-limit DUR] [--reflect] [--compact-index] [-j N] [-t N] [--json] [--from blank-first] [--max-memory SIZE] FILE... < boards   (bidirectional without tables: --board WxH [--goal G])",
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

Algorithms (--algorithm): ida (default): optimal, IDA* on additive tables
or catalogues, a walk down an exact table. wastar (--weight W, 1 <= W <= 1000, default 1.5):
weighted A*, a solution at most W times the optimum. anytime (--anytime,
--schedule 2.5,1.8,1.3,1 by default: strictly decreasing weights in [1, 1000]): ARA*,
prints a first solution at once and each improvement as its own line
("<board> : improved length ..."), then the final line; it stops at a
proven optimum, or after the last weight when it is above 1; --restarts
runs a fresh weighted A* per weight instead (restarting weighted A*), which
finds first solutions sooner on big boards with weak tables; --beam runs
beam searches of widths 1000, 2000, ... instead (up to --width W, each
started while one twice as long as the last leaves a quarter of
--time-limit), then IDA* up to the best length for the proven bound: the
shortest solutions on big boards. beam (--width W, default 10000): one
beam search, keeping per level the W states with the smallest heuristic;
fast, with no bound on the length. bidirectional: breadth-first from both ends, optimal, no table needed:
"pdbgen solve --algorithm bidirectional --board 4x4 [--goal G]" (files
given: their board and goal are used; --reflect does not apply). Besides IDA*, each line adds
"[weight W | width W] lower <LB> bound <B> [optimal] [stopped <reason>]": LB is a
proven lower bound on the optimal length, B = L/LB rounded up (the proven
factor over the optimum), "optimal" when L = LB.

Limits of wastar, anytime, beam and bidirectional, per board: --max-nodes N
states stored (for --anytime --beam it ends the whole search); --time-limit
DUR (also IDA*); --max-memory covers the tables and the searches (an equal
share each with -j; each search at most 1 GiB without --max-memory; a beam
wider than the memory allows stops at it). Without --time-limit,
--anytime --beam doubles the width until a beam reaches the memory limit
(or --width), then runs IDA* until the optimum is proven. A search that
reaches a limit answers "<board> : stopped
<time-limit|node-limit|memory-limit> ..." with what it proved, or its best
solution so far with "stopped <reason>"; a beam search that runs out of new
states answers "stopped beam-exhausted" (a wider beam may succeed).

` + boardHelp + "\n\n" + exitHelp + `
Solve also exits 1 when a limit stopped a board before any solution (one
line on stderr says which and what was proven; a board with a solution
stopped by a limit is answered, exit 0). Ctrl-C prints what the searches in
progress had proven ("interrupted while solving ...").`,
	run: runSolve}
