//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package atomicfile

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockTemp takes an exclusive advisory lock on f (flock), held until f is
// closed, so that RemoveStaleTemps in another process leaves it alone. Best
// effort: a file system without flock support only loses that protection.
func lockTemp(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// tempInUse reports whether another open file description holds the lock
// of lockTemp on path.
func tempInUse(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true // cannot tell: leave it
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	return false // closing f releases the lock
}

func minStaleAge() time.Duration { return staleAge }

// LockDir takes an exclusive advisory lock (flock) on the directory dir,
// held until the returned file is closed (or the process ends). It fails
// with ErrInUse when another open file description holds it: another
// process, or another LockDir of this one. A file system without flock
// support gives no protection and no error.
func LockDir(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if err == syscall.EWOULDBLOCK {
			return nil, ErrInUse
		}
		return nil, nil // no flock here: no protection
	}
	return f, nil
}
