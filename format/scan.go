package format

import (
	"crypto/sha256"
	"encoding/hex"
	"os"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/puzzle"
)

// ScanFile reads the table file at path frame by frame, for tables larger
// than the memory at hand: it makes the checks of ReadFile (header,
// layout, payload_sha256, every frame, then raw_sha256, the reserved value
// and the histogram against a recount) and calls fn with the values of
// each frame in rank order (vals[j] is entry lo+j, valid during the call
// only), from one goroutine. Frames are decoded by up to workers
// goroutines; its memory is about 2·workers frames. The first integrity
// problem ends the scan with an error for which IsBadData is true (a
// problem found after the last frame, such as a wrong raw_sha256, comes
// after every fn call); fn's error ends it too, as it is. It returns the
// header and pattern once they are read (nil when they could not be);
// header, when not nil, is called with them before the first frame is
// read (its error ends the scan).
func ScanFile(path string, workers int, header func(h *Header, p *puzzle.Pattern) error, fn func(lo uint64, vals []uint8) error) (*Header, *puzzle.Pattern, error) {
	var h *Header
	var p *puzzle.Pattern
	err := withFile(path, func(f *os.File, size int64) error {
		d := &decoder{r: f, size: size, strict: true}
		var payloadOff int64
		var err error
		if h, p, payloadOff, err = d.header(); err != nil {
			return err
		}
		if header != nil {
			if err := header(h, p); err != nil {
				return err
			}
		}
		return d.scan(h, p, payloadOff, max(1, workers), fn)
	})
	return h, p, err
}

// scan is ScanFile's pass over the frames.
func (d *decoder) scan(h *Header, p *puzzle.Pattern, payloadOff int64, workers int, fn func(lo uint64, vals []uint8) error) error {
	if d.v.payloadSHA {
		if err := d.checkPayloadSHA(h, payloadOff); err != nil {
			return err
		}
	}
	nf := len(h.Frames)
	frames, err := d.frames(h, p, payloadOff, workers)
	if err != nil {
		return err
	}
	defer frames.close()
	raw := sha256.New()
	var counts Counts
	firstUnreached := int64(-1)
	group := make([][]uint8, workers)
	for i := range group {
		group[i] = make([]uint8, h.FrameSize)
	}
	// Frames in groups of workers: decoded in parallel, then handed to fn
	// in order.
	for first := 0; first < nf; first += workers {
		last := min(first+workers, nf)
		var g errgroup.Group
		errs := make([]error, last-first)
		for i := first; i < last; i++ {
			g.Go(func() error {
				errs[i-first] = frames.decode(i, group[i-first][:frameRaw(h, i)], false)
				return nil
			})
		}
		_ = g.Wait()
		for i := first; i < last; i++ {
			if err := errs[i-first]; err != nil {
				return err
			}
			lo := uint64(i) * uint64(h.FrameSize)
			vals := group[i-first][:frameRaw(h, i)]
			raw.Write(vals)
			c := CountValues(vals)
			if c[puzzle.Unreached] != 0 && firstUnreached < 0 {
				firstUnreached = int64(lo) + int64(firstIndex(vals, puzzle.Unreached))
			}
			for v := range counts {
				counts[v] += c[v]
			}
			if err := fn(lo, vals); err != nil {
				return err
			}
		}
	}
	if got := hex.EncodeToString(raw.Sum(nil)); got != h.RawSHA256 {
		return &ChecksumError{What: "raw_sha256", Want: h.RawSHA256, Got: got}
	}
	if n := counts[puzzle.Unreached]; n != 0 {
		return formatErr(payloadOff, "%d entries hold the reserved value 255, first at rank %d", n, firstUnreached)
	}
	if ms := counts.Mismatches(h); len(ms) > 0 {
		return formatErr(offHeader, "%s", ms[0])
	}
	return nil
}
