package format

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Decode reads a whole table file of size bytes from r, format 1.x or 2.x,
// and verifies everything in the strict order of SPEC.md section 3: magic,
// version, header length, header SHA-256, header JSON (strict: exact keys,
// no duplicates, required keys, integers without fraction or exponent,
// valid UTF-8 without byte-order mark) and its sanity (geometry, goal,
// tiles -> puzzle.NewPattern; kind, ranking and entries agree with the
// pattern; max_value, histogram length and sum; frame_size; frames sum to
// the rest of the file exactly), the payload SHA-256 (2.x), each frame's
// zstd header, decompression (each slot exactly one frame decoding to
// exactly its stored size, with a valid zstd content checksum), the
// decoding of format 2 codes (values at most 254), the raw SHA-256, and a
// recount of the histogram and maximum. It stops at the first problem.
//
// Errors: *FormatError (errors.Is ErrFormat) for anything structural,
// *ChecksumError (errors.Is ErrChecksum) for a checksum mismatch,
// *UnsupportedError (errors.Is errors.ErrUnsupported, and ErrFormat) for
// a ranking_version, bits_per_entry or encoding this reader does not
// implement, *UnsupportedVersionError for another major version, and I/O
// errors from r as they come. It never panics on bad input. Memory is
// bounded: the header by MaxHeaderLen and the file size; the table
// (Entries bytes) is allocated only after the header checksum and the frame
// layout are verified, and the layout bounds Entries to less than 65536
// times the payload size; the zstd decoders are limited to one frame
// (FrameSize bytes) each. Frames are decoded in parallel (GOMAXPROCS
// goroutines); the result is the table decoded to one byte per entry.
func Decode(r io.ReaderAt, size int64) (*Table, error) {
	d := &decoder{r: r, size: size, strict: true}
	return d.decode()
}

// ReadFile opens, decodes and verifies the table file at path (see Decode).
// Errors name the path.
func ReadFile(path string) (*Table, error) {
	return ReadFileInto(path, nil)
}

// ReadFileInto is ReadFile decoding the values into buf[:Entries] when buf
// has the capacity (else into a new slice, as ReadFile does), so that a
// caller reading large tables one after another, each released once used
// (solve packs zero-aware tables at 1 bit: format.Table.ReleaseValues),
// reuses one buffer: a new one of 3.8 GiB (a 7-tile zero-aware table of the
// 24-puzzle) costs the kernel its page faults and zeroing, a few CPU-seconds
// each time. The table returned owns the buffer; its former contents do
// not matter (every entry is written). Errors as for ReadFile; buf is then
// unspecified.
func ReadFileInto(path string, buf []uint8) (*Table, error) {
	var t *Table
	err := withFile(path, func(f *os.File, size int64) error {
		d := &decoder{r: f, size: size, strict: true, buf: buf}
		var err error
		t, err = d.decode()
		return err
	})
	return t, err
}

// ReadHeader reads and checks only the magic, version, header checksum and
// header sanity, including that the frames add up to the file size. It reads
// only the first 48+n bytes (n = header length). Errors as for Decode.
func ReadHeader(r io.ReaderAt, size int64) (*Header, error) {
	d := &decoder{r: r, size: size, strict: true}
	h, _, _, err := d.header()
	if err != nil {
		return nil, err
	}
	return h, nil
}

// ReadHeaderFile is ReadHeader on the file at path (cheap; for `info`).
// Errors name the path.
func ReadHeaderFile(path string) (*Header, error) {
	var h *Header
	err := withFile(path, func(f *os.File, size int64) error {
		var err error
		h, err = ReadHeader(f, size)
		return err
	})
	return h, err
}

// readTableHeader reads the header of the table file at path as
// ReadHeaderFile does and returns it as a table without values (marked
// headerOnly), for the checks of a set file that need only the tables'
// headers (PlanSet, SetPlan.CheckHeaders). Errors as for ReadFile up to the header.
func readTableHeader(path string) (*Table, error) {
	var t *Table
	err := withFile(path, func(f *os.File, size int64) error {
		var err error
		t, err = decodeTableHeader(f, size)
		return err
	})
	return t, err
}

// decodeTableHeader is readTableHeader on r, of size bytes.
func decodeTableHeader(r io.ReaderAt, size int64) (*Table, error) {
	d := &decoder{r: r, size: size, strict: true}
	h, p, _, err := d.header()
	if err != nil {
		return nil, err
	}
	return &Table{Header: *h, Pattern: p, headerOnly: true}, nil
}

