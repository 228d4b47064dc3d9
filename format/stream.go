package format

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/tilepdb/tilepdb/internal/atomicfile"
	"github.com/tilepdb/tilepdb/puzzle"
)

// ValueSource supplies a table's values in rank order for EncodeStream:
// it fills dst with the values of ranks lo, lo+1, ..., lo+len(dst)-1. It
// is called from one goroutine, with lo starting at 0 and each call
// continuing where the one before stopped; on the rare second pass (a
// format 2 table with a code above 15, see Encode) it starts again at 0.
type ValueSource func(lo uint64, dst []uint8) error

// StreamOptions control EncodeStream.
type StreamOptions struct {
	// Major is the format version to write, as Header.Major for Encode
	// (0: MajorVersion).
	Major uint16
	// FrameSize is as Header.FrameSize for Encode (0: the default).
	FrameSize int
	// Workers is the goroutines that encode and compress frames (< 1: 1).
	Workers int
	// Generator is the header's generator field.
	Generator string
	// TempDir is where the compressed frames are spooled ("": the
	// system's temporary directory); put it on the file system of the
	// output so that the spool never needs memory.
	TempDir string
}

// Stream is a table encoded by EncodeStream: its header and its frames,
// spooled to a temporary file. Write it with WriteFile or WriteTo; Close
// removes the spool.
type Stream struct {
	Header Header
	spool  *os.File
	size   int64 // bytes of frames in the spool
}

