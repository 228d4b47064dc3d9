package format

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/klauspost/compress/zstd"

	"github.com/tilepdb/tilepdb/internal/atomicfile"
)

// encoderLevel was chosen by measurement on a 5,765,760-entry table of small
// values (4x4, 6 tiles): see SPEC.md, "Compression".
const encoderLevel = zstd.SpeedBetterCompression

// encoderLevel2 is the zstd level of format 2 frames, chosen by
// measurement (SPEC.md section 5).
const encoderLevel2 = zstd.SpeedBestCompression

// Encode writes the table file to w, in format 2.0 unless t.Header.Major is
// MajorVersion1 (then 1.0). The table is validated first: Pattern must be
// set, len(Values) == Pattern.Size(), and every header field other than
// Major, Minor, Generator, FrameSize, Frames, Encoding and PayloadSHA256
// must equal what NewTable computes from Pattern and Values (an error says
// which one differs). FrameSize 0 means DefaultFrameSize (1.0) or
// DefaultFrameSize2(entries) (2.0); other values must
// lie in [MinFrameSize, MaxFrameSize] and be even for format 2. Format 2
// needs every value to be at least the Manhattan distance of its state and
// of the same parity (true of every real table; the error names the first
// rank that is not); it picks EncodingHalf4 when every code fits in 4 bits,
// else EncodingHalf8.
//
// The table is cut into frames of FrameSize entries which are encoded and
// compressed independently by up to workers goroutines (workers < 1 means
// 1) and written in order, so the output is byte-identical for any worker
// count (for a given zstd library version). The file holds no timestamp or
// path. Encode sets t.Header's Major, Minor, FrameSize, Frames, Encoding
// and PayloadSHA256; it must not run concurrently with other uses of t.
// Nothing is written to w when validation fails; write errors from w are
// returned as they come.
func (t *Table) Encode(w io.Writer, workers int) error {
	if err := t.validate(); err != nil {
		return err
	}
	major := t.Header.Major
	if major == 0 {
		major = MajorVersion
	}
	v := versionOf(major)
	if v == nil {
		return fmt.Errorf("tilepdb: Encode: cannot write format version %d (only %d and %d)", major, MajorVersion1, MajorVersion)
	}
	if t.Header.FrameSize == 0 {
		t.Header.FrameSize = v.defaultFrameSize(uint64(len(t.Values)))
	}
	fs := t.Header.FrameSize
	if fs < MinFrameSize || fs > MaxFrameSize || (v.evenFrames && fs%2 != 0) {
		return fmt.Errorf("tilepdb: Encode: frame size %d out of range %d..%d (even for format 2)", fs, MinFrameSize, MaxFrameSize)
	}
	nf := int(frameCount(uint64(len(t.Values)), fs))
	frames, c, err := t.encodeFrames(v, nf, max(1, min(workers, nf)))
	if err != nil {
		return err
	}

	h := &t.Header
	h.Major, h.Minor = v.major, v.minor
	h.Encoding, h.PayloadSHA256 = c.name(), ""
	h.Frames = make([]int64, nf)
	sum := sha256.New()
	for i, f := range frames {
		h.Frames[i] = int64(len(f))
		if v.payloadSHA {
			sum.Write(f)
		}
	}
	if v.payloadSHA {
		h.PayloadSHA256 = hex.EncodeToString(sum.Sum(nil))
	}
	head, err := marshalHeader(h)
	if err != nil {
		return err
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	for _, f := range frames {
		if _, err := w.Write(f); err != nil {
			return err
		}
	}
	return nil
}

// encodeFrames checks the values, picks the codec and returns the
// compressed frames: the first of the version's codecs that holds every
// value (format 2: the 4-bit codes, or when some code exceeds 15, never
// seen in real tables, the 8-bit ones), so the output depends only on the
// table.
func (t *Table) encodeFrames(v *version, nf, workers int) ([][]byte, codec, error) {
	var m *manhattan
	if v.manhattan {
		m = newTableManhattan(t.Pattern, t.Regions)
	}
	for i, c := range v.codecs {
		frames, err := t.compressFrames(c, v.level, m, nf, workers)
		if !errors.Is(err, errTooWide) || i == len(v.codecs)-1 {
			return frames, c, err
		}
	}
	return nil, nil, errors.New("tilepdb: Encode: the version has no codec") // not reached
}

// compressFrames encodes the frames with c (checking every value against
// its Manhattan distance in format 2) and compresses them, in parallel,
// through pipeFrames (the writer EncodeStream uses too). It returns
// errTooWide when some frame does not fit c (the frames after it are
// skipped), else the error of the first bad frame.
func (t *Table) compressFrames(c codec, level zstd.EncoderLevel, m *manhattan, nf, workers int) ([][]byte, error) {
	frames := make([][]byte, 0, nf)
	next := func(lo uint64, n int) ([]uint8, error) { return t.Values[lo : lo+uint64(n)], nil }
	emit := func(_ []uint8, out []byte) error {
		frames = append(frames, out)
		return nil
	}
	err := pipeFrames(c, level, m, uint64(len(t.Values)), t.Header.FrameSize, workers, next, emit)
	switch {
	case errors.Is(err, errTooWide):
		return nil, errTooWide
	case err != nil:
		return nil, fmt.Errorf("tilepdb: Encode: %w", err)
	}
	return frames, nil
}

// frameScratch is the per-goroutine buffers of format 2 encoding and
// decoding.
type frameScratch struct {
	mh, out, row []uint8
}

// man returns a scratch slice of n bytes for Manhattan distances.
func (s *frameScratch) man(n int) []uint8 {
	if cap(s.mh) < n {
		s.mh = make([]uint8, n)
	}
	return s.mh[:n]
}

// marshalHeader returns the fixed prefix, the JSON header and its SHA-256.
func marshalHeader(h *Header) ([]byte, error) {
	js, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("tilepdb: encoding header: %w", err)
	}
	if len(js) > MaxHeaderLen {
		return nil, fmt.Errorf("tilepdb: header of %d bytes exceeds %d bytes (use a larger frame size)", len(js), MaxHeaderLen)
	}
	return assemble(h.Major, h.Minor, js), nil
}