// Inspect is the lenient read for a verifier. It performs the checks of
// Decode but, instead of stopping at the first integrity problem, collects
// them in findings (each a *FormatError or *ChecksumError): header checksum
// mismatch, inconsistent goal_name, max_value, histogram length or sum, a
// zstd frame that does not decode (its entries are then set to puzzle.Unreached,
// 255), raw SHA-256 mismatch, histogram or maximum recount mismatch, reserved
// values in the table. The table is returned whenever the payload can be
// laid out at all.
//
// err != nil (and t == nil) only when nothing usable can be read: I/O
// errors, bad magic, unsupported version, truncated or absurd header, a
// header that does not parse or does not describe a valid pattern with
// matching kind, ranking and entry count, or a payload whose frames do not
// add up to the file size (truncated or trailing bytes). findings may be
// non-empty then too.
func Inspect(path string) (t *Table, findings []error, err error) {
	err = withFile(path, func(f *os.File, size int64) error {
		t, findings, err = inspect(f, size)
		return err
	})
	return t, findings, err
}

func inspect(r io.ReaderAt, size int64) (*Table, []error, error) {
	d := &decoder{r: r, size: size, strict: false}
	t, err := d.decode()
	if err != nil {
		return nil, d.findings, err
	}
	return t, d.findings, nil
}

// withFile opens path, passes it and its size to fn, and closes it; errors
// are prefixed with the path.
func withFile(path string, fn func(f *os.File, size int64) error) error {
	f, err := regular.Open(path) // never blocks on a named pipe
	if err != nil {
		return err // *PathError or *regular.NotRegularError names the path
	}
	defer f.Close()
	return onFile(f, path, fn)
}

