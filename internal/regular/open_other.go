//go:build !unix

package regular

import "os"

// openNonblock opens path read-only (no named pipes block an open here).
func openNonblock(path string) (*os.File, error) {
	return os.Open(path)
}