// assemble builds magic, versions, length, JSON and header SHA-256.
func assemble(major, minor uint16, js []byte) []byte {
	b := make([]byte, prefixLen, prefixLen+len(js)+checksumLen)
	copy(b, magic)
	binary.LittleEndian.PutUint16(b[offMajor:], major)
	binary.LittleEndian.PutUint16(b[offMinor:], minor)
	binary.LittleEndian.PutUint32(b[offHeaderLen:], uint32(len(js)))
	b = append(b, js...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// validate checks that the header is what NewTable would compute.
func (t *Table) validate() error {
	if t == nil || t.Pattern == nil {
		return errors.New("tilepdb: Encode: table has no pattern")
	}
	p := t.Pattern
	if uint64(len(t.Values)) != t.entries() {
		return fmt.Errorf("tilepdb: Encode: %d values for pattern %s, want %d", len(t.Values), p, t.entries())
	}
	want, err := t.recompute()
	if err != nil {
		return fmt.Errorf("tilepdb: Encode: %w", err)
	}
	h, w := &t.Header, &want.Header
	var bad string
	switch {
	case h.Width != w.Width || h.Height != w.Height:
		bad = "width/height"
	case !slices.Equal(h.Goal, w.Goal):
		bad = "goal"
	case h.GoalName != w.GoalName:
		bad = "goal_name"
	case !slices.Equal(h.Tiles, w.Tiles):
		bad = "tiles"
	case h.Kind != w.Kind:
		bad = "kind"
	case h.Ranking != w.Ranking || h.RankingVersion != w.RankingVersion:
		bad = "ranking"
	case h.Entries != w.Entries:
		bad = "entries"
	case h.BitsPerEntry != w.BitsPerEntry:
		bad = "bits_per_entry"
	case h.MaxValue != w.MaxValue:
		bad = "max_value"
	case !slices.Equal(h.Histogram, w.Histogram):
		bad = "histogram"
	case h.RawSHA256 != w.RawSHA256:
		bad = "raw_sha256"
	}
	if bad != "" {
		return fmt.Errorf("tilepdb: Encode: header field %s does not match the pattern and values (build tables with NewTable)", bad)
	}
	return nil
}

// WriteFile writes t to path atomically (internal/atomicfile.Write): it
// encodes into a temporary file in the same directory, syncs it, renames
// it over path and syncs the directory. On any error the temporary file is
// removed and an existing file at path is left untouched; errors name
// path, not the temporary file. Before it starts, it removes the
// temporaries that killed writers left in the directory
// (RemoveStaleTemps). The file gets mode 0644. See Encode for workers and
// validation.
func WriteFile(path string, t *Table, workers int) error {
	if t == nil || t.Pattern == nil {
		return fmt.Errorf("%s: %w", path, t.validate())
	}
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return t.Encode(w, workers) })
}

// RemoveStaleTemps removes, from directory dir, the temporary files left
// by WriteFile and WriteSetFile calls whose process was killed; it is
// internal/atomicfile.RemoveStaleTemps (see there: which files, the lock
// that protects a live writer's file, errors). It returns the paths
// removed.
func RemoveStaleTemps(dir string) ([]string, error) { return atomicfile.RemoveStaleTemps(dir) }

// CheckWritable reports whether WriteFile could write path, without
// writing it (internal/atomicfile.CheckWritable): path must not be a
// directory, and its directory must exist and accept a new file. Meant for
// callers that run a long computation before writing, so that they fail
// before it. Errors name path, not the temporary file.
func CheckWritable(path string) error { return atomicfile.CheckWritable(path) }