// onFile is withFile on the file f, open already (named path).
func onFile(f *os.File, path string, fn func(f *os.File, size int64) error) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	if err := fn(f, fi.Size()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// decoder holds the state of one read. In strict mode the first integrity
// problem is returned; otherwise problems that still leave the table usable
// are appended to findings.
type decoder struct {
	r        io.ReaderAt
	size     int64
	strict   bool
	findings []error
	err      error           // strict mode: the first problem noted (note); then the read stops
	v        *version        // the file's version, once its prefix is read
	c        codec           // the file's codec, once its header is checked
	regions  *puzzle.Regions // a zero-aware table's region numbering, once its header is checked
	buf      []uint8         // ReadFileInto: where the values go when they fit its capacity
}

// note records an integrity problem. In strict mode the first problem is
// kept (d.err: the decoder's sticky first problem, which every later step
// returns at once) and later ones are dropped; otherwise it is appended to
// findings. A caller that must stop at the first problem checks d.err.
func (d *decoder) note(err error) {
	switch {
	case d.err != nil:
	case d.strict:
		d.err = err
	default:
		d.findings = append(d.findings, err)
	}
}

// readAt reads exactly len(buf) bytes at off.
func (d *decoder) readAt(buf []byte, off int64) error {
	n, err := d.r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || err == io.EOF {
		return formatErr(off+int64(n), "file truncated: short read (%d of %d bytes)", n, len(buf))
	}
	return fmt.Errorf("tilepdb: reading %d bytes at offset %d: %w", len(buf), off, err)
}

func (d *decoder) decode() (*Table, error) {
	h, p, payloadOff, err := d.header()
	if err != nil {
		return nil, err
	}
	values, st, err := d.payload(h, p, payloadOff)
	if err != nil {
		return nil, err
	}
	for _, f := range d.findings {
		var fe *UndecodedFrameError
		if errors.As(f, &fe) {
			// Some entries are placeholders: a recount of them would
			// only report the placeholders (SHA, 255s, histogram).
			return &Table{Header: *h, Pattern: p, Values: values, Regions: d.regions}, nil
		}
	}
	if st.sha != h.RawSHA256 {
		d.note(&ChecksumError{What: "raw_sha256", Want: h.RawSHA256, Got: st.sha})
	}
	if n := st.counts[puzzle.Unreached]; n != 0 {
		d.note(formatErr(payloadOff, "%d entries hold the reserved value 255, first at rank %d", n, firstIndex(values, puzzle.Unreached)))
	}
	for _, m := range st.counts.Mismatches(h) {
		d.note(formatErr(offHeader, "%s", m))
	}
	if d.err != nil {
		return nil, d.err
	}
	return &Table{Header: *h, Pattern: p, Values: values, Regions: d.regions}, nil
}

// header reads and checks everything up to the payload: it returns the
// parsed header, its pattern and the payload offset.
func (d *decoder) header() (*Header, *puzzle.Pattern, int64, error) {
	if d.size < 0 {
		return nil, nil, 0, fmt.Errorf("tilepdb: negative file size %d", d.size)
	}
	if d.size == 0 {
		return nil, nil, 0, formatErr(0, "empty file")
	}
	var pre [prefixLen]byte
	have := int(min(d.size, prefixLen))
	if err := d.readAt(pre[:have], 0); err != nil {
		return nil, nil, 0, err
	}
	if m := min(have, len(magic)); string(pre[:m]) != magic[:m] {
		return nil, nil, 0, formatErr(offMagic, "not a tilepdb table file (magic %q, want %q)", pre[:m], magic)
	}
	if have < offMinor+2 {
		return nil, nil, 0, formatErr(int64(have), "file truncated inside the fixed prefix (%d of %d bytes)", have, prefixLen)
	}
	major := binary.LittleEndian.Uint16(pre[offMajor:])
	minor := binary.LittleEndian.Uint16(pre[offMinor:])
	if d.v = versionOf(major); d.v == nil {
		return nil, nil, 0, &UnsupportedVersionError{Major: major, Minor: minor}
	}
	if have < prefixLen {
		return nil, nil, 0, formatErr(int64(have), "file truncated inside the fixed prefix (%d of %d bytes)", have, prefixLen)
	}
	n := int64(binary.LittleEndian.Uint32(pre[offHeaderLen:]))
	if n > MaxHeaderLen {
		return nil, nil, 0, formatErr(offHeaderLen, "header length %d exceeds the limit of %d bytes", n, MaxHeaderLen)
	}
	payloadOff := prefixLen + n + checksumLen
	if payloadOff > d.size {
		return nil, nil, 0, formatErr(d.size, "file truncated: the %d-byte header and its checksum end at byte %d, the file has %d bytes", n, payloadOff, d.size)
	}
	buf := make([]byte, payloadOff)
	if err := d.readAt(buf, 0); err != nil {
		return nil, nil, 0, err
	}
	sum := sha256.Sum256(buf[:prefixLen+n])
	if stored := buf[prefixLen+n:]; !bytes.Equal(sum[:], stored) {
		err := &ChecksumError{What: "header sha256", Want: hex.EncodeToString(stored), Got: hex.EncodeToString(sum[:])}
		if d.note(err); d.err != nil {
			return nil, nil, 0, d.err
		}
	}
	h, err := parseHeader(buf[prefixLen:prefixLen+n], major)
	if err != nil {
		return nil, nil, 0, formatErr(offHeader, "%v", err)
	}
	h.Minor = minor
	p, err := d.checkHeader(h)
	if err != nil {
		return nil, nil, 0, err
	}
	if err := d.checkLayout(h, payloadOff); err != nil {
		return nil, nil, 0, err
	}
	return h, p, payloadOff, nil
}

// checkHeader checks the header fields against each other and returns the
// pattern they describe. Problems that make the table uninterpretable are
// returned (checkIdentity); the others go through note (checkStats), and in
// strict mode the first of them is the error.
func (d *decoder) checkHeader(h *Header) (*puzzle.Pattern, error) {
	p, err := headerPattern(h)
	if err != nil {
		return nil, err
	}
	want, err := d.kindHeader(h, p)
	if err != nil {
		return nil, err
	}
	if err := d.checkIdentity(h, p, want); err != nil {
		return nil, err
	}
	d.checkStats(h, want)
	return p, d.err
}

// kindHeader returns the header fields the pattern determines for a table
// of h's kind (dispatched once on Kind), or an UnsupportedError for a kind
// this reader does not implement.
func (d *decoder) kindHeader(h *Header, p *puzzle.Pattern) (Header, error) {
	switch {
	case !h.Kind.TableKind():
		return Header{}, unsupportedHeader("kind %q (this reader implements %q, %q and %q)", h.Kind, KindExact, KindAdditive, KindZeroAware)
	case h.Kind.PerRegion() && !p.Exact:
		return d.zeroAwareHeader(h, p)
	}
	return patternHeader(p), nil
}

// checkIdentity checks what says how to read the table: kind, ranking and
// its version, entries, bits_per_entry and the encoding (which sets the
// decoder's codec), against want (kindHeader).
func (d *decoder) checkIdentity(h *Header, p *puzzle.Pattern, want Header) error {
	var err error
	switch {
	case h.Kind != want.Kind:
		return badHeader("kind %q, but %d of %d tiles make an %q table", h.Kind, len(h.Tiles), p.Geom.N()-1, want.Kind)
	case h.Ranking != want.Ranking:
		return badHeader("ranking %q, want %q for a table of kind %q", h.Ranking, want.Ranking, want.Kind)
	case h.RankingVersion != puzzle.RankingVersion:
		return unsupportedHeader("ranking_version %d (this reader implements version %d)", h.RankingVersion, puzzle.RankingVersion)
	case h.Entries != want.Entries && want.Kind.PerRegion():
		return badHeader("entries %d, but the zero-aware table of pattern %s has %d", h.Entries, p, want.Entries)
	case h.Entries != want.Entries:
		return badHeader("entries %d, but pattern %s has %d", h.Entries, p, want.Entries)
	case h.BitsPerEntry != BitsPerEntry:
		return unsupportedHeader("bits_per_entry %d (want %d)", h.BitsPerEntry, BitsPerEntry)
	}
	d.c, err = d.v.codec(h.Encoding)
	return err
}

// checkStats notes what is wrong with the fields that describe the values
// (goal_name, max_value, histogram, the hex digests): the table can still
// be read, so a lenient decoder goes on.
func (d *decoder) checkStats(h *Header, want Header) {
	if h.GoalName != want.GoalName {
		d.note(badHeader("goal_name %q, but the goal is %q", h.GoalName, want.GoalName))
	}
	switch {
	case h.MaxValue < 0 || h.MaxValue >= puzzle.Unreached:
		d.note(badHeader("max_value %d out of range 0..%d", h.MaxValue, puzzle.Unreached-1))
	case len(h.Histogram) != h.MaxValue+1:
		d.note(badHeader("histogram has %d counts, want max_value+1 = %d", len(h.Histogram), h.MaxValue+1))
	case h.Histogram[h.MaxValue] == 0:
		d.note(badHeader("histogram[max_value] is 0: max_value %d is not attained", h.MaxValue))
	}
	var sum uint64
	overflow := false
	for _, c := range h.Histogram {
		var carry uint64
		sum, carry = bits.Add64(sum, c, 0)
		overflow = overflow || carry != 0
	}
	switch {
	case overflow:
		d.note(badHeader("histogram counts overflow 64 bits when summed, want a sum of entries = %d", h.Entries))
	case sum != h.Entries:
		d.note(badHeader("histogram sums to %d, want entries = %d", sum, h.Entries))
	}
	if !isLowerHex(h.RawSHA256, 2*sha256.Size) {
		d.note(badHeader("raw_sha256 %q is not 64 lowercase hex digits", h.RawSHA256))
	}
	if d.v.payloadSHA && !isLowerHex(h.PayloadSHA256, 2*sha256.Size) {
		d.note(badHeader("payload_sha256 %q is not 64 lowercase hex digits", h.PayloadSHA256))
	}
}

// unsupportedHeader is an *UnsupportedError about the header.
func unsupportedHeader(format string, args ...any) error {
	return &UnsupportedError{Offset: offHeader, Msg: "header: " + fmt.Sprintf(format, args...)}
}

// badHeader is a *FormatError about the header.
func badHeader(format string, args ...any) error {
	return formatErr(offHeader, "header: "+format, args...)
}

// headerPattern checks the header's geometry, goal and tiles and returns
// the pattern they describe.
func headerPattern(h *Header) (*puzzle.Pattern, error) {
	g, err := puzzle.NewGeometry(h.Width, h.Height)
	if err != nil {
		return nil, badHeader("%v", err)
	}
	n := g.N()
	if len(h.Goal) != n {
		return nil, badHeader("goal has %d cells, want %d for a %s board", len(h.Goal), n, g)
	}
	goal := make(puzzle.Board, n)
	for i, t := range h.Goal {
		if t < 0 || t >= n {
			return nil, badHeader("goal cell %d: tile %d out of range 0..%d", i, t, n-1)
		}
		goal[i] = uint8(t)
	}
	if err := goal.Validate(n); err != nil {
		return nil, badHeader("goal: %v", err)
	}
	if len(h.Tiles) == 0 || len(h.Tiles) > n-1 {
		return nil, badHeader("%d tiles, want 1..%d", len(h.Tiles), n-1)
	}
	tiles := make([]uint8, len(h.Tiles))
	for i, t := range h.Tiles {
		if t < 1 || t >= n {
			return nil, badHeader("tile %d out of range 1..%d", t, n-1)
		}
		if i > 0 && t <= h.Tiles[i-1] {
			return nil, badHeader("tiles not strictly ascending (%d after %d)", t, h.Tiles[i-1])
		}
		tiles[i] = uint8(t)
	}
	p, err := puzzle.NewPattern(g, goal, tiles)
	if err != nil {
		return nil, badHeader("%v", err)
	}
	return p, nil
}

// checkLayout checks frame_size and frames against Entries and the file
// size. All problems are fatal: without a valid layout the payload cannot be
// located.
func (d *decoder) checkLayout(h *Header, payloadOff int64) error {
	if h.FrameSize < MinFrameSize || h.FrameSize > MaxFrameSize {
		return formatErr(offHeader, "header: frame_size %d out of range %d..%d", h.FrameSize, MinFrameSize, MaxFrameSize)
	}
	if d.v.evenFrames && h.FrameSize%2 != 0 {
		return formatErr(offHeader, "header: frame_size %d is odd (format 2 needs an even frame size)", h.FrameSize)
	}
	nf := frameCount(h.Entries, h.FrameSize)
	if uint64(len(h.Frames)) != nf {
		return formatErr(offHeader, "header: %d frames listed, want ceil(entries/frame_size) = %d", len(h.Frames), nf)
	}
	var total int64
	for i, c := range h.Frames {
		raw := d.frameStored(h, i)
		if c < 0 || uint64(c) < minFrameLen(raw) {
			return formatErr(offHeader, "header: frame %d is %d bytes, too small to hold a zstd frame of %d bytes", i, c, raw)
		}
		if addOverflows(total, c) {
			return formatErr(offHeader, "header: frame sizes overflow")
		}
		total += c
	}
	rest := d.size - payloadOff
	switch {
	case total > rest:
		return formatErr(d.size, "file truncated: frames need %d payload bytes, file has %d", total, rest)
	case total < rest:
		return formatErr(payloadOff+total, "%d trailing bytes after the last frame", rest-total)
	}
	return nil
}

// frameRaw is the number of entries of frame i.
func frameRaw(h *Header, i int) uint64 {
	lo := uint64(i) * uint64(h.FrameSize)
	return min(h.Entries-lo, uint64(h.FrameSize))
}

// frameStored is the decompressed size in bytes of frame i: the stored
// size of its entries in the file's codec.
func (d *decoder) frameStored(h *Header, i int) uint64 {
	return d.c.storedLen(frameRaw(h, i))
}

// isLowerHex reports whether s is n lowercase hexadecimal digits.
func isLowerHex(s string, n int) bool {
	return len(s) == n && strings.Trim(s, "0123456789abcdef") == ""
}

// zstd frame header, RFC 8878 section 3.1.1.1.
const (
	zstdMagic       = 0xFD2FB528
	zstdMaxFrameHdr = 4 + 1 + 1 + 4 + 8 // magic, descriptor, window, dict id, content size
)

// maxWindow is the largest zstd window a frame of a table with the given
// frame size may ask for (SPEC.md section 1): the smallest power of two at
// least max(frameSize, 1024).
func maxWindow(frameSize int) uint64 {
	window := uint64(zstd.MinWindowSize)
	for window < uint64(frameSize) {
		window <<= 1
	}
	return window
}

// checkFrameHeader parses the zstd frame header at the start of b (b may be
// shorter than a frame) and checks the requirements of SPEC.md: a zstd
// frame, no dictionary, content checksum present, content size present and
// equal to raw, a window (Window_Descriptor, when Single_Segment_flag is
// clear) of at most window bytes. The zstd decoder does not refuse a larger
// window when the content size is smaller, so the header is checked here.
func checkFrameHeader(b []byte, raw uint64, window uint64) string {
	if len(b) < 6 || binary.LittleEndian.Uint32(b) != zstdMagic {
		return "not a zstd frame (bad zstd magic)"
	}
	fhd := b[4]
	fcsFlag := fhd >> 6
	single := fhd&(1<<5) != 0
	switch {
	case fhd&(1<<3) != 0:
		return "zstd frame descriptor has the reserved bit set"
	case fhd&(1<<2) == 0:
		return "zstd frame has no content checksum"
	case fhd&3 != 0:
		return "zstd frame uses a dictionary"
	case fcsFlag == 0 && !single:
		return "zstd frame does not record its content size"
	}
	i := 5
	if !single {
		wd := b[5] // Window_Descriptor: exponent (5 bits), mantissa (3 bits)
		base := uint64(1) << (10 + wd>>3)
		if w := base + base/8*uint64(wd&7); w > window {
			return fmt.Sprintf("zstd window of %d bytes exceeds the limit of %d", w, window)
		}
		i++
	}
	fcsLen := [4]int{1, 2, 4, 8}[fcsFlag]
	if len(b) < i+fcsLen {
		return "zstd frame header truncated"
	}
	var fcs uint64
	switch fcsLen {
	case 1:
		fcs = uint64(b[i])
	case 2:
		fcs = uint64(binary.LittleEndian.Uint16(b[i:])) + 256
	case 4:
		fcs = uint64(binary.LittleEndian.Uint32(b[i:]))
	case 8:
		fcs = binary.LittleEndian.Uint64(b[i:])
	}
	if fcs != raw {
		return fmt.Sprintf("zstd frame content size is %d, want %d", fcs, raw)
	}
	return ""
}

// zstdFrameLen walks the blocks of the zstd frame at the start of b (whose
// header checkFrameHeader accepted: no dictionary, content checksum
// present) and returns the frame's length in bytes: header, blocks (3-byte
// block header, then Block_Size bytes, or 1 byte for an RLE block) up to
// the one with Last_Block set, and the 4-byte checksum (RFC 8878 section
// 3.1.1). It returns a message when the blocks run past the end of b or a
// block type is reserved.
func zstdFrameLen(b []byte) (int, string) {
	fhd := b[4]
	single := fhd&(1<<5) != 0
	i := 5
	if !single {
		i++
	}
	i += [4]int{0, 2, 4, 8}[fhd>>6]
	if fhd>>6 == 0 && single {
		i++
	}
	for {
		if i+3 > len(b) {
			return 0, "zstd frame truncated inside a block header"
		}
		bh := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16
		i += 3
		size := int(bh >> 3)
		switch (bh >> 1) & 3 {
		case 1: // RLE: one byte repeated Block_Size times
			size = 1
		case 3:
			return 0, "zstd block type is reserved"
		}
		if size > len(b)-i {
			return 0, "zstd frame truncated inside a block"
		}
		i += size
		if bh&1 != 0 {
			break
		}
	}
	if 4 > len(b)-i {
		return 0, "zstd frame truncated inside its checksum"
	}
	return i + 4, ""
}

// frameSet is what decoding a table's frames needs, the one frame loop of
// Decode (payload) and ScanFile (scan): the frames' offsets, the window
// limit, a zstd decoder bounded to one frame, the codec's Manhattan
// distances and scratch buffers.
type frameSet struct {
	d      *decoder
	h      *Header
	offs   []int64 // offs[i] = file offset of frame i; offs[len(Frames)] = file size
	window uint64
	dec    *zstd.Decoder
	m      *manhattan
	bufs   sync.Pool
}

// frames prepares the decoding of h's frames (payload at payloadOff) by up
// to workers goroutines; close it after use.
func (d *decoder) frames(h *Header, p *puzzle.Pattern, payloadOff int64, workers int) (*frameSet, error) {
	fs := &frameSet{d: d, h: h, offs: make([]int64, len(h.Frames)+1), window: maxWindow(h.FrameSize)}
	fs.offs[0] = payloadOff
	for i, c := range h.Frames {
		fs.offs[i+1] = fs.offs[i] + c
	}
	dec, err := zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(workers),
		zstd.WithDecoderMaxMemory(uint64(h.FrameSize)),
		zstd.WithDecoderMaxWindow(fs.window),
		zstd.WithDecodeAllCapLimit(true),
	)
	if err != nil {
		return nil, fmt.Errorf("tilepdb: creating zstd decoder: %w", err)
	}
	fs.dec = dec
	if d.v.manhattan {
		fs.m = newTableManhattan(p, d.regions)
	}
	fs.bufs.New = func() any { return new(frameScratch) }
	return fs, nil
}

