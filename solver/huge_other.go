//go:build !linux

package solver

// adviseHugePages does nothing outside Linux.
func adviseHugePages([]byte) {}
