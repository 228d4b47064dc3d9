package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestWrite: a good write replaces the file with the new content and mode;
// a failing fill or an unwritable target leaves the old file and no
// temporary file, with an error naming the target.
func TestWrite(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		fill    func(w io.Writer) error
		target  string // relative to the test directory
		wantErr error  // nil: success
		want    string // content of target afterwards
	}{
		{"replaces", func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }, "f", nil, "new\n"},
		{"empty", func(io.Writer) error { return nil }, "f", nil, ""},
		{"fill fails", func(w io.Writer) error { _, _ = io.WriteString(w, "half"); return boom }, "f", boom, "old\n"},
		{"missing directory", func(io.Writer) error { return nil }, "nodir/f", os.ErrNotExist, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "f"), []byte("old\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, tt.target)
			err := Write(path, 0o644, tt.fill)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("Write: %v", err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("Write: err %v, want %v", err, tt.wantErr)
			case err != nil && !strings.Contains(err.Error(), path):
				t.Errorf("error %q does not name %s", err, path)
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
			if tt.wantErr != nil && tt.target != "f" {
				return
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("content %q, want %q", got, tt.want)
			}
			if st, _ := os.Stat(path); tt.wantErr == nil && runtime.GOOS != "windows" && st.Mode().Perm() != 0o644 {
				t.Errorf("mode %v, want 0644", st.Mode().Perm())
			}
		})
	}
}