func (fs *frameSet) close() { fs.dec.Close() }

// bounds returns the ranks [lo, hi) of frame i.
func (fs *frameSet) bounds(i int) (lo, hi uint64) {
	lo = uint64(i) * uint64(fs.h.FrameSize)
	return lo, lo + frameRaw(fs.h, i)
}

// checkHeader checks the zstd frame header of frame i in b, its first
// bytes (at most zstdMaxFrameHdr).
func (fs *frameSet) checkHeader(i int, b []byte) error {
	if msg := checkFrameHeader(b, fs.d.frameStored(fs.h, i), fs.window); msg != "" {
		return formatErr(fs.offs[i], "frame %d: %s", i, msg)
	}
	return nil
}

// decode reads frame i, checks it (its zstd header too unless checked
// already: headerChecked) and decodes it into dst, its entries. An error
// for which IsBadData is false is trouble reading the file.
func (fs *frameSet) decode(i int, dst []uint8, headerChecked bool) error {
	comp, err := fs.readFrame(i, headerChecked)
	if err != nil {
		return err
	}
	lo, _ := fs.bounds(i)
	return fs.d.decodeFrame(fs.dec, fs.m, comp, dst, lo, i, fs.offs[i], &fs.bufs)
}

// readFrame reads the slot of frame i and checks that it holds exactly one
// zstd frame (its header too unless checked already: headerChecked).
func (fs *frameSet) readFrame(i int, headerChecked bool) ([]byte, error) {
	off := fs.offs[i]
	comp := make([]byte, fs.h.Frames[i])
	if err := fs.d.readAt(comp, off); err != nil {
		return nil, err
	}
	if !headerChecked {
		if err := fs.checkHeader(i, comp[:min(zstdMaxFrameHdr, len(comp))]); err != nil {
			return nil, err
		}
	}
	if n, msg := zstdFrameLen(comp); msg != "" {
		return nil, formatErr(off, "frame %d: %s", i, msg)
	} else if n != len(comp) {
		return nil, formatErr(off+int64(n), "frame %d: %d bytes after the zstd frame (a frame slot holds exactly one zstd frame)", i, len(comp)-n)
	}
	return comp, nil
}

