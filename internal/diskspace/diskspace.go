// Package diskspace answers "how many bytes may this process still write
// to the file system holding a path?", for the checks that commands run
// before they write a large amount of data (the shard folder of an
// out-of-core build).
package diskspace

import (
	"os"
	"path/filepath"
)

// Free returns the bytes available to an unprivileged user on the file
// system holding path (or, when path does not exist yet, its nearest
// existing parent), and whether that is known. Linux and macOS:
// statfs(2)'s f_bavail × f_bsize; elsewhere (0, false), and callers skip
// their check.
func Free(path string) (uint64, bool) {
	p, err := filepath.Abs(path)
	if err != nil {
		return 0, false
	}
	for {
		if _, err := os.Stat(p); err == nil {
			return free(p)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return 0, false
		}
		p = parent
	}
}
