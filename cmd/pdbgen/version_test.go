package main

import (
	"regexp"
	"testing"
)

// TestVersion: the generator string on stdout, a semantic version.
func TestVersion(t *testing.T) {
	r := pdbgen(t, "", "version")
	wantCode(t, r, 0)
	if r.stdout != "tilepdb pdbgen "+Version+"\n" || r.stderr != "" {
		t.Errorf("version:\n%v", r)
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(Version) {
		t.Errorf("Version %q is not semver", Version)
	}
}
