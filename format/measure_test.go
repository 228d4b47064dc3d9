package format

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Measuring the format 2 encoding choices (packing, order, frame size, zstd
// level) on real tables; not a test. Example (see the report of issue 13):
//
//	go test ./format -run TestMeasureEncoding -v -timeout 60m \
//	  -measure '/tmp/f2-old-def/*.pdb' -mpack byte,nib,plane -mframes 1048576 -mlevels better,best
var (
	measureGlob   = flag.String("measure", "", "glob of format 1.0 table files to measure encodings on")
	measurePacks  = flag.String("mpack", "byte,nib,nibsplit,plane", "packings to measure")
	measureFrames = flag.String("mframes", "262144,1048576,4194304", "frame sizes (entries) to measure")
	measureLevels = flag.String("mlevels", "default,better,best", "zstd levels to measure")
	measureLowMem = flag.Bool("mlowmem", false, "measure with zstd.WithLowerEncoderMem")
)

func TestMeasureEncoding(t *testing.T) {
	if *measureGlob == "" {
		t.Skip("no -measure files")
	}
	files, err := filepath.Glob(*measureGlob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %q (%v)", *measureGlob, err)
	}
	levels := map[string]zstd.EncoderLevel{"fastest": zstd.SpeedFastest, "default": zstd.SpeedDefault, "better": zstd.SpeedBetterCompression, "best": zstd.SpeedBestCompression}
	type key struct {
		pack, level string
		fs          int
	}
	totals := map[key]int64{}
	times := map[key]time.Duration{}
	var keys []key
	var totalEntries uint64
	for _, f := range files {
		tb, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := newManhattan(tb.Pattern)
		man := make([]uint8, len(tb.Values))
		var scratch []uint8
		m.fill(0, man, &scratch)
		codes := make([]uint8, len(tb.Values))
		maxc := uint8(0)
		for i, v := range tb.Values {
			if v < man[i] || (v-man[i])&1 != 0 {
				t.Fatalf("%s: rank %d: value %d, Manhattan %d", f, i, v, man[i])
			}
			codes[i] = (v - man[i]) / 2
			maxc = max(maxc, codes[i])
		}
		hist := map[uint8]uint64{}
		for _, c := range codes {
			hist[c]++
		}
		totalEntries += uint64(len(codes))
		t.Logf("%s: %d entries, max code %d, code histogram %v", filepath.Base(f), len(codes), maxc, hist)
		for _, lname := range strings.Split(*measureLevels, ",") {
			for _, fss := range strings.Split(*measureFrames, ",") {
				fs, _ := strconv.Atoi(fss)
				enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(levels[lname]), zstd.WithEncoderConcurrency(2), zstd.WithEncoderCRC(true), zstd.WithSingleSegment(true), zstd.WithLowerEncoderMem(*measureLowMem))
				if err != nil {
					t.Fatal(err)
				}
				for _, pack := range strings.Split(*measurePacks, ",") {
					k := key{pack, lname, fs}
					if _, ok := totals[k]; !ok {
						keys = append(keys, k)
					}
					start := time.Now()
					c0 := cpuTime()
					var mu sync.Mutex
					var total int64
					var wg sync.WaitGroup
					sem := make(chan struct{}, 2)
					for lo := 0; lo < len(codes); lo += fs {
						hi := min(lo+fs, len(codes))
						wg.Add(1)
						sem <- struct{}{}
						go func() {
							defer wg.Done()
							b := packMeasure(pack, codes[lo:hi], maxc, int(tb.Pattern.Combinations()))
							n := len(enc.EncodeAll(b, nil))
							mu.Lock()
							total += int64(n)
							mu.Unlock()
							<-sem
						}()
					}
					wg.Wait()
					el, cpu := time.Since(start), cpuTime()-c0
					totals[k] += total
					times[k] += cpu
					t.Logf("  %-8s %-7s frame %8d: %10d bytes  %.3f bits/entry  cpu %v wall %v", pack, lname, fs, total, float64(total*8)/float64(len(codes)), cpu.Round(time.Millisecond), el.Round(time.Millisecond))
				}
				enc.Close()
			}
		}
	}
	t.Logf("TOTAL over %d files, %d entries:", len(files), totalEntries)
	for _, k := range keys {
		t.Logf("  %-8s %-7s frame %8d: %10d bytes (%.3f MiB)  %.3f bits/entry  cpu %v", k.pack, k.level, k.fs, totals[k], float64(totals[k])/(1<<20), float64(totals[k]*8)/float64(totalEntries), times[k].Round(time.Millisecond))
	}
}

