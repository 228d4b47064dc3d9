package main

import "fmt"

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
