//go:build unix

package regular

import (
	"os"
	"syscall"
)

// openNonblock opens path read-only with O_NONBLOCK, so that a named pipe
// put in place after Check does not block the open (the flag has no effect
// on reads of a regular file).
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
