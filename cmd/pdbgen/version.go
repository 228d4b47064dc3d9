package main

import "fmt"

// versionCmd is "pdbgen version": its usage line, summary and help (the flags are
// defined where it parses them).
var versionCmd = &command{name: "version", usage: "", short: "print the version (also: pdbgen --version)", run: runVersion}

// Version is the generator version recorded in every file header.
const Version = "0.1.0"

// generator is the Header.Generator string.
const generator = "tilepdb pdbgen " + Version

// runVersion prints the generator string.
func runVersion(e *env, args []string) error {
	if err := noArgs(newFlags(e, "version"), args); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, generator)
	return nil
}
