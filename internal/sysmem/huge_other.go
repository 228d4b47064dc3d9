//go:build !linux

package sysmem

// AdviseHugePages does nothing outside Linux.
func AdviseHugePages[E any]([]E, bool) {}
