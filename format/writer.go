package format

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/sync/errgroup"
)

// encoderLevel was chosen by measurement on a 5,765,760-entry table of small
// values (4x4, 6 tiles): see SPEC.md, "Compression".
const encoderLevel = zstd.SpeedBetterCompression

// Encode writes the table file to w. The table is validated first: Pattern
// must be set, len(Values) == Pattern.Size(), and every header field other
// than Generator, FrameSize and Frames must equal what NewTable computes from
// Pattern and Values (an error says which one differs). FrameSize 0 means
// DefaultFrameSize; other values must lie in [MinFrameSize, MaxFrameSize].
//
// The raw table is cut into frames of FrameSize bytes which are compressed
// independently by up to workers goroutines (workers < 1 means 1) and written
// in order, so the output is byte-identical for any worker count (for a given
// zstd library version). The file holds no timestamp or path. Encode sets
// t.Header.FrameSize and t.Header.Frames; it must not run concurrently with
// other uses of t. Nothing is written to w when validation fails; write
// errors from w are returned as they come.
func (t *Table) Encode(w io.Writer, workers int) error {
	if err := t.validate(); err != nil {
		return err
	}
	if t.Header.FrameSize == 0 {
		t.Header.FrameSize = DefaultFrameSize
	}
	fs := t.Header.FrameSize
	if fs < MinFrameSize || fs > MaxFrameSize {
		return fmt.Errorf("tilepdb: Encode: frame size %d out of range %d..%d", fs, MinFrameSize, MaxFrameSize)
	}
	nf := int(frameCount(uint64(len(t.Values)), fs))
	workers = max(1, min(workers, nf))
	enc, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(encoderLevel),
		zstd.WithEncoderConcurrency(workers), // EncodeAll takes one encoder per call from a pool of this size
		zstd.WithEncoderCRC(true),
		zstd.WithSingleSegment(true), // content size always recorded, window = frame
	)
	if err != nil {
		return fmt.Errorf("tilepdb: creating zstd encoder: %w", err)
	}
	defer enc.Close()

	frames := make([][]byte, nf)
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range nf {
		g.Go(func() error {
			lo := i * fs
			hi := min(lo+fs, len(t.Values))
			frames[i] = enc.EncodeAll(t.Values[lo:hi], nil)
			return nil
		})
	}
	_ = g.Wait()

	t.Header.Frames = make([]int64, nf)
	for i, f := range frames {
		t.Header.Frames[i] = int64(len(f))
	}
	head, err := marshalHeader(&t.Header)
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

// marshalHeader returns the fixed prefix, the JSON header and its SHA-256.
func marshalHeader(h *Header) ([]byte, error) {
	js, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("tilepdb: encoding header: %w", err)
	}
	if len(js) > MaxHeaderLen {
		return nil, fmt.Errorf("tilepdb: header of %d bytes exceeds %d bytes (use a larger frame size)", len(js), MaxHeaderLen)
	}
	return assemble(MajorVersion, MinorVersion, js), nil
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
	if uint64(len(t.Values)) != p.Size() {
		return fmt.Errorf("tilepdb: Encode: %d values for pattern %s, want %d", len(t.Values), p, p.Size())
	}
	want, err := NewTable(p, t.Values, t.Header.Generator)
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

// WriteFile writes t to path atomically: it encodes into a temporary file in
// the same directory, syncs it, renames it over path and syncs the
// directory. On any error the temporary file is removed and an existing file
// at path is left untouched; errors name path, not the temporary file.
// Before it starts, it removes the temporaries
// that killed writers left in the directory (RemoveStaleTemps). The file gets mode 0644. See Encode for workers
// and validation.
func WriteFile(path string, t *Table, workers int) (err error) {
	if err := t.validate(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	_, _ = RemoveStaleTemps(dir) // best effort: leftovers of killed writers
	f, err := os.CreateTemp(dir, tempPattern(base))
	if err != nil {
		return targetErr(path, err)
	}
	tmp := f.Name()
	lockTemp(f)
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = targetErr(path, err)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := t.Encode(bw, workers); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil { // make the rename durable; best effort
		_ = d.Sync()
		d.Close()
	}
	return nil
}
