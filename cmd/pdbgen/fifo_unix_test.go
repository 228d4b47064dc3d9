//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNotRegularFile (issue 22 item 1): a named pipe (or a directory) where
// a file is read is refused at once with one line naming it, exit 2; before
// the fix each of these blocked forever in open(2).
func TestNotRegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "f.pdb")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link := filepath.Join(dir, "link.pdb")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	// A set file naming the pipe.
	setFile := filepath.Join(dir, "fifo.set.json")
	if err := os.WriteFile(setFile, []byte(`{"tilepdb_set": 1, "width": 3, "height": 3, "goal": [1, 2, 3, 4, 5, 6, 7, 8, 0], "parts": [{"tiles": [1, 2, 3, 4, 5, 6, 7, 8], "table": "f.pdb", "table_tiles": [1, 2, 3, 4, 5, 6, 7, 8], "symmetry": "identity", "tile_map": [1, 2, 3, 4, 5, 6, 7, 8], "table_raw_sha256": "`+sha8+`"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A data folder with the pipe at the name of a table its manifest lists.
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(data, "8puzzle.pdb"), 0o644); err != nil {
		t.Fatal(err)
	}
	man := filepath.Join(dir, "MANIFEST.tsv")
	if err := os.WriteFile(man, []byte("8puzzle.pdb\t181440\t31\t"+sha8+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	table := fixture(t, fx8)
	for _, tc := range []struct {
		name, stdin string
		args        []string
		cmd, want   string
	}{
		{"lookup", goal8, []string{"lookup", fifo}, "lookup", fifo + ": not a regular file (a named pipe)"},
		{"lookup symlink", goal8, []string{"lookup", link}, "lookup", "not a regular file (a named pipe)"},
		{"lookup dir", goal8, []string{"lookup", dir}, "lookup", "not a regular file (a directory)"},
		{"solve", goal8, []string{"solve", fifo}, "solve", "not a regular file"},
		{"solve set", goal8, []string{"solve", setFile}, "solve", "not a regular file"},
		{"lookup set", goal8, []string{"lookup", setFile}, "lookup", "not a regular file"},
		{"lookup table and pipe", goal8, []string{"lookup", table, fifo}, "lookup", "not a regular file"},
		{"build manifest", "", []string{"build", "--quiet", "-o", filepath.Join(dir, "out"), "--manifest", fifo}, "build", "not a regular file"},
		{"build if-needed", "", []string{"build", "--quiet", "--if-needed", "-o", data, "--manifest", man}, "build", "not a regular file (a named pipe)"},
		{"verify manifest", "", []string{"verify", "--manifest", fifo, data}, "verify", "not a regular file"},
		{"verify manifest dir", "", []string{"verify", "--manifest", dir, data}, "verify", "not a regular file (a directory)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan result, 1)
			go func() { done <- pdbgen(t, tc.stdin, tc.args...) }()
			var r result
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("pdbgen %s blocks on a named pipe", strings.Join(tc.args, " "))
			}
			wantCode(t, r, exitTrouble)
			oneErrorLine(t, r, tc.cmd, tc.want)
		})
	}
	// info and verify report each file and go on: one line for the pipe.
	for _, args := range [][]string{{"info", fifo}, {"verify", fifo}, {"verify", setFile}} {
		done := make(chan result, 1)
		go func() { done <- pdbgen(t, "", args...) }()
		var r result
		select {
		case r = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("pdbgen %s blocks on a named pipe", strings.Join(args, " "))
		}
		wantCode(t, r, exitTrouble)
		if !strings.Contains(r.stderr, "not a regular file") || len(lines(r.stderr)) > 2 {
			t.Errorf("pdbgen %s: want a 'not a regular file' line\n%v", strings.Join(args, " "), r)
		}
		if strings.Count(r.stderr, args[1]+": ") > 1 {
			t.Errorf("pdbgen %s: the path is named twice\n%v", strings.Join(args, " "), r)
		}
	}
}
