//go:build linux

package solver

import "syscall"

// madvCollapse is Linux's MADV_COLLAPSE (since 6.1): back the range with
// transparent huge pages now.
const madvCollapse = 25

// adviseHugePages asks Linux to back the large table b with 2 MiB pages,
// which spares the TLB misses of random lookups. Failure is harmless (an
// older kernel, THP disabled) and ignored.
func adviseHugePages(b []byte) {
	const huge = 2 << 20
	if len(b) < 16*huge {
		return
	}
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	_ = syscall.Madvise(b, madvCollapse)
}
