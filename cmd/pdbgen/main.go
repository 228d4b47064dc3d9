// Command pdbgen builds, verifies, inspects and uses pattern databases for
// sliding-tile puzzles.
//
// Usage:
//
//	pdbgen <command> [flags] [args]
//
// Commands:
//
//	build    build tables (a preset or a custom pattern) into a directory
//	verify   check table files: integrity, ranking, consistency (--deep: rebuild)
//	info     print a table file's header and value histogram
//	lookup   print the heuristic value of boards read from stdin
//	solve    solve boards read from stdin optimally with the tables
//	presets  list the presets
//	version  print the version
//
// Exit status: 0 success; 1 bad data (a corrupt table, a failed check, a
// bad input line); 2 usage or I/O trouble (a write error on stdout, a table
// needing more memory than available); 128 + the signal's number when
// stopped by SIGINT (130) or SIGTERM (143). Progress and diagnostics go to
// stderr; stdout carries only what a script would parse.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// command is one subcommand, in the style of cmd/go.
type command struct {
	name  string
	usage string // the argument synopsis
	short string
	help  string // more for 'pdbgen help <command>' and -h: input syntax, output, exit status ("" = none)
	run   func(env *env, args []string) error
}

// env is what a command may touch, so tests can run commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stderrIsTTY    bool
	// ctx ends when the command must stop: SIGINT or SIGTERM in main
	// (interrupt.go); nil means context.Background (tests may set one).
	ctx context.Context
	// signalCode is the exit status for a ctx that ended (128 + the
	// signal's number); nil means 130.
	signalCode func() int
}

// context returns e.ctx, or context.Background when it is not set.
func (e *env) context() context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}

var commands []*command

// boardHelp is the input syntax of lookup and solve (boards.go).
const boardHelp = `Input: one board per line on stdin: the tile in each cell in reading order
(row by row), separated by spaces, tabs or commas; the blank is 0, x, X or _
(a comma with no tile before it, as in "1,,2", is an error).
For the 8-puzzle, "8 6 7 2 5 4 3 0 1" and "8,6,7,2,5,4,3,_,1" are the same
board. Boards must have the tables' number of cells (9 for 3x3, 16 for 4x4,
25 for 5x5). Blank lines and lines starting with # are skipped; a UTF-8
byte-order mark at the start is ignored; a line over 4096 bytes is reported
and skipped. Each answer is printed as soon as it is known.

A bad line (wrong cell count, a repeated or missing tile, a foreign symbol)
is reported on stderr as "line N: <problem>" and the others are answered.
A board that cannot reach the tables' goal (the other half of the states,
by parity) is not an error: it is answered "unsolvable".`

// exitHelp is the exit status of lookup and solve.
const exitHelp = `Exit status: 0 every line answered (unsolvable boards included); 1 a corrupt
table, or some bad lines (the others were answered); 2 trouble: a missing or
unreadable table, not enough memory for the tables, a write error; 130 on
Ctrl-C and 143 on SIGTERM, after printing the answers already found.

Before loading, the memory the tables need is compared with the memory
available (Linux) or --max-memory; tables that do not fit are refused.`