// EncodeStream encodes the table of p from values supplied frame by frame,
// without holding them all in memory: it reads each frame's values from
// src, counts and hashes them (histogram, max_value, raw_sha256),
// compresses frames on opt.Workers goroutines and spools them, in order,
// to a temporary file in opt.TempDir; the header (frames list,
// payload_sha256) is complete when it returns. Written with WriteFile, the
// file is byte-identical to Table.Encode's for the same values and
// options. Its memory is about (Workers+2) frames of values and their
// compressed forms, plus the zstd encoders. It fails as NewTable and
// Encode do on bad values (the value 255, a value below its Manhattan
// distance or of the other parity in format 2), with src's error, or on a
// spool write error (a full disk).
func EncodeStream(p *puzzle.Pattern, src ValueSource, opt StreamOptions) (s *Stream, err error) {
	if p == nil {
		return nil, errors.New("tilepdb: EncodeStream: nil pattern")
	}
	major := opt.Major
	if major == 0 {
		major = MajorVersion
	}
	v := versionOf(major)
	if v == nil {
		return nil, fmt.Errorf("tilepdb: EncodeStream: cannot write format version %d (only %d and %d)", major, MajorVersion1, MajorVersion)
	}
	entries := p.Size()
	fs := opt.FrameSize
	if fs == 0 {
		fs = v.defaultFrameSize(entries)
	}
	if fs < MinFrameSize || fs > MaxFrameSize || (v.evenFrames && fs%2 != 0) {
		return nil, fmt.Errorf("tilepdb: EncodeStream: frame size %d out of range %d..%d (even for format 2)", fs, MinFrameSize, MaxFrameSize)
	}
	spool, err := os.CreateTemp(opt.TempDir, "tilepdb-frames-*.spool")
	if err != nil {
		return nil, fmt.Errorf("tilepdb: EncodeStream: spool: %w", err)
	}
	st := &Stream{spool: spool}
	defer func() {
		if err != nil {
			st.Close()
			s = nil
		}
	}()
	s = st
	var m *manhattan
	if v.manhattan {
		m = newManhattan(p)
	}
	for i, c := range v.codecs {
		err = s.encode(p, src, c, v, m, fs, max(1, opt.Workers))
		if errors.Is(err, errTooWide) && i < len(v.codecs)-1 {
			if _, err = spool.Seek(0, io.SeekStart); err == nil {
				err = spool.Truncate(0)
			}
			if err != nil {
				return nil, fmt.Errorf("tilepdb: EncodeStream: spool: %w", err)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		h := patternHeader(p)
		h.Major, h.Minor = v.major, v.minor
		h.Generator = opt.Generator
		h.FrameSize = fs
		h.Encoding = c.name()
		s.Header = mergeStreamHeader(h, s.Header)
		return s, nil
	}
	return nil, errors.New("tilepdb: EncodeStream: the version has no codec") // not reached
}

// mergeStreamHeader puts the pattern's fields (h) and the encoded fields
// of the pass (got: counts, hashes, frames) together.
func mergeStreamHeader(h, got Header) Header {
	h.MaxValue, h.Histogram, h.RawSHA256 = got.MaxValue, got.Histogram, got.RawSHA256
	h.Frames, h.PayloadSHA256 = got.Frames, got.PayloadSHA256
	return h
}

// encode is one pass over the values with codec c (pipeFrames): frames
// read in order by this goroutine, counted and hashed, encoded and
// compressed by workers, spooled in order. It fills s.Header's counts,
// hashes and frames.
func (s *Stream) encode(p *puzzle.Pattern, src ValueSource, c codec, v *version, m *manhattan, fs, workers int) error {
	entries := p.Size()
	raw := sha256.New()
	var payload hash.Hash
	if v.payloadSHA {
		payload = sha256.New()
	}
	var counts Counts
	frames := make([]int64, 0, frameCount(entries, fs))
	bw := bufio.NewWriterSize(s.spool, 1<<20)
	var written int64
	free := make(chan []uint8, workers+2) // value buffers spooled, for reuse
	next := func(lo uint64, n int) ([]uint8, error) {
		var buf []uint8
		select {
		case buf = <-free:
		default:
			buf = make([]uint8, fs)
		}
		buf = buf[:n]
		if err := src(lo, buf); err != nil {
			return nil, sourceError{err}
		}
		fc := CountValues(buf)
		if fc[puzzle.Unreached] != 0 {
			return nil, sourceError{fmt.Errorf("tilepdb: EncodeStream: %d entries hold the reserved value 255 (unreached), first at rank %d", fc[puzzle.Unreached], lo+uint64(firstIndex(buf, puzzle.Unreached)))}
		}
		for j := range counts {
			counts[j] += fc[j]
		}
		raw.Write(buf)
		return buf, nil
	}
	emit := func(vals []uint8, out []byte) error {
		payloadWrite(payload, out)
		frames = append(frames, int64(len(out)))
		n, err := bw.Write(out)
		written += int64(n)
		select {
		case free <- vals[:cap(vals)]:
		default: // enough spare buffers
		}
		if err != nil {
			return fmt.Errorf("spool: %w", err)
		}
		return nil
	}
	err := pipeFrames(c, v.level, m, entries, fs, workers, next, emit)
	var se sourceError
	switch {
	case errors.As(err, &se):
		return se.err // the source's own error, as it is
	case errors.Is(err, errTooWide):
		return err
	case err != nil:
		return fmt.Errorf("tilepdb: EncodeStream: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("tilepdb: EncodeStream: spool: %w", err)
	}
	s.size = written
	h := &s.Header
	h.MaxValue = counts.Max()
	h.Histogram = counts.Histogram()
	h.RawSHA256 = hex.EncodeToString(raw.Sum(nil))
	h.Frames = frames
	h.PayloadSHA256 = ""
	if payload != nil {
		h.PayloadSHA256 = hex.EncodeToString(payload.Sum(nil))
	}
	return nil
}

// sourceError marks an error of the values' source (or of their check)
// through pipeFrames, returned as it is.
type sourceError struct{ err error }

func (e sourceError) Error() string { return e.err.Error() }
func (e sourceError) Unwrap() error { return e.err }

func payloadWrite(h hash.Hash, b []byte) {
	if h != nil {
		h.Write(b)
	}
}

// WriteTo writes the table file (header, then the spooled frames) to w.
func (s *Stream) WriteTo(w io.Writer) (int64, error) {
	head, err := marshalHeader(&s.Header)
	if err != nil {
		return 0, err
	}
	n, err := w.Write(head)
	if err != nil {
		return int64(n), err
	}
	if _, err := s.spool.Seek(0, io.SeekStart); err != nil {
		return int64(n), fmt.Errorf("tilepdb: spool: %w", err)
	}
	m, err := io.Copy(w, io.LimitReader(s.spool, s.size))
	if err == nil && m != s.size {
		err = fmt.Errorf("tilepdb: spool: %d bytes of frames, %d read back", s.size, m)
	}
	return int64(n) + m, err
}

// WriteFile writes the table file to path atomically, as format.WriteFile
// does (a temporary file renamed over path; nothing at path on error).
func (s *Stream) WriteFile(path string) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := s.WriteTo(w)
		return err
	})
}

// Close removes the spool. It may be called more than once.
func (s *Stream) Close() error {
	if s == nil || s.spool == nil {
		return nil
	}
	name := s.spool.Name()
	s.spool.Close()
	s.spool = nil
	return os.Remove(name)
}