// openPayload checks the payload SHA-256 (format 2) and prepares the
// decoding of h's frames by one worker per CPU (at most one per frame):
// the start of payload and decodeCodes.
func (d *decoder) openPayload(h *Header, p *puzzle.Pattern, payloadOff int64) (*frameSet, int, error) {
	if d.v.payloadSHA {
		if err := d.checkPayloadSHA(h, payloadOff); err != nil {
			return nil, 0, err
		}
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(h.Frames)))
	fs, err := d.frames(h, p, payloadOff, workers)
	return fs, workers, err
}

// payload checks the payload SHA-256 (format 2) and the zstd frame
// headers, then decodes all frames in parallel into a new slice of Entries
// bytes, with their stats (the raw SHA-256 and the counts: what
// computeStats gives) computed as the frames come: each worker counts the
// frame it decoded while it is fresh in cache, and one goroutine hashes
// the frames in order as they are done, beside the decoding instead of
// after it (frameStats). In lenient mode a frame that fails is reported
// and its entries set to puzzle.Unreached; the stats are then of no use
// (decode does not read them).
func (d *decoder) payload(h *Header, p *puzzle.Pattern, payloadOff int64) ([]uint8, stats, error) {
	fs, workers, err := d.openPayload(h, p, payloadOff)
	if err != nil {
		return nil, stats{}, err
	}
	defer fs.close()
	nf := len(h.Frames)
	frameErrs := make([]error, nf)
	var hdr [zstdMaxFrameHdr]byte
	for i, c := range h.Frames {
		b := hdr[:min(int64(len(hdr)), c)]
		if err := d.readAt(b, fs.offs[i]); err != nil {
			return nil, stats{}, err
		}
		if frameErrs[i] = fs.checkHeader(i, b); frameErrs[i] != nil && d.strict {
			return nil, stats{}, frameErrs[i]
		}
	}

	var values []uint8
	if uint64(cap(d.buf)) >= h.Entries {
		values = d.buf[:h.Entries] // every entry is written below
	} else {
		values = make([]uint8, h.Entries)
		sysmem.AdviseHugePages(values, false) // a page fault per 2 MiB as the frames fill it, not per 4 KiB
	}
	fst := newFrameStats(nf)
	go fst.hash(values, fs.bounds)
	var g errgroup.Group
	g.SetLimit(workers)
	var failed atomic.Bool
	launched := 0
	for i := range nf {
		if frameErrs[i] != nil {
			fst.skip(i)
			continue
		}
		if d.strict && failed.Load() {
			break // frames are launched in order: the first failure is already known
		}
		launched = i + 1
		g.Go(func() error {
			lo, hi := fs.bounds(i)
			if frameErrs[i] = fs.decode(i, values[lo:hi], true); frameErrs[i] != nil {
				failed.Store(true)
				fst.skip(i)
				return nil
			}
			fst.done(i, values[lo:hi])
			return nil
		})
	}
	for i := launched; i < nf; i++ {
		if frameErrs[i] == nil {
			fst.skip(i)
		}
	}
	_ = g.Wait()
	st := fst.wait()
	for i, err := range frameErrs {
		if err == nil {
			continue
		}
		if !IsBadData(err) {
			return nil, stats{}, err // I/O trouble is never a finding
		}
		if !d.strict {
			err = &UndecodedFrameError{Frame: i, Err: err}
		}
		if d.note(err); d.err != nil {
			return nil, stats{}, d.err
		}
		lo, hi := fs.bounds(i)
		fill(values[lo:hi], puzzle.Unreached)
	}
	return values, st, nil
}

