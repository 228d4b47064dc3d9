//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package atomicfile

import (
	"os"
	"runtime"
	"time"
)

// lockTemp does nothing here: there is no flock. On Windows the open file
// itself is the protection (Go opens files without FILE_SHARE_DELETE, so
// removing a file another process is writing fails).
func lockTemp(*os.File) {}

func tempInUse(string) bool { return false }

func minStaleAge() time.Duration {
	if runtime.GOOS == "windows" {
		return staleAge
	}
	return time.Hour
}

// LockDir gives no protection here (no flock): it returns nil, nil.
func LockDir(string) (*os.File, error) { return nil, nil }
