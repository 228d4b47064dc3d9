package fsm

import (
	"bufio"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// forbiddenFile is the output of Generate(EmbeddedDepth), one string a
// line after a comment line naming the depth, compressed by zstd (2.3 MB
// of text, 0.27 MB stored); regenerate it with
// go test ./solver/fsm -run TestForbiddenFile -long -update
// (about 6 minutes and 17 GB of memory at depth 16).
//
//go:embed forbidden.txt.zst
var forbiddenFile []byte

// EmbeddedDepth is the depth of the forbidden strings shipped with the
// package (138,856 strings; generating them takes minutes and gigabytes,
// ForDepth compiles them in about a second).
const EmbeddedDepth = 16

// header is the first line of forbidden.txt.
func header(depth int) string {
	return "# forbidden blank-move strings (package fsm, Generate(" + strconv.Itoa(depth) + "))"
}

// parseForbidden reads the forbidden strings of a forbidden.txt file.
func parseForbidden(text string, depth int) ([]string, error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	var out []string
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if line == 1 {
			if s != header(depth) {
				return nil, fmt.Errorf("fsm: forbidden.txt line 1: %q, want %q", s, header(depth))
			}
			continue
		}
		if s == "" || len(s) > depth || strings.Trim(s, Letters) != "" {
			return nil, fmt.Errorf("fsm: forbidden.txt line %d: %q is not a move string of length 1..%d", line, s, depth)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// Embedded returns the shipped forbidden strings of length at most depth
// (0..EmbeddedDepth), which are Generate(depth), in order.
func Embedded(depth int) ([]string, error) {
	if depth < 0 || depth > EmbeddedDepth {
		return nil, fmt.Errorf("fsm: depth %d out of the shipped range 0..%d", depth, EmbeddedDepth)
	}
	all, err := embedded()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range all {
		if len(s) <= depth {
			out = append(out, s)
		}
	}
	return out, nil
}

var embedded = sync.OnceValues(func() ([]string, error) {
	text, err := unpackForbidden(forbiddenFile)
	if err != nil {
		return nil, err
	}
	return parseForbidden(text, EmbeddedDepth)
})

// unpackForbidden decompresses the embedded forbidden.txt.zst.
func unpackForbidden(b []byte) (string, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return "", fmt.Errorf("fsm: forbidden.txt.zst: %w", err)
	}
	defer dec.Close()
	text, err := dec.DecodeAll(b, nil)
	if err != nil {
		return "", fmt.Errorf("fsm: forbidden.txt.zst: %w", err)
	}
	return string(text), nil
}

// packForbidden compresses the text of forbidden.txt for the embedded
// forbidden.txt.zst (TestForbiddenFile -update).
func packForbidden(text string) ([]byte, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	return enc.EncodeAll([]byte(text), nil), nil
}

// ForDepth returns the automaton of the shipped forbidden strings of
// length at most depth (0..EmbeddedDepth): New(depth) without the
// generation time.
func ForDepth(depth int) (*Automaton, error) {
	f, err := Embedded(depth)
	return compileDepth(depth, f, err)
}
