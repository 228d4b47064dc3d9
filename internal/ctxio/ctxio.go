// Package ctxio makes a blocking io.Reader give up when a context ends.
//
// A read from a terminal, an idle pipe or a socket can block forever, and
// Go offers no portable way to interrupt it. Reader does the blocking
// reads on a goroutine of its own and lets the caller's Read return as
// soon as the context is done, so that a command reading stdin stops
// promptly on Ctrl-C. The goroutine stays blocked in the underlying Read
// until that returns (at the latest when the process exits); that is the
// price of portability.
package ctxio

import (
	"context"
	"io"
)

// bufSize is the size of each read of the underlying reader.
const bufSize = 32 << 10

type chunk struct {
	b   []byte
	err error
}

// Reader is an io.Reader that reads from an underlying reader on a
// background goroutine, at most one buffer ahead of its caller, and whose
// Read returns ctx.Err() once ctx is done. It is not safe for concurrent
// use (like most readers).
type Reader struct {
	ctx     context.Context
	data    chan chunk  // filled buffers from the goroutine
	free    chan []byte // buffers handed back to the goroutine
	pending []byte      // unread rest of the current buffer
	cur     []byte      // the buffer pending points into, returned when drained
	err     error       // sticky error
}

// NewReader returns a Reader of r that gives up when ctx is done. The
// background goroutine starts at the first Read.
func NewReader(ctx context.Context, r io.Reader) *Reader {
	cr := &Reader{ctx: ctx, data: make(chan chunk), free: make(chan []byte, 2)}
	cr.free <- make([]byte, bufSize)
	cr.free <- make([]byte, bufSize)
	go cr.loop(r)
	return cr
}

// loop reads r into free buffers until an error (io.EOF included) or the
// end of ctx.
func (cr *Reader) loop(r io.Reader) {
	for {
		var buf []byte
		select {
		case buf = <-cr.free:
		case <-cr.ctx.Done():
			return
		}
		n, err := r.Read(buf)
		select {
		case cr.data <- chunk{buf[:n], err}:
		case <-cr.ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// Read reads into p what the underlying reader gave, or waits for it; it
// returns ctx.Err() as soon as ctx is done, even while the underlying
// reader blocks. The underlying reader's errors (io.EOF included) are
// returned once all data before them is read, and stick.
func (cr *Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for len(cr.pending) == 0 {
		if cr.err != nil {
			return 0, cr.err
		}
		if err := cr.ctx.Err(); err != nil {
			return 0, err
		}
		if cr.cur != nil {
			cr.free <- cr.cur[:cap(cr.cur)]
			cr.cur = nil
		}
		select {
		case c := <-cr.data:
			cr.cur, cr.pending, cr.err = c.b, c.b, c.err
		case <-cr.ctx.Done():
			return 0, cr.ctx.Err()
		}
	}
	if err := cr.ctx.Err(); err != nil {
		return 0, err
	}
	n := copy(p, cr.pending)
	cr.pending = cr.pending[n:]
	return n, nil
}
