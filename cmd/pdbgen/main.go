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
// bad input line); 2 usage or I/O trouble. Progress and diagnostics go to
// stderr; stdout carries only what a script would parse.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tilepdb/tilepdb/preset"
)

// Version is the generator version recorded in every file header.
const Version = "0.1.0"

// generator is the Header.Generator string.
const generator = "tilepdb pdbgen " + Version

// command is one subcommand, in the style of cmd/go.
type command struct {
	name  string
	usage string // the argument synopsis
	short string
	run   func(env *env, args []string) error
}

// env is what a command may touch, so tests can run commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stderrIsTTY    bool
}

// exitError carries an exit status: 1 for bad data, 2 for usage and I/O.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErr and dataErr build the two kinds of failures.
func usageErr(format string, a ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, a...)}
}

func dataErr(err error) error { return &exitError{code: 1, err: err} }

// errSilent means the command already printed its diagnostics.
var errSilent = errors.New("")

var commands []*command

func init() {
	commands = []*command{
		{"build", "[-j N] [-o DIR] [--quiet] [--preset NAME[,NAME...] | --board WxH --tiles LIST [--tiles LIST...]] [--goal GOAL] [--manifest FILE] [--write-manifest FILE] [--max-memory SIZE]", "build tables into a directory", runBuild},
		{"verify", "[--deep] [-j N] FILE...", "check table files (exit 0 all good, 1 bad data, 2 trouble)", runVerify},
		{"info", "[--json] FILE...", "print header and value histogram of table files", runInfo},
		{"lookup", "FILE...", "print the heuristic value of each board on stdin", runLookup},
		{"solve", "[--reflect] [-j N] [--json] [--from blank-first] FILE...", "solve boards from stdin optimally", runSolve},
		{"presets", "", "list the presets", runPresets},
		{"version", "", "print the version", func(e *env, _ []string) error {
			fmt.Fprintln(e.stdout, generator)
			return nil
		}},
	}
}

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, stderrIsTTY: isTerminal(os.Stderr)}
	os.Exit(run(e, os.Args[1:]))
}

// run executes one command line and returns the exit status.
func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c := findCommand(args[1]); c != nil {
				fmt.Fprintf(e.stdout, "usage: pdbgen %s %s\n\n%s\n", c.name, c.usage, c.short)
				return 0
			}
		}
		printUsage(e.stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c := findCommand(args[0])
	if c == nil {
		fmt.Fprintf(e.stderr, "pdbgen: unknown command %q\n", args[0])
		printUsage(e.stderr)
		return 2
	}
	err := c.run(e, args[1:])
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	code := 2
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if !errors.Is(err, errSilent) {
		fmt.Fprintf(e.stderr, "pdbgen %s: %v\n", c.name, err)
	}
	return code
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
	fmt.Fprintln(w, "\nRun 'pdbgen <command> -h' for a command's flags.")
}

// newFlags returns a FlagSet for command c that reports errors to stderr
// and prints the usage line.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		c := findCommand(name)
		fmt.Fprintf(e.stderr, "usage: pdbgen %s %s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, turning flag errors into usage errors. Flags may
// follow positional arguments (pdbgen verify a.pdb --deep).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &exitError{code: 2, err: errSilent}
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

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, " ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func runPresets(e *env, args []string) error {
	fs := newFlags(e, "presets")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	for _, p := range preset.All {
		def := ""
		if p.Default {
			def = " (default)"
		}
		fmt.Fprintf(e.stdout, "%-8s %dx%d  %s%s\n", p.Name, p.W, p.H, p.Description, def)
	}
	return nil
}