// frameStats computes a payload's stats (computeStats) while its frames
// are decoded: done counts a decoded frame (by the worker that decoded it)
// and hands it to the hasher, which writes the frames to one SHA-256 in
// order as each is done; skip marks a frame that will not be decoded, and
// the hasher stops there (the stats are then incomplete, and not used).
// Every frame must be either done or skipped exactly once before wait;
// hash runs in its own goroutine from before the first frame.
type frameStats struct {
	ready  []chan bool // ready[i] gets true when frame i is done, false when skipped
	mu     sync.Mutex
	counts Counts
	sha    chan string
}

func newFrameStats(nf int) *frameStats {
	f := &frameStats{ready: make([]chan bool, nf), sha: make(chan string, 1)}
	for i := range f.ready {
		f.ready[i] = make(chan bool, 1)
	}
	return f
}

// done counts frame i (its entries vals) and lets the hasher take it.
func (f *frameStats) done(i int, vals []uint8) {
	c := CountValues(vals)
	f.mu.Lock()
	for v, n := range c {
		f.counts[v] += n
	}
	f.mu.Unlock()
	f.ready[i] <- true
}

// skip marks frame i as not decoded.
func (f *frameStats) skip(i int) { f.ready[i] <- false }

// hash writes the frames to the SHA-256 in order (values, each frame's
// ranks from bounds) and sends its hex digest, or "" from the first
// skipped frame on.
func (f *frameStats) hash(values []uint8, bounds func(int) (uint64, uint64)) {
	hs := sha256.New()
	for i, r := range f.ready {
		if !<-r {
			f.sha <- ""
			return
		}
		lo, hi := bounds(i)
		hs.Write(values[lo:hi])
	}
	f.sha <- hex.EncodeToString(hs.Sum(nil))
}

