package format

import "fmt"

// Helpers of the older tests (fuzz_test.go, lookup_bench_test.go), by
// encoding name, over the codec registry (versions).

// codecNamed returns format 2's codec named enc.
func codecNamed(enc string) codec {
	c, err := versionOf(MajorVersion).codec(enc)
	if err != nil {
		panic(err)
	}
	return c
}

// encodedLen is the size in bytes of n entries in the encoding.
func encodedLen(enc string, n uint64) uint64 { return codecNamed(enc).storedLen(n) }

// encodeCodes writes the encoded bytes of vals (ranks lo, ...) to dst
// (len encodedLen(enc, len(vals))); codes and scratch are unused scratch
// space of the older signature.
func encodeCodes(m *manhattan, enc string, lo uint64, vals, codes, dst []uint8, scratch *[]uint8) error {
	_, _ = codes, scratch
	out, err := codecNamed(enc).encode(m, lo, vals, new(frameScratch))
	if err != nil {
		return fmt.Errorf("%s: %w", enc, err)
	}
	copy(dst, out)
	return nil
}