func init() {
	commands = []*command{
		{name: "build", usage: "[-j N] [-o DIR] [--quiet] [--preset NAME[,NAME...] | --board WxH --tiles LIST [--tiles LIST...]] [--goal GOAL] [--manifest FILE] [--write-manifest FILE] [--if-needed] [--json] [--format 2|1] [--max-memory SIZE]",
			short: "build tables into a directory (--if-needed: only the missing or bad ones)",
			help: `Writes one .pdb file per table into the output directory and prints each
path on stdout when it is written. Before the first search, build checks
that every table fits in memory and that the output directory and the
manifest paths can be written. A file is written to a temporary file and
renamed, so an interrupted build never leaves a partial table; temporaries
left by a killed build are removed by the next build into that directory.
With --manifest and neither --preset nor --board, the tables are the ones
the manifest lists.

--if-needed keeps each table already in the directory whose header
matches the manifest and which passes verify (the file is not touched),
and builds only the missing or bad ones; a table built is compared with
the manifest and verified before it is written. One line per table on
stdout: "kept PATH: ...", "built PATH: missing", "replaced PATH because
...", "failed PATH: ...". --json prints one JSON object per table instead
(README.md, "JSON reports").

Exit status: 0 success; 1 a malformed manifest, or a built table differs
from --manifest or fails verify (it is not written); 2 usage or I/O
trouble, or not enough memory; 130 on Ctrl-C and 143 on SIGTERM (tables
already written stay).`,
			run: runBuild},
		{name: "verify", usage: "[--deep] [-j N] [--max-findings N] [--max-memory SIZE] [--json] FILE... | --manifest FILE DIR",
			short: "check table and set files, or a folder against its manifest (exit 0 all good, 1 bad data, 2 trouble)",
			help: `Checks each file's integrity (checksums, structure, histogram), the ranking
(a round trip over every entry) and rules every correct table satisfies
(goal 0, Manhattan bound and parity, a closer neighbour for every entry,
symmetry); --deep also rebuilds the table with a simple reference search
and compares every entry. One report per file on stdout; --json prints one
JSON object per file instead (README.md, "JSON reports"). A set file
(format/SPEC.md section 10) is checked as a whole: its tables' board, goal,
tiles and checksums, and that each part's symmetry maps its goal cells onto
its table's (--deep: each symmetric part is rebuilt and compared).

--manifest FILE DIR checks the folder DIR against the manifest: every
listed table present, with the listed identity, passing verify; table
files the manifest does not list are reported, not fatal.

Exit status: 0 all files good; 1 a file failed a check (with --manifest:
a listed table missing, different or corrupt, or a malformed manifest);
2 a file could not be checked (missing, unreadable, too large for the
memory; with --manifest: the manifest or the folder cannot be read); 130
on Ctrl-C and 143 on SIGTERM (reports of files already checked stand).`,
			run: runVerify},
		{name: "info", usage: "[--json] FILE...", short: "print header and value histogram of table files",
			help: `Reads only each file's header (cheap). Exit status: 0 success; 1 a corrupt
header; 2 a missing or unreadable file, or a write error on stdout.`,
			run: runInfo},
		{name: "lookup", usage: "[--max-memory SIZE] FILE... < boards   (FILE: tables and set files)", short: "print the heuristic value of each board on stdin",
			help: `Prints "<board>\t<value>" per board: the value in moves from the tables (an
exact table: the true distance to the goal; additive tables: the sum of
their entries, a lower bound), or "<board>\tunsolvable".

` + boardHelp + "\n\n" + exitHelp,
			run: runLookup},
		{name: "solve", usage: "[--algorithm ida|wastar|anytime|bidirectional] [--weight W] [--anytime] [--schedule W,W,...] [--max-nodes N] [--time-limit DUR] [--reflect] [--compact-index] [-j N] [-t N] [--json] [--from blank-first] [--max-memory SIZE] FILE... < boards   (bidirectional without tables: --board WxH [--goal G])",
			short: "solve boards from stdin (optimally, or faster with a proven bound)",
			help: `Prints "<board> : length <L> moves <M> nodes <K>" per board, or
"<board> : unsolvable". <M> spells the moves as the direction in which the
BLANK moves: u up, d down, l left, r right (u swaps the blank with the tile
above it); "-" for a board already at the goal. <K> counts the states
generated. --json prints one object per line instead. FILE is table files
or set files (a set file names its tables; several parts may share one
table through a board symmetry). -t N shares each board's IDA* search
among N threads (parallel IDA*); moves and node counts do not depend on it.

Algorithms (--algorithm): ida (default): optimal, IDA* on additive tables,
a walk down an exact table. wastar (--weight W, 1 <= W <= 1000, default 1.5):
weighted A*, a solution at most W times the optimum. anytime (--anytime,
--schedule 2.5,1.8,1.3,1 by default: strictly decreasing weights in [1, 1000]): ARA*,
prints a first solution at once and each improvement as its own line
("<board> : improved length ..."), then the final line; it stops at a
proven optimum, or after the last weight when it is above 1.
bidirectional: breadth-first from both ends, optimal, no table needed:
"pdbgen solve --algorithm bidirectional --board 4x4 [--goal G]" (files
given: their board and goal are used; --reflect does not apply). Besides IDA*, each line adds
"[weight W] lower <LB> bound <B> [optimal] [stopped <reason>]": LB is a
proven lower bound on the optimal length, B = L/LB rounded up (the proven
factor over the optimum), "optimal" when L = LB.

Limits of wastar, anytime and bidirectional, per board: --max-nodes N
states stored; --time-limit DUR (also IDA*); --max-memory covers the tables
and the searches (an equal share each with -j; each search at most 1 GiB
without --max-memory). A search that reaches a limit answers
"<board> : stopped <time-limit|node-limit|memory-limit> ..." with what it
proved, or its best solution so far with "stopped <reason>".

` + boardHelp + "\n\n" + exitHelp + `
Solve also exits 1 when a limit stopped a board before any solution (one
line on stderr says which and what was proven; a board with a solution
stopped by a limit is answered, exit 0). Ctrl-C prints what the searches in
progress had proven ("interrupted while solving ...").`,
			run: runSolve},
		{name: "presets", usage: "", short: "list the presets", run: runPresets},
		{name: "version", usage: "", short: "print the version (also: pdbgen --version)", run: runVersion},
	}
}

