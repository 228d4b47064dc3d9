package sysmem

import (
	"math"
	"math/bits"
)

// SatAdd returns a + b, or math.MaxUint64 when the sum overflows: memory
// estimates built from sizes a file declares saturate instead of wrapping
// to a small number that would pass a Budget check.
func SatAdd(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return s
}

// SatMul returns a × b, or math.MaxUint64 when the product overflows (see
// SatAdd).
func SatMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}
