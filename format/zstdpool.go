package format

import (
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// encoders keeps idle zstd encoders between frames and between Encode
// calls. A SpeedBestCompression encoder holds tens of megabytes of match
// tables; allocating and faulting them in for every table cost more CPU
// than compressing a small table (the default set built 10% slower).
// Encoders are used with EncodeAll only, which starts no goroutines, so an
// idle encoder is memory only; at most GOMAXPROCS per level are kept, the
// others are closed. (Closing the encoders of big frames instead, which
// pay for a new encoder anyway, raised the peak memory of building 24-6666
// from 485 MB to 584 MB: the discarded encoders' tables are garbage.)
var encoders struct {
	mu   sync.Mutex
	idle map[zstd.EncoderLevel][]*zstd.Encoder
}

// compressFrame compresses src as one zstd frame at level with the frame
// options of SPEC.md (content checksum, single segment: the content size is
// recorded and the window is the frame). The output depends only on src,
// level and the zstd library version. Safe for concurrent use.
func compressFrame(level zstd.EncoderLevel, src []byte) ([]byte, error) {
	encoders.mu.Lock()
	var enc *zstd.Encoder
	if l := encoders.idle[level]; len(l) > 0 {
		enc = l[len(l)-1]
		encoders.idle[level] = l[:len(l)-1]
	}
	encoders.mu.Unlock()
	if enc == nil {
		var err error
		enc, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(level),
			zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(true),
			zstd.WithSingleSegment(true),
		)
		if err != nil {
			return nil, err
		}
	}
	out := enc.EncodeAll(src, nil)
	encoders.mu.Lock()
	if encoders.idle == nil {
		encoders.idle = make(map[zstd.EncoderLevel][]*zstd.Encoder)
	}
	if len(encoders.idle[level]) < runtime.GOMAXPROCS(0) {
		encoders.idle[level] = append(encoders.idle[level], enc)
		enc = nil
	}
	encoders.mu.Unlock()
	if enc != nil {
		enc.Close()
	}
	return out, nil
}
