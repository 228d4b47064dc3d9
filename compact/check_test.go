package compact

import (
	"math/rand/v2"
	"testing"
)

// TestCheckRun: checkRun's word-at-a-time parity check and bit packing
// give what a byte-at-a-time reading of its contract gives, for slot
// counts below, at and above the eight slots it reads at once, runs
// starting on any word, a last run shorter than a word, and entries of
// bad parity anywhere (the first one reported).
func TestCheckRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []int{1, 2, 3, 7, 8, 9, 13, 64, 65, 1000} {
		for trial := range 20 {
			n := 1 + rng.IntN(700)
			want := make([]uint8, s)
			for i := range want {
				want[i] = uint8(rng.IntN(2))
			}
			values := make([]uint8, n)
			for i := range values {
				values[i] = uint8(rng.IntN(60))&^1 | want[i%s]
			}
			if trial%2 == 1 {
				bad := rng.IntN(n)
				values[bad] ^= 1
				if b2 := bad + rng.IntN(n-bad); b2 != bad {
					values[b2] ^= 1
				}
			}
			wrapped := append(want[:s:s], make([]uint8, 0, wrap)...)
			for i := range wrap {
				wrapped = append(wrapped, want[i%s])
			}
			lo := uint64(rng.IntN(n/64+1)) * 64
			got := make([]uint64, (n+63)/64)
			first := checkRun(values, wrapped, got, lo, uint64(n))
			wantFirst := uint64(n)
			for i := int(lo); i < n; i++ {
				if (values[i]^want[i%s])&1 != 0 {
					wantFirst = uint64(i)
					break
				}
			}
			if first != wantFirst {
				t.Fatalf("s %d, n %d, lo %d: first bad entry %d, want %d", s, n, lo, first, wantFirst)
			}
			if first < uint64(n) {
				continue // the words after a bad entry are not specified
			}
			for i := int(lo); i < n; i++ {
				if bit := uint8(got[i/64]>>(i%64)) & 1; bit != values[i]>>1&1 {
					t.Fatalf("s %d, n %d, lo %d: bit %d is %d, want bit 1 of %d", s, n, lo, i, bit, values[i])
				}
			}
		}
	}
}
