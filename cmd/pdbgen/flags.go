package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlags returns a FlagSet for the command called name. For -h it prints
// the command's help on stderr; for a flag it cannot parse (unknown, a bad
// value) two lines: the error, and where the help is (the whole help, up
// to a hundred lines, would scroll the error away). parseFlags then
// returns the error (exit 2).
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package writes a parse error to the output, then calls
	// Usage; for -h it calls Usage alone.
	var msg strings.Builder
	fs.SetOutput(&msg)
	fs.Usage = func() {
		if msg.Len() == 0 {
			printCommandHelp(e.stderr, findCommand(name), fs)
			return
		}
		fmt.Fprintf(e.stderr, "pdbgen %s: %s\nRun 'pdbgen %s -h' for its usage and flags.\n", name, strings.TrimSpace(msg.String()), name)
		msg.Reset()
	}
	return fs
}

// printCommandHelp writes a command's usage line, summary, longer help and
// flags (the "Flags:" section only when it has any).
func printCommandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", strings.TrimSpace("pdbgen "+c.name+" "+c.usage), c.short)
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.help, "\n"))
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintf(w, "\nFlags:\n")
		out := fs.Output()
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
}

// maxWorkers bounds -j: enough for any machine, and low enough that a typo
// such as -j 10000000 cannot start ten million goroutines.
const maxWorkers = 1024

// checkWorkers validates a -j value.
func checkWorkers(j int) error {
	if j < 1 || j > maxWorkers {
		return usageErr("-j must be between 1 and %d, got %d", maxWorkers, j)
	}
	return nil
}

// maxThreads bounds solve -t: each board's IDA* splits its tree below a
// shallow depth, so a few hundred threads is already more than a board
// has subtrees to share, and a typo cannot start millions of goroutines.
const maxThreads = 256

// checkThreads validates a -t value.
func checkThreads(t int) error {
	if t < 1 || t > maxThreads {
		return usageErr("-t must be between 1 and %d, got %d", maxThreads, t)
	}
	return nil
}

// parseFlags parses args, turning flag errors into usage errors. Flags may
// follow positional arguments (pdbgen verify a.pdb --deep); "--" ends the
// flags.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &exitError{code: exitTrouble, err: errSilent}
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// noArgs parses the flags of a command that takes no positional argument.
func noArgs(fs *flag.FlagSet, args []string) error {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("unexpected argument %q (flags only)", pos[0])
	}
	return nil
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, " ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
