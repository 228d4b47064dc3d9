// Package atomicfile writes files atomically: readers of the target see the
// old content or the new, never a part, and a failed write leaves the old
// file untouched and no temporary file behind.
package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// Write creates path with mode perm from what fill writes: into a
// temporary file ".<base>.tmp-<digits>" in the same directory (so the
// rename cannot cross file systems), locked against RemoveStaleTemps of
// other processes while it is written, buffered, flushed, synced and
// closed, then renamed over path; the directory is synced after the
// rename, best effort (not every platform can sync a directory). Before it
// starts, it removes the temporaries that killed writers left in the
// directory (RemoveStaleTemps, best effort). On any error, from fill or
// from the file system, the temporary file is removed, an existing file at
// path is left untouched, and the error names path, never the temporary
// file.
func Write(path string, perm os.FileMode, fill func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	_, _ = RemoveStaleTemps(dir) // best effort: leftovers of killed writers
	f, err := os.CreateTemp(dir, tempPattern(base))
	if err != nil {
		return targetErr(path, err)
	}
	tmp := f.Name()
	lockTemp(f)
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = targetErr(path, err)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := fill(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil { // make the rename durable
		_ = d.Sync()
		d.Close()
	}
	return nil
}
