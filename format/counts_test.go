package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestCountValues compares CountValues, Max and Histogram with a plain
// count, for every length 0..17 (the four-counter loop and its tail) and
// a long random slice, with values spread over 0..255.
func TestCountValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, n := range append([]int{1000003}, func() []int {
		var s []int
		for i := range 18 {
			s = append(s, i)
		}
		return s
	}()...) {
		values := make([]uint8, n)
		for i := range values {
			values[i] = uint8(rng.IntN(256))
		}
		var want [256]uint64
		wantMax := 0
		for _, v := range values {
			want[v]++
			wantMax = max(wantMax, int(v))
		}
		c := CountValues(values)
		if [256]uint64(c) != want {
			t.Fatalf("len %d: counts differ", n)
		}
		if c.Max() != wantMax {
			t.Fatalf("len %d: Max %d, want %d", n, c.Max(), wantMax)
		}
		if h := c.Histogram(); !slices.Equal(h, want[:wantMax+1]) {
			t.Fatalf("len %d: Histogram %v", n, h)
		}
	}
}

// TestMismatches: a header that agrees gives nothing; each lie is named
// once, max_value first, the histogram by its first differing value.
func TestMismatches(t *testing.T) {
	values := []uint8{0, 1, 1, 2, 2, 2}
	c := CountValues(values)
	good := func() *Header { return &Header{MaxValue: 2, Histogram: []uint64{1, 2, 3}} }
	cases := []struct {
		name string
		edit func(h *Header)
		want []string // substrings, one per description, in order
	}{
		{"agree", func(h *Header) {}, nil},
		{"max", func(h *Header) { h.MaxValue = 3 }, []string{"max_value is 3, the largest value in the table is 2"}},
		{"one bucket", func(h *Header) { h.Histogram[1] = 7 }, []string{"value 1: header says 7 entries, table has 2"}},
		{"two buckets", func(h *Header) { h.Histogram[0]++; h.Histogram[2]-- }, []string{"value 0: header says 2 entries, table has 1 (2 values differ)"}},
		{"short", func(h *Header) { h.Histogram = h.Histogram[:2] }, []string{"value 2: header says 0 entries, table has 3"}},
		{"long", func(h *Header) { h.Histogram = append(h.Histogram, 0, 4) }, []string{"value 4: header says 4 entries, table has 0"}},
		{"beyond 255", func(h *Header) { h.Histogram = append(h.Histogram, make([]uint64, 300)...); h.Histogram[299] = 1 },
			[]string{"value 299: header says 1 entries, table has 0"}},
		{"both", func(h *Header) { h.MaxValue = 1; h.Histogram = h.Histogram[:2] }, []string{"max_value is 1", "value 2:"}},
	}
	for _, tc := range cases {
		h := good()
		tc.edit(h)
		got := c.Mismatches(h)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %q, want %d descriptions", tc.name, got, len(tc.want))
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], tc.want[i]) {
				t.Errorf("%s: description %d is %q, want it to contain %q", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}

// TestIsBadData classifies the errors of the reader: bad data (corrupt,
// checksum, unsupported version), however wrapped, against trouble
// reading (missing file, I/O) and nil.
func TestIsBadData(t *testing.T) {
	_, good := baseFile(t, MajorVersion)
	decodeErr := func(b []byte) error {
		_, err := Decode(bytes.NewReader(b), int64(len(b)))
		return err
	}
	dir := t.TempDir()
	readErr := func(path string) error {
		_, err := ReadFile(path)
		return err
	}
	cases := []struct {
		name string
		err  error
		bad  bool
	}{
		{"nil", nil, false},
		{"ErrFormat", ErrFormat, true},
		{"FormatError wrapped twice", fmt.Errorf("a: %w", fmt.Errorf("b: %w", formatErr(16, "x"))), true},
		{"ChecksumError", &ChecksumError{What: "raw_sha256"}, true},
		{"UnsupportedVersionError wrapped", fmt.Errorf("f.pdb: %w", &UnsupportedVersionError{Major: 9}), true},
		{"errors.ErrUnsupported alone", errors.ErrUnsupported, false},
		{"not exist", fs.ErrNotExist, false},
		{"unexpected EOF", io.ErrUnexpectedEOF, false},
		{"junk", decodeErr([]byte("not a table file at all")), true},
		{"truncated", decodeErr(good[:len(good)-1]), true},
		{"flipped bit", decodeErr(flip(good, len(good)-1, 0)), true},
		{"missing file", readErr(filepath.Join(dir, "missing.pdb")), false},
		{"a directory", readErr(dir), false},
	}
	for _, tc := range cases {
		if got := IsBadData(tc.err); got != tc.bad {
			t.Errorf("%s: IsBadData(%v) = %v, want %v", tc.name, tc.err, got, tc.bad)
		}
	}
}

// TestFrameStats: the stats a payload's frames give as they are decoded
// (frameStats, frames done in any order by several goroutines) equal
// computeStats of the whole; a skipped frame ends the hash with "" and
// wait still returns (no frame waits for it).
func TestFrameStats(t *testing.T) {
	const frame = 1000
	values := make([]uint8, 10*frame+123)
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range values {
		values[i] = uint8(rng.IntN(40))
	}
	nf := (len(values) + frame - 1) / frame
	bounds := func(i int) (uint64, uint64) {
		return uint64(i * frame), uint64(min((i+1)*frame, len(values)))
	}
	want := computeStats(values)
	for _, skipped := range []int{-1, 0, 4, nf - 1} {
		f := newFrameStats(nf)
		go f.hash(values, bounds)
		var wg sync.WaitGroup
		for _, i := range rng.Perm(nf) {
			wg.Go(func() {
				if i == skipped {
					f.skip(i)
					return
				}
				lo, hi := bounds(i)
				f.done(i, values[lo:hi])
			})
		}
		wg.Wait()
		got := f.wait()
		if skipped >= 0 {
			if got.sha != "" {
				t.Errorf("frame %d skipped: sha %q, want none", skipped, got.sha)
			}
			continue
		}
		if got.sha != want.sha || got.counts != want.counts {
			t.Errorf("frame stats %s %v, computeStats %s %v", got.sha, got.counts[:40], want.sha, want.counts[:40])
		}
	}
}
