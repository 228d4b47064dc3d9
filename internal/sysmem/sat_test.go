package sysmem

import (
	"math"
	"math/big"
	"testing"
)

// TestSat: SatAdd and SatMul agree with exact big-integer arithmetic,
// clamped to math.MaxUint64, on values around every power of two.
func TestSat(t *testing.T) {
	var vals []uint64
	for s := range 64 {
		p := uint64(1) << s
		vals = append(vals, p-1, p, p+1)
	}
	vals = append(vals, 0, math.MaxUint64, math.MaxUint64-1)
	limit := new(big.Int).SetUint64(math.MaxUint64)
	clamp := func(z *big.Int) uint64 {
		if z.Cmp(limit) > 0 {
			return math.MaxUint64
		}
		return z.Uint64()
	}
	for _, a := range vals {
		for _, b := range vals {
			x, y := new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)
			if got, want := SatAdd(a, b), clamp(new(big.Int).Add(x, y)); got != want {
				t.Errorf("SatAdd(%d, %d) = %d, want %d", a, b, got, want)
			}
			if got, want := SatMul(a, b), clamp(new(big.Int).Mul(x, y)); got != want {
				t.Errorf("SatMul(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
}
