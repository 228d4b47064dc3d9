package format

import (
	"fmt"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Format 2 encodings (Header.Encoding, SPEC.md section 8). Both store, for
// the entry of rank r with value v and Manhattan distance m(r) (the sum of
// the taxicab distances of the table's tiles to their goal cells; see
// manhattan), the code c = (v - m(r)) / 2. That is an integer >= 0 for every
// real table: the Manhattan distance is a lower bound on the moves of the
// table's tiles and each such move changes it by exactly one, so v - m(r) is
// even. Codes of real tables are small (0..9 for the 8-tile half of 15-78),
// so they compress much better than the values.
const (
	// EncodingHalf4 packs two codes per byte, the entry of even rank in the
	// low nibble; codes 0..15. A frame of n entries is ceil(n/2) bytes; when
	// n is odd the last high nibble is 0.
	EncodingHalf4 = "manhattan-half-4bit"
	// EncodingHalf8 stores one code per byte, codes 0..127; the writer uses
	// it only for a table with a code above 15.
	EncodingHalf8 = "manhattan-half-8bit"
)

// encodedLen is the size in bytes of n entries in the encoding.
func encodedLen(enc string, n uint64) uint64 {
	if enc == EncodingHalf4 {
		return n/2 + n%2
	}
	return n
}

// knownEncoding reports whether this package reads enc.
func knownEncoding(enc string) bool { return enc == EncodingHalf4 || enc == EncodingHalf8 }

// codeError describes an entry that format 2 cannot store.
type codeError struct {
	rank      uint64
	value, mh uint8
}

func (e *codeError) Error() string {
	why := "is odd"
	if e.value < e.mh {
		why = "is negative"
	}
	return fmt.Sprintf("rank %d holds value %d and its tiles' Manhattan distance is %d: the difference %s, so format 2 cannot store it (write format 1)", e.rank, e.value, e.mh, why)
}

// toCodes checks that every value of vals (ranks lo, lo+1, ...) is at least
// its Manhattan distance and of the same parity, writes the codes
// (value - Manhattan)/2 to codes (len(vals) bytes) and returns the largest.
func toCodes(m *manhattan, lo uint64, vals, codes []uint8, scratch *[]uint8) (uint8, error) {
	m.fill(lo, codes, scratch)
	var mx, odd uint8
	under := false
	for i, v := range vals {
		d := v - codes[i]
		under = under || v < codes[i]
		odd |= d
		mx = max(mx, d)
		codes[i] = d >> 1
	}
	if under || odd&1 != 0 { // find the first bad rank again (rare)
		m.fill(lo, codes, scratch)
		for i, v := range vals {
			if v < codes[i] || (v-codes[i])&1 != 0 {
				return 0, &codeError{rank: lo + uint64(i), value: v, mh: codes[i]}
			}
		}
	}
	return mx >> 1, nil
}

// pack4 packs codes (each below 16) two per byte into dst
// (len ceil(len(codes)/2)), the even entry in the low nibble. dst may be
// codes itself.
func pack4(codes, dst []uint8) {
	n := len(codes)
	i := 0
	for ; i+1 < n; i += 2 {
		dst[i/2] = codes[i] | codes[i+1]<<4
	}
	if i < n {
		dst[i/2] = codes[i]
	}
}

// encodeCodes writes the encoded bytes of vals (ranks lo, ...) to dst
// (len encodedLen(enc, len(vals))); codes is scratch space of len(vals)
// bytes. Values must be encodable in enc.
func encodeCodes(m *manhattan, enc string, lo uint64, vals, codes, dst []uint8, scratch *[]uint8) error {
	if _, err := toCodes(m, lo, vals, codes, scratch); err != nil {
		return err
	}
	if enc == EncodingHalf8 {
		copy(dst, codes)
	} else {
		pack4(codes, dst)
	}
	return nil
}

// decodeCodes turns the encoded bytes src of the entries of ranks lo, ...,
// lo+len(dst)-1 into values in dst. It fails when a value would exceed 254
// or the padding nibble of an odd-length 4-bit frame is not 0; the error
// names the rank.
func decodeCodes(m *manhattan, enc string, lo uint64, src, dst []uint8, scratch *[]uint8) error {
	m.fill(lo, dst, scratch)
	n := len(dst)
	var mx uint16
	if enc == EncodingHalf8 {
		for i, c := range src[:n] {
			v := uint16(dst[i]) + uint16(c)<<1
			mx = max(mx, v)
			dst[i] = uint8(v)
		}
	} else {
		pairs := src[:n/2]
		for j, b := range pairs {
			i := 2 * j
			v0 := uint16(dst[i]) + uint16(b&15)<<1
			v1 := uint16(dst[i+1]) + uint16(b>>4)<<1
			mx = max(mx, v0, v1)
			dst[i], dst[i+1] = uint8(v0), uint8(v1)
		}
		if n%2 == 1 {
			b := src[n/2]
			if b>>4 != 0 {
				return fmt.Errorf("the padding nibble after the last entry (rank %d) is %d, want 0", lo+uint64(n-1), b>>4)
			}
			v := uint16(dst[n-1]) + uint16(b&15)<<1
			mx = max(mx, v)
			dst[n-1] = uint8(v)
		}
	}
	if mx < puzzle.Unreached {
		return nil
	}
	// Find the first rank above 254 (rare: a corrupt file).
	m.fill(lo, dst, scratch)
	for i := range dst {
		c := uint16(0)
		if enc == EncodingHalf8 {
			c = uint16(src[i])
		} else {
			c = uint16(src[i/2]>>(4*(i&1))) & 15
		}
		if uint16(dst[i])+c<<1 >= puzzle.Unreached {
			return fmt.Errorf("rank %d decodes to a value above %d", lo+uint64(i), puzzle.Unreached-1)
		}
	}
	return fmt.Errorf("a value decodes above %d", puzzle.Unreached-1) // not reached
}
