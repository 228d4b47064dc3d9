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
	"fmt"
	"io"
	"os"
)

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

var commands []*command

func init() {
	commands = []*command{
		{"build", "[-j N] [-o DIR] [--quiet] [--preset NAME[,NAME...] | --board WxH --tiles LIST [--tiles LIST...]] [--goal GOAL] [--manifest FILE] [--write-manifest FILE] [--max-memory SIZE]", "build tables into a directory", runBuild},
		{"verify", "[--deep] [-j N] FILE...", "check table and set files (exit 0 all good, 1 bad data, 2 trouble)", runVerify},
		{"info", "[--json] FILE...", "print header and value histogram of table files", runInfo},
		{"lookup", "FILE... (tables and set files)", "print the heuristic value of each board on stdin", runLookup},
		{"solve", "[--reflect] [-j N] [-t N] [--json] [--from blank-first] FILE... (tables and set files)", "solve boards from stdin optimally", runSolve},
		{"presets", "", "list the presets", runPresets},
		{"version", "", "print the version", runVersion},
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
	code := exitCode(err)
	if err != nil && code != exitOK && !errors.Is(err, errSilent) {
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
