package format

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// ErrNoCodes is returned by ReadCodesFile for a table that is not stored as
// EncodingHalf4 codes (format 1, EncodingHalf8, a zero-aware table).
var ErrNoCodes = errors.New("tilepdb: the table is not stored as manhattan-half-4bit codes")

// ReadCodesFile reads the table file at path with every check of ReadFile
// (header, payload SHA-256, each zstd frame and its checksum, the padding
// nibble, values at most 254, raw SHA-256 and histogram recounted from the
// values), but keeps the table as its format 2 codes (SPEC.md section 8):
// Table.Codes holds ⌈Entries/2⌉ bytes, the code c = (value − Manhattan)/2
// of rank r in the low nibble of byte r/2 when r is even and in the high
// one when it is odd, and Table.Values is nil (the table is marked like one
// whose values were released: Table.ReleaseValues). A caller adds the
// Manhattan distance of the pattern tiles to 2c to get the value
// (Table.CodeValue). It holds half the memory of the byte form and never
// the byte form at once: the frames are decompressed straight into Codes,
// and decoded to values one frame per worker for the checks only.
//
// Errors as for ReadFile; ErrNoCodes (wrapped, naming the path) for a
// table that is not a plain additive table of EncodingHalf4.
func ReadCodesFile(path string) (*Table, error) {
	var t *Table
	err := withFile(path, func(f *os.File, size int64) error {
		d := &decoder{r: f, size: size, strict: true}
		var err error
		t, err = d.decodeCodes()
		return err
	})
	if err != nil && errors.Is(err, ErrNoCodes) {
		err = fmt.Errorf("%s: %w", path, err)
	}
	return t, err
}

// CodesMemory is the memory ReadCodesFile allocates for a table of header
// h: DecodeMemory with the codes (⌈Entries/2⌉ bytes) in place of the
// values; each decoding worker holds the same frame buffers.
func (h *Header) CodesMemory() uint64 {
	dec := h.DecodeMemory()
	return dec - min(dec, h.Entries) + h.Entries/2 + h.Entries%2
}

// decodeCodes is decode keeping the codes (ReadCodesFile).
func (d *decoder) decodeCodes() (*Table, error) {
	h, p, payloadOff, err := d.header()
	if err != nil {
		return nil, err
	}
	if _, ok := d.c.(half4); !ok || h.Kind != KindAdditive {
		return nil, fmt.Errorf("%w (kind %s, encoding %q)", ErrNoCodes, h.Kind, h.Encoding)
	}
	fs, workers, err := d.openPayload(h, p, payloadOff)
	if err != nil {
		return nil, err
	}
	defer fs.close()
	nf := len(h.Frames)
	codes := make([]uint8, half4{}.storedLen(h.Entries))
	sysmem.AdviseHugePages(codes, false)
	vals := make([][]uint8, workers)
	counts := make([]Counts, workers)
	sum := sha256.New()
	var total Counts
	for b := 0; b < nf; b += workers {
		var g errgroup.Group
		for i := b; i < min(b+workers, nf); i++ {
			g.Go(func() error {
				lo, hi := fs.bounds(i)
				w := i - b
				if uint64(cap(vals[w])) < hi-lo {
					vals[w] = make([]uint8, hi-lo)
				}
				v := vals[w][:hi-lo]
				if err := fs.decodeCodes(i, codes[lo/2:lo/2+half4{}.storedLen(hi-lo)], v); err != nil {
					return err
				}
				counts[w] = CountValues(v)
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
		for i := b; i < min(b+workers, nf); i++ {
			lo, hi := fs.bounds(i)
			sum.Write(vals[i-b][:hi-lo])
			for v, n := range counts[i-b] {
				total[v] += n
			}
		}
	}
	if got := hex.EncodeToString(sum.Sum(nil)); got != h.RawSHA256 {
		return nil, &ChecksumError{What: "raw_sha256", Want: h.RawSHA256, Got: got}
	}
	if n := total[puzzle.Unreached]; n != 0 {
		return nil, formatErr(payloadOff, "%d entries hold the reserved value 255", n)
	}
	if m := total.Mismatches(h); len(m) > 0 {
		return nil, formatErr(offHeader, "%s", m[0])
	}
	return &Table{Header: *h, Pattern: p, Codes: codes, headerOnly: true}, nil
}

// decodeCodes is decode for ReadCodesFile: frame i is decompressed into
// codes (its ⌈n/2⌉ stored bytes) and decoded from there into vals (its n
// entries) for the checks.
func (fs *frameSet) decodeCodes(i int, codes, vals []uint8) error {
	off := fs.offs[i]
	comp, err := fs.readFrame(i, false)
	if err != nil {
		return err
	}
	if err := decompress(fs.dec, comp, codes[:0:len(codes)], i, off); err != nil {
		return err
	}
	s := fs.bufs.Get().(*frameScratch)
	defer fs.bufs.Put(s)
	lo, _ := fs.bounds(i)
	if err := (half4{}).decode(fs.m, lo, codes, vals, s); err != nil {
		return formatErr(off, "frame %d: %v", i, err)
	}
	return nil
}

// CodeValue is the value of rank r of a table read by ReadCodesFile whose
// pattern tiles have Manhattan distance md there: md + 2·code(r).
func (t *Table) CodeValue(r uint64, md uint8) uint8 {
	return md + 2*(t.Codes[r>>1]>>(4*(r&1))&15)
}
