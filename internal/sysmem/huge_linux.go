//go:build linux

package sysmem

import (
	"syscall"
	"unsafe"
)

// madvCollapse is Linux's MADV_COLLAPSE (since 6.1): back the range with
// transparent huge pages now.
const madvCollapse = 25

// hugeMin is the smallest buffer worth advising: 4 pages of 2 MiB.
const hugeMin = 8 << 20

// AdviseHugePages asks Linux to back the large buffer s (at least 8 MiB;
// smaller ones are left alone) with 2 MiB transparent huge pages, which
// spares the TLB misses of random lookups into a table and, for a buffer
// not yet written, most of the page faults of filling it (one per 2 MiB
// instead of one per 4 KiB). With now, the pages already written are
// also collapsed into huge pages at once (MADV_COLLAPSE) instead of by
// the kernel's background scan. s must start on a page boundary, as Go's
// large allocations do. Failure is harmless (an older kernel, THP set to
// never) and ignored.
func AdviseHugePages[E any](s []E, now bool) {
	var e E
	n := len(s) * int(unsafe.Sizeof(e))
	if n < hugeMin {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	if now {
		_ = syscall.Madvise(b, madvCollapse)
	}
}
