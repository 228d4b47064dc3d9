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
	// plan is the plan of the command's table files (memory.go, planFor).
	plan *tablePlan
}

// context returns e.ctx, or context.Background when it is not set.
func (e *env) context() context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}

var commands []*command

func init() {
	// Each command is declared in its own file with its usage and help.
	commands = []*command{buildCmd, verifyCmd, infoCmd, lookupCmd, solveCmd, presetsCmd, versionCmd}
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
