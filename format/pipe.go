package format

import (
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/sync/errgroup"
)

// frameJob is one frame in flight through pipeFrames.
type frameJob struct {
	lo   uint64
	vals []uint8
	out  []byte
	err  error
	done chan struct{}
}

// pipeFrames is the one place that writes frames, for Table.Encode and
// EncodeStream alike: it encodes the frames of a table of entries
// entries, fs per frame, with codec c (Manhattan distances m in format 2)
// and compresses each at level, on workers goroutines, handing them out in
// frame order. next supplies the values of the frame of ranks lo..lo+n-1,
// in order, from the calling goroutine; emit receives each frame's values
// and compressed bytes, in order, from one goroutine. next's error comes
// first (it ends the reading); otherwise the first error in frame order,
// the encoding's (such as errTooWide) or emit's, is returned, and the
// frames after it are read (next sees every frame, so that its own checks
// run to the end) but not encoded. At most
// workers+2 frames are in flight; the output depends only on the values,
// not on the worker count or the timing.
func pipeFrames(c codec, level zstd.EncoderLevel, m *manhattan, entries uint64, fs, workers int,
	next func(lo uint64, n int) ([]uint8, error), emit func(vals []uint8, out []byte) error) error {
	var stop atomic.Bool // an error is known: encode no more frames
	queue := make(chan *frameJob, workers+1)
	work := make(chan *frameJob, workers)
	var g errgroup.Group
	for range workers {
		g.Go(func() error {
			sc := new(frameScratch)
			for f := range work {
				if !stop.Load() {
					var out []uint8
					if out, f.err = c.encode(m, f.lo, f.vals, sc); f.err == nil {
						f.out, f.err = compressFrame(level, out)
					}
				}
				close(f.done)
			}
			return nil
		})
	}
	emitted := make(chan error, 1)
	go func() {
		var first error
		for f := range queue {
			<-f.done
			if first == nil {
				if first = f.err; first == nil {
					first = emit(f.vals, f.out)
				}
				if first != nil {
					stop.Store(true)
				}
			}
			f.out = nil
		}
		emitted <- first
	}()
	var readErr error
	for lo := uint64(0); lo < entries; lo += uint64(fs) {
		vals, err := next(lo, int(min(uint64(fs), entries-lo)))
		if err != nil {
			readErr = err
			break
		}
		f := &frameJob{lo: lo, vals: vals, done: make(chan struct{})}
		queue <- f
		work <- f
	}
	close(work)
	close(queue)
	_ = g.Wait()
	err := <-emitted
	if readErr != nil {
		return readErr
	}
	return err
}
