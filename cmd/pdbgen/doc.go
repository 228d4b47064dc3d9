// Command pdbgen builds, verifies, inspects and uses pattern databases for
// sliding-tile puzzles.
//
// Usage:
//
//	pdbgen <command> [flags] [args]
//
// Commands:
//
//	build    build tables (a preset or a custom pattern) into a directory;
//	         --if-needed only the missing or bad ones of a manifest,
//	         --max-memory out of core when a table does not fit
//	verify   check table and set files (integrity, ranking, consistency;
//	         --deep: rebuild), or a folder against its manifest
//	info     print a table file's header and value histogram, or what a set
//	         file lists
//	lookup   print the heuristic value of boards read from stdin
//	solve    solve boards read from stdin: optimally by default, or with a
//	         proven bound (weighted, anytime and beam searches), or without
//	         tables (bidirectional search)
//	presets  list the presets
//	version  print the version
//	help     print a command's flags, input syntax and exit status
//
// Exit status: 0 success; 1 bad data (a corrupt table, a failed check, a
// bad input line); 2 usage or I/O trouble (a write error on stdout, a table
// needing more memory than available); 128 + the signal's number when
// stopped by SIGINT (130) or SIGTERM (143). Progress and diagnostics go to
// stderr; stdout carries only what a script would parse.
//
// Each command is one file (build.go, verify.go, info.go, lookup.go,
// solve.go, presets.go, version.go) with its usage line, help, flags and
// run function; main.go dispatches. The packages do the work: preset and
// builder for build, verify for verify, format for every command that reads
// a table, solver for solve, manifest for --manifest. README.md and docs/
// describe the commands for users (docs/commands.md: input, output, exit
// status, memory).
package main