func main() {
	in := catchInterrupts(context.Background())
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, stderrIsTTY: isTerminal(os.Stderr),
		ctx: in.ctx, signalCode: in.exitCode}
	code := run(e, os.Args[1:])
	in.stop()
	os.Exit(code)
}

// run executes one command line and returns the exit status.
func run(e *env, args []string) int {
	if len(args) == 0 {
		printUsage(e.stderr)
		return exitTrouble
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return runHelp(e, args[1:])
	case "-version", "--version":
		args = append([]string{"version"}, args[1:]...)
	}
	c := findCommand(args[0])
	if c == nil {
		fmt.Fprintf(e.stderr, "pdbgen: unknown command %q\n", args[0])
		printUsage(e.stderr)
		return exitTrouble
	}
	// Every write to stdout is checked here, once: a command that printed
	// into a full disk or a closed pipe must not exit 0.
	out := &checkedWriter{w: e.stdout}
	ce := *e
	ce.stdout = out
	err := c.run(&ce, args[1:])
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing output: %w", out.err)
	}
	code := exitCode(err)
	if err != nil && e.context().Err() != nil {
		// Stopped by a signal (whatever the error the stop surfaced as):
		// say so plainly, not "context canceled".
		err, code = errInterrupted, 130
		if e.signalCode != nil {
			code = e.signalCode()
		}
	}
	if err != nil && code != exitOK && !errors.Is(err, errSilent) {
		fmt.Fprintf(e.stderr, "pdbgen %s: %v\n", c.name, err)
	}
	return code
}

// runHelp is "pdbgen help [COMMAND]": the overview on stderr, or the
// command's help on stdout; an unknown command is a usage error.
func runHelp(e *env, args []string) int {
	switch {
	case len(args) == 0:
		printUsage(e.stderr)
		return exitOK
	case len(args) > 1:
		fmt.Fprintf(e.stderr, "pdbgen help: want at most one command name, got %d arguments\n", len(args))
		return exitTrouble
	}
	if args[0] == "help" {
		fmt.Fprintf(e.stdout, "usage: pdbgen help [COMMAND]\n\nWithout a command, the list of commands (on stderr); with one, its usage,\nflags, input syntax and exit status (on stdout; the same as pdbgen COMMAND -h).\n")
		return exitOK
	}
	c := findCommand(args[0])
	if c == nil {
		fmt.Fprintf(e.stderr, "pdbgen help: unknown command %q\n", args[0])
		printUsage(e.stderr)
		return exitTrouble
	}
	// The command prints its own help, flags included, for -h.
	he := *e
	he.stderr = e.stdout
	return exitCode(c.run(&he, []string{"-h"}))
}

// checkedWriter passes writes on and remembers the first error.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "pdbgen builds, verifies and uses pattern databases for sliding-tile puzzles.")
	fmt.Fprintln(w, "\nUsage:\n\n\tpdbgen <command> [flags] [args]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-8s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w, "\nRun 'pdbgen help <command>' or 'pdbgen <command> -h' for a command's flags.")
	fmt.Fprintln(w, "\nExit status: 0 success; 1 bad data (a corrupt table, a failed check, a bad")
	fmt.Fprintln(w, "input line); 2 usage or I/O trouble (including a table too large for the")
	fmt.Fprintln(w, "memory); 130 interrupted by Ctrl-C, 143 by SIGTERM.")
}
