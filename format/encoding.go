package format

import (
	"fmt"
)

// Format 2 encodings (Header.Encoding, SPEC.md section 8): the names of
// the codecs half4 and half8 (codec.go). Both store, for
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