func packMeasure(pack string, codes []uint8, maxc uint8, row int) []byte {
	switch pack {
	case "nibD", "byteD": // code minus the code one block (C(N,k) ranks) earlier, mod 16 (mod 256)
		d := make([]uint8, len(codes))
		for i, c := range codes {
			if i >= row {
				c -= codes[i-row]
			}
			if pack == "nibD" {
				c &= 15
			}
			d[i] = c
		}
		if pack == "byteD" {
			return d
		}
		return packMeasure("nib", d, maxc, 0)
	case "nibT": // rows of C(N,k) entries (one tile order each) transposed, then nibbles
		if row <= 1 || row >= len(codes) {
			return packMeasure("nib", codes, maxc, 0)
		}
		rows := len(codes) / row
		t := make([]uint8, 0, len(codes))
		for m := 0; m < row; m++ {
			for r := 0; r < rows; r++ {
				t = append(t, codes[r*row+m])
			}
		}
		t = append(t, codes[rows*row:]...)
		return packMeasure("nib", t, maxc, row)
	case "byte":
		return codes
	case "nib": // adjacent entries, low nibble first
		b := make([]byte, (len(codes)+1)/2)
		for i, c := range codes {
			b[i/2] |= c << (4 * (i & 1))
		}
		return b
	case "nibsplit": // entry i with entry i+half
		h := (len(codes) + 1) / 2
		b := make([]byte, h)
		for i, c := range codes {
			if i < h {
				b[i] |= c
			} else {
				b[i-h] |= c << 4
			}
		}
		return b
	case "plane": // bit planes, least significant first
		nb := 0
		for 1<<nb <= int(maxc) {
			nb++
		}
		nb = max(nb, 1)
		pl := (len(codes) + 7) / 8
		b := make([]byte, nb*pl)
		for j := 0; j < nb; j++ {
			p := b[j*pl : (j+1)*pl]
			for i, c := range codes {
				p[i/8] |= (c >> j & 1) << (i & 7)
			}
		}
		return b
	}
	panic(fmt.Sprintf("unknown packing %q", pack))
}

// TestMeasureEncode times Table.Encode of real tables in format 1.0 and 2.0,
// alternating, and reports process CPU time (user+sys: comparable on a
// loaded machine, unlike wall time), wall time and payload size:
//
//	go test ./format -run TestMeasureEncode -v -measure '/tmp/f2-old-def/15-663*.pdb'
func TestMeasureEncode(t *testing.T) {
	if *measureGlob == "" {
		t.Skip("no -measure files")
	}
	files, err := filepath.Glob(*measureGlob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %q (%v)", *measureGlob, err)
	}
	for _, f := range files {
		tb, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for round := 0; round < 3; round++ {
			for _, major := range []uint16{MajorVersion1, MajorVersion} {
				tb.Header.Major, tb.Header.FrameSize = major, 0
				c0, w0 := cpuTime(), time.Now()
				if err := tb.Encode(io.Discard, 2); err != nil {
					t.Fatal(err)
				}
				var n int64
				for _, c := range tb.Header.Frames {
					n += c
				}
				t.Logf("%s v%d round %d: cpu %v wall %v payload %d bytes (%.3f bits/entry)", filepath.Base(f), major, round,
					(cpuTime() - c0).Round(time.Millisecond), time.Since(w0).Round(time.Millisecond), n, float64(8*n)/float64(len(tb.Values)))
			}
		}
	}
}

// TestMeasureDecode decodes real tables from format 1.0 and 2.0 bytes
// (the 2.0 bytes encoded here from the 1.0 file), alternating, and reports
// CPU time (user+sys), wall time and the heap allocated:
//
//	go test ./format -run TestMeasureDecode -v -measure '/tmp/f2-old-def/*.pdb'
func TestMeasureDecode(t *testing.T) {
	if *measureGlob == "" {
		t.Skip("no -measure files")
	}
	files, err := filepath.Glob(*measureGlob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %q (%v)", *measureGlob, err)
	}
	for _, f := range files {
		v1, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := Decode(bytes.NewReader(v1), int64(len(v1)))
		if err != nil {
			t.Fatal(err)
		}
		tb.Header.Major, tb.Header.FrameSize = MajorVersion, 0
		var buf bytes.Buffer
		if err := tb.Encode(&buf, 2); err != nil {
			t.Fatal(err)
		}
		v2 := buf.Bytes()
		tb = nil
		for round := 0; round < 3; round++ {
			for i, b := range [][]byte{v1, v2} {
				runtime.GC()
				c0, w0 := cpuTime(), time.Now()
				alloc := heapDelta(func() { _, err = Decode(bytes.NewReader(b), int64(len(b))) })
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s v%d round %d: cpu %v wall %v, %d bytes allocated, file %d bytes", filepath.Base(f), i+1, round,
					(cpuTime() - c0).Round(time.Millisecond), time.Since(w0).Round(time.Millisecond), alloc, len(b))
			}
		}
	}
}
