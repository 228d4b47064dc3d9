//go:build linux || darwin

package diskspace

import "syscall"

func free(path string) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true // Bsize: int64 on linux/amd64, int32 on linux/386, uint32 on darwin
}
