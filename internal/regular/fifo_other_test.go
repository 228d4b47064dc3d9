//go:build !unix

package regular

import "errors"

func mkfifoSyscall(string) error { return errors.New("not supported") }
