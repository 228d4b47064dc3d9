package format

import (
	"errors"
	"fmt"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/tilepdb/tilepdb/puzzle"
)

// A codec turns the entries of one frame into the bytes stored in its zstd
// frame and back: format 1's raw bytes, or one of format 2's encodings
// (SPEC.md section 8). Each encoding is one codec value, found through its
// file version (versions); adding an encoding means adding a codec there.
type codec interface {
	// name is the header's "encoding" value ("" for format 1, whose
	// header has no such key).
	name() string
	// storedLen is the size in bytes of n entries.
	storedLen(n uint64) uint64
	// encode returns the stored bytes of vals, the entries of ranks lo,
	// lo+1, ... (m is the table's Manhattan distances, nil for format 1).
	// The result may alias vals or s's buffers. It fails with errTooWide
	// when a value does not fit this codec (the writer then tries the
	// version's next codec) and a *codeError for a value no codec of the
	// version can store.
	encode(m *manhattan, lo uint64, vals []uint8, s *frameScratch) ([]uint8, error)
	// decode turns src (storedLen(len(dst)) bytes) into the values of
	// ranks lo, lo+1, ... in dst; the error names the rank.
	decode(m *manhattan, lo uint64, src, dst []uint8, s *frameScratch) error
}

// errTooWide is encode's error for a value its codec cannot hold but a
// wider codec of the same version can.
var errTooWide = errors.New("a code does not fit the encoding")

// version is one major version of the file format: what Encode writes and
// the reader checks that depends on it.
type version struct {
	major, minor uint16
	level        zstd.EncoderLevel // zstd level of the frames Encode writes
	evenFrames   bool              // frame_size must be even
	manhattan    bool              // codes are Manhattan deltas (newManhattan)
	payloadSHA   bool              // the header carries payload_sha256
	// codecs are the version's encodings, in the order Encode tries them
	// (the first that holds every value is written).
	codecs []codec
	// defaultFrameSize is Encode's frame size for a table of n entries.
	defaultFrameSize func(n uint64) int
}

// versions are the file versions this package reads and writes.
var versions = []*version{
	{major: MajorVersion1, level: encoderLevel, codecs: []codec{raw{}},
		defaultFrameSize: func(uint64) int { return DefaultFrameSize }},
	{major: MajorVersion, minor: MinorVersion, level: encoderLevel2, evenFrames: true, manhattan: true, payloadSHA: true,
		codecs: []codec{half4{}, half8{}}, defaultFrameSize: DefaultFrameSize2},
}

// versionOf returns the version of a major number, nil when unknown.
func versionOf(major uint16) *version {
	for _, v := range versions {
		if v.major == major {
			return v
		}
	}
	return nil
}

// codec returns the version's codec of a header's encoding, or an
// *UnsupportedError naming the encodings this reader implements.
func (v *version) codec(enc string) (codec, error) {
	names := make([]string, len(v.codecs))
	for i, c := range v.codecs {
		if c.name() == enc {
			return c, nil
		}
		names[i] = fmt.Sprintf("%q", c.name())
	}
	return nil, &UnsupportedError{Offset: offHeader, Msg: fmt.Sprintf("header: encoding %q (this reader implements %s)", enc, strings.Join(names, " and "))}
}

// raw is format 1's codec: one byte per entry, the value itself.
type raw struct{}

func (raw) name() string              { return "" }
func (raw) storedLen(n uint64) uint64 { return n }

func (raw) encode(_ *manhattan, _ uint64, vals []uint8, _ *frameScratch) ([]uint8, error) {
	return vals, nil
}

func (raw) decode(_ *manhattan, _ uint64, src, dst []uint8, _ *frameScratch) error {
	copy(dst, src)
	return nil
}

// half4 is EncodingHalf4: the codes (value - Manhattan)/2, two per byte.
type half4 struct{}

func (half4) name() string              { return EncodingHalf4 }
func (half4) storedLen(n uint64) uint64 { return n/2 + n%2 }

func (half4) encode(m *manhattan, lo uint64, vals []uint8, s *frameScratch) ([]uint8, error) {
	codes := s.man(len(vals))
	mx, err := toCodes(m, lo, vals, codes, &s.row)
	if err != nil {
		return nil, err
	}
	if mx > 15 {
		return nil, errTooWide
	}
	out := codes[:half4{}.storedLen(uint64(len(vals)))]
	pack4(codes, out) // in place: byte j is written after codes 2j and 2j+1 are read
	return out, nil
}

func (half4) decode(m *manhattan, lo uint64, src, dst []uint8, s *frameScratch) error {
	m.fill(lo, dst, &s.row)
	n := len(dst)
	var mx uint16
	for j, b := range src[:n/2] {
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
	if mx < puzzle.Unreached {
		return nil
	}
	return firstTooHigh(m, lo, dst, s, func(i int) uint8 { return src[i/2] >> (4 * (i & 1)) & 15 })
}

// half8 is EncodingHalf8: the codes (value - Manhattan)/2, one per byte.
type half8 struct{}

func (half8) name() string              { return EncodingHalf8 }
func (half8) storedLen(n uint64) uint64 { return n }

func (half8) encode(m *manhattan, lo uint64, vals []uint8, s *frameScratch) ([]uint8, error) {
	codes := s.man(len(vals))
	if _, err := toCodes(m, lo, vals, codes, &s.row); err != nil {
		return nil, err
	}
	return codes, nil
}

func (half8) decode(m *manhattan, lo uint64, src, dst []uint8, s *frameScratch) error {
	m.fill(lo, dst, &s.row)
	var mx uint16
	for i, c := range src[:len(dst)] {
		v := uint16(dst[i]) + uint16(c)<<1
		mx = max(mx, v)
		dst[i] = uint8(v)
	}
	if mx < puzzle.Unreached {
		return nil
	}
	return firstTooHigh(m, lo, dst, s, func(i int) uint8 { return src[i] })
}

// firstTooHigh finds the first rank whose code (code(i) for entry i)
// decodes above 254, for the error of a corrupt frame (rare).
func firstTooHigh(m *manhattan, lo uint64, dst []uint8, s *frameScratch, code func(i int) uint8) error {
	m.fill(lo, dst, &s.row)
	for i := range dst {
		if uint16(dst[i])+uint16(code(i))<<1 >= puzzle.Unreached {
			return fmt.Errorf("rank %d decodes to a value above %d", lo+uint64(i), puzzle.Unreached-1)
		}
	}
	return fmt.Errorf("a value decodes above %d", puzzle.Unreached-1) // not reached
}
