//go:build unix

package regular

import "syscall"

func mkfifoSyscall(path string) error { return syscall.Mkfifo(path, 0o644) }
