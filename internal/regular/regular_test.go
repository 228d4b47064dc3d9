package regular

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// mkfifo makes a named pipe at path, or skips the test where there are none.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no named pipes in the file system on Windows")
	}
	if err := mkfifoSyscall(path); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.pdb")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.pdb")
	mkfifo(t, fifo)
	link := filepath.Join(dir, "link.pdb")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	fileLink := filepath.Join(dir, "filelink.pdb")
	if err := os.Symlink(file, fileLink); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path       string
		notRegular bool
		missing    bool
	}{
		{path: file},
		{path: fileLink},
		{path: fifo, notRegular: true},
		{path: link, notRegular: true},
		{path: dir, notRegular: true},
		{path: filepath.Join(dir, "none"), missing: true},
	} {
		done := make(chan error, 1)
		go func() {
			f, err := Open(tc.path)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Open(%s) blocks", tc.path)
		}
		switch {
		case tc.notRegular:
			var nr *NotRegularError
			if !errors.As(err, &nr) || !errors.Is(err, ErrNotRegular) {
				t.Errorf("Open(%s) = %v, want a NotRegularError", tc.path, err)
			}
		case tc.missing:
			if !errors.Is(err, os.ErrNotExist) {
				t.Errorf("Open(%s) = %v, want ErrNotExist", tc.path, err)
			}
		case err != nil:
			t.Errorf("Open(%s) = %v, want success", tc.path, err)
		}
	}
}

// TestOpenNonblock: a named pipe that replaces the file after Check does
// not block the open itself (the second check refuses it).
func TestOpenNonblock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	mkfifo(t, fifo)
	done := make(chan error, 1)
	go func() {
		f, err := openNonblock(fifo)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("openNonblock(fifo) = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("openNonblock blocks on a named pipe")
	}
}

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"data/8puzzle.pdb": "data/8puzzle.pdb",
		"a b.pdb":          "a b.pdb",
		"é.pdb":            "é.pdb",
		"a\x00b":           `"a\x00b"`,
		"a\x1b[2Jb":        `"a\x1b[2Jb"`,
		"a\nb":             `"a\nb"`,
		"a\xffb":           `"a\xffb"`,
		`a"b`:              `"a\"b"`,
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %s, want %s", in, got, want)
		}
	}
}