// wait returns the stats once every frame is done or skipped and the
// hasher (started with hash) has ended.
func (f *frameStats) wait() stats {
	sha := <-f.sha
	f.mu.Lock()
	defer f.mu.Unlock()
	return stats{counts: f.counts, sha: sha}
}

// decodeFrame decompresses comp (frame i at file offset off) and decodes
// it with the file's codec into dst (the frame's entries, ranks lo, ...).
func (d *decoder) decodeFrame(dec *zstd.Decoder, m *manhattan, comp, dst []uint8, lo uint64, i int, off int64, bufs *sync.Pool) error {
	s := bufs.Get().(*frameScratch)
	defer bufs.Put(s)
	n := d.c.storedLen(uint64(len(dst)))
	if uint64(cap(s.out)) < n {
		s.out = make([]uint8, n)
	}
	if err := decompress(dec, comp, s.out[:0:n], i, off); err != nil {
		return err
	}
	if err := d.c.decode(m, lo, s.out[:n], dst, s); err != nil {
		return formatErr(off, "frame %d: %v", i, err)
	}
	return nil
}

// decompress decompresses comp (frame i at file offset off) into dst,
// which has length 0 and capacity the frame's stored size.
func decompress(dec *zstd.Decoder, comp, dst []byte, i int, off int64) error {
	want := cap(dst)
	out, err := dec.DecodeAll(comp, dst)
	if err != nil {
		if errors.Is(err, zstd.ErrCRCMismatch) {
			return &ChecksumError{What: fmt.Sprintf("zstd frame %d (at byte %d) content checksum", i, off)}
		}
		return formatErr(off, "frame %d: zstd: %v", i, err)
	}
	if len(out) != want {
		return formatErr(off, "frame %d decodes to %d bytes, want %d", i, len(out), want)
	}
	if len(out) > 0 && &out[0] != &dst[:1][0] {
		copy(dst[:want], out) // the decoder reallocated; keep the result anyway
	}
	return nil
}

func fill(b []uint8, v uint8) {
	for i := range b {
		b[i] = v
	}
}

// checkPayloadSHA compares the SHA-256 of the stored frames (format 2) with
// payload_sha256, reading the payload sequentially in 1 MiB pieces.
func (d *decoder) checkPayloadSHA(h *Header, payloadOff int64) error {
	sum := sha256.New()
	buf := make([]byte, min(1<<20, d.size-payloadOff))
	for off := payloadOff; off < d.size; {
		b := buf[:min(int64(len(buf)), d.size-off)]
		if err := d.readAt(b, off); err != nil {
			return err
		}
		sum.Write(b)
		off += int64(len(b))
	}
	if got := hex.EncodeToString(sum.Sum(nil)); got != h.PayloadSHA256 {
		d.note(&ChecksumError{What: "payload_sha256", Want: h.PayloadSHA256, Got: got})
		return d.err
	}
	return nil
}
