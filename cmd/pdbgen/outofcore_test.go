package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildOutOfCore: build --shards writes the same file as the
// in-memory build and removes its shard folder; --shard-stats gets one
// JSON line per shard Step.
func TestBuildOutOfCore(t *testing.T) {
	dir := t.TempDir()
	mem, ooc, shards := filepath.Join(dir, "mem"), filepath.Join(dir, "ooc"), filepath.Join(dir, "shards")
	const file = "4x4_1-2-3-4.pdb"
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--board", "4x4", "--tiles", "1-4", "-o", mem), 0)
	stats := filepath.Join(dir, "stats.jsonl")
	r := pdbgen(t, "", "build", "--board", "4x4", "--tiles", "1-4", "-o", ooc, "--shards", "3", "--shard-dir", shards, "--shard-stats", stats, "-j", "2")
	wantCode(t, r, 0)
	if !bytes.Equal(readBytes(t, filepath.Join(mem, file)), readBytes(t, filepath.Join(ooc, file))) {
		t.Fatal("out-of-core file differs from the in-memory one")
	}
	for _, want := range []string{"out of core", "3 shards", "level 3 done", "wrote "} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if got := dirEntries(t, shards); len(got) != 0 {
		t.Errorf("shard folder left: %v", got)
	}
	b, err := os.ReadFile(stats)
	if err != nil || !strings.Contains(string(b), `"Frontier":`) || len(lines(string(b))) < 10 {
		t.Errorf("--shard-stats: %v\n%s", err, b)
	}
}

// TestBuildOutOfCoreRefusals: a used shard folder without --resume, a
// folder of another table with --resume, and an exact table out of core
// are refused with one line.
func TestBuildOutOfCoreRefusals(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "3x3_1-2-3.pdb.shards")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "PLAN"), []byte("tilepdb shard kernel 1: another table\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := pdbgen(t, "", "build", "--quiet", "--board", "3x3", "--tiles", "1,2,3", "-o", dir, "--shards", "2")
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "--resume")
	r = pdbgen(t, "", "build", "--quiet", "--board", "3x3", "--tiles", "1,2,3", "-o", dir, "--shards", "2", "--resume")
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "cannot resume: shard folder")
	if _, err := os.Stat(filepath.Join(dir, "3x3_1-2-3.pdb")); !os.IsNotExist(err) {
		t.Errorf("a table was written: %v", err)
	}
	r = pdbgen(t, "", "build", "--quiet", "--preset", "8puzzle", "-o", dir, "--shards", "2")
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "exact tables are built in memory only")
}

// TestVerifyFrames: verify --frames checks an additive table frame by
// frame (exit 0, the neighbour rules skipped with the reason) and refuses
// an exact table with one line.
func TestVerifyFrames(t *testing.T) {
	dir := t.TempDir()
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--board", "4x4", "--tiles", "1-3", "--preset", "", "-o", dir), 0)
	r := pdbgen(t, "", "verify", "--frames", filepath.Join(dir, "4x4_1-2-3.pdb"))
	wantCode(t, r, 0)
	checkedAligned(t, r.stdout)
	if !strings.Contains(r.stdout, "skipped step: verified frame by frame") || !strings.Contains(r.stdout, "checked manhattan  ok") {
		t.Errorf("report:\n%s", r.stdout)
	}
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--preset", "8puzzle", "-o", dir), 0)
	r = pdbgen(t, "", "verify", "--frames", filepath.Join(dir, "8puzzle.pdb"))
	wantCode(t, r, exitTrouble)
}
