package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
)

// hugeDeclaredTable writes a 1.3 MB file into dir whose header, header
// checksum, frame layout and zstd frame headers are valid but which
// declares a 5x5 table of tiles 1..8: 25!/17! = 43,609,104,000 entries
// (40.6 GiB) in 650 frames of 64 MiB, each frame a zstd frame of 128 KiB
// run-length blocks (4 bytes each) with a wrong content checksum. Only
// decoding would find that out, after allocating the table: before the
// fix, lookup and verify died of "fatal error: out of memory".
func hugeDeclaredTable(t *testing.T, dir string) string {
	t.Helper()
	const entries = 43_609_104_000
	const frameSize = format.MaxFrameSize
	const block = 128 << 10
	h := format.Header{
		Width: 5, Height: 5, GoalName: "blank-last",
		Tiles: []int{1, 2, 3, 4, 5, 6, 7, 8}, Kind: format.KindAdditive,
		Ranking: "cellset-order", RankingVersion: 1,
		Entries: entries, BitsPerEntry: 8, MaxValue: 0, Histogram: []uint64{entries},
		RawSHA256: strings.Repeat("0", 64), Generator: "hostile test",
		FrameSize: frameSize,
	}
	for i := 1; i < 25; i++ {
		h.Goal = append(h.Goal, i)
	}
	h.Goal = append(h.Goal, 0)
	var payload []byte
	for lo := uint64(0); lo < entries; lo += frameSize {
		raw := min(entries-lo, frameSize)
		start := len(payload)
		// RFC 8878: magic; descriptor 0xA4 = 4-byte content size, single
		// segment, content checksum; the content size.
		payload = binary.LittleEndian.AppendUint32(payload, 0xFD2FB528)
		payload = append(payload, 0xA4)
		payload = binary.LittleEndian.AppendUint32(payload, uint32(raw))
		for b := uint64(0); b < raw; b += block {
			n := min(raw-b, block)
			hdr := uint32(n)<<3 | 1<<1 // an RLE block of n bytes
			if b+n == raw {
				hdr |= 1 // the last block
			}
			payload = append(payload, byte(hdr), byte(hdr>>8), byte(hdr>>16), 0)
		}
		payload = append(payload, 0, 0, 0, 0) // content checksum (wrong)
		h.Frames = append(h.Frames, int64(len(payload)-start))
	}
	// A format 1.0 file: one byte per entry.
	return writeHandMade(t, filepath.Join(dir, "huge.pdb"), format.MajorVersion1, &h, payload)
}

// writeHandMade writes a table file of format version major.0 at path
// with header h and the stored frames payload, and returns path. SPEC.md:
// magic, major, minor, header length, JSON, SHA-256 of all before, frames.
func writeHandMade(t *testing.T, path string, major uint16, h *format.Header, payload []byte) string {
	t.Helper()
	js, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	b := []byte("TILEPDB\x1a")
	b = binary.LittleEndian.AppendUint16(b, major)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(js)))
	b = append(b, js...)
	sum := sha256.Sum256(b)
	b = append(b, sum[:]...)
	b = append(b, payload...)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHugeDeclaredTableRefused: a 1.3 MB file that declares a 40.6 GiB
// table is refused by every command that would load it, on one line naming
// the memory needed and the limit, without allocating the table (before
// the fix: fatal error: runtime: out of memory, or 40 GiB allocated). verify
// refuses it even when its header checksum is broken (verify reads headers
// leniently), and info, which reads only the header, shows it.
func TestHugeDeclaredTableRefused(t *testing.T) {
	if strconv.IntSize == 32 {
		t.Skip("a 32-bit build refuses the 43.6 G-entry pattern itself (puzzle: more than an int can index)")
	}
	dir := t.TempDir()
	huge := hugeDeclaredTable(t, dir)
	broken := filepath.Join(dir, "broken-sum.pdb")
	b := readBytes(t, huge)
	n := int(binary.LittleEndian.Uint32(b[12:16]))
	b[16+n+3] ^= 0x10 // a byte of the header SHA-256
	if err := os.WriteFile(broken, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// 40.6 GiB of entries, plus the decoders' buffers and the runtime.
	const need = "needs 40.9 GiB of memory, more than --max-memory 1.0 GiB"
	// verify also counts the tables of its index walk (verify.MemoryNeed).
	const verifyNeed = "needs 41.2 GiB of memory, more than --max-memory 1.0 GiB"
	for _, c := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"lookup", []string{"lookup", "--max-memory", "1G", huge}, huge + " " + need},
		{"solve", []string{"solve", "--max-memory", "1G", huge}, huge + " " + need},
		// An additive table too large for verify's memory is refused,
		// naming --frames; verify --frames (verify.FileFrames) finds these
		// files bad (exit 1) at their first frame.
		{"verify", []string{"verify", "--max-memory", "1G", huge}, huge + " " + verifyNeed + "; --frames checks its 43609104000 entries frame by frame in "},
		{"verify", []string{"verify", "--max-memory", "1G", broken}, broken + " " + verifyNeed + "; --frames checks its 43609104000 entries frame by frame in "},
		{"verify-frames", []string{"verify", "--frames", "--max-memory", "1G", huge}, "verifying " + huge + " frame by frame: 43609104000 entries in 650 frames"},
		{"verify-frames", []string{"verify", "--frames", "--max-memory", "1G", broken}, "verifying " + broken + " frame by frame: 43609104000 entries in 650 frames"},
		{"verify", []string{"verify", "--deep", "--max-memory", "1G", huge}, "TiB of memory, more than --max-memory 1.0 GiB with --deep"},
	} {
		var r result
		alloc := allocated(func() { r = pdbgen(t, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0\n", c.args...) })
		if c.cmd == "verify-frames" {
			wantCode(t, r, 1)
			if !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, "1 of 1 file(s) failed verification") {
				t.Errorf("%v: stderr does not say %q\n%v", c.args, c.want, r)
			}
			if alloc > 1<<30 { // frames of up to 64 M entries, a few per worker: within --max-memory
				t.Errorf("%v allocated %d MiB", c.args, alloc>>20)
			}
			continue
		}
		wantCode(t, r, 2)
		if c.cmd == "verify" { // the per-file line, then the summary
			if !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, "1 of 1 file(s) could not be checked") {
				t.Errorf("%v: stderr does not say %q\n%v", c.args, c.want, r)
			}
		} else {
			oneErrorLine(t, r, c.cmd, c.want)
		}
		if alloc > 64<<20 {
			t.Errorf("%v allocated %d MiB", c.args, alloc>>20)
		}
	}
	// Without --max-memory the available memory is the limit (where known).
	if avail, ok := sysmem.Available(); ok && avail < 40<<30 {
		r := pdbgen(t, "", "lookup", huge)
		wantCode(t, r, 2)
		oneErrorLine(t, r, "lookup", "needs 40.9 GiB of memory, ")
		if !strings.Contains(r.stderr, " available (--max-memory overrides)") {
			t.Errorf("message does not give the memory available:\n%v", r)
		}
	}
	r := pdbgen(t, "", "info", huge)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "entries    43609104000 x 8 bits") {
		t.Errorf("info:\n%v", r)
	}
}

// allocated runs fn and returns the bytes it allocated on the heap.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestMaxMemoryFlag: every command with --max-memory refuses values that
// are not a size of at least 1M (before the fix 0.5 and NaN meant "no
// limit"), and a generous limit lets the work through.
func TestMaxMemoryFlag(t *testing.T) {
	p8 := fixture(t, fx8)
	out := t.TempDir()
	for _, v := range []string{"0.5", "NaN", "nan", "-1", "0", "1K", "lots", "1e9", "Inf", "4 G B", ""} {
		for _, args := range [][]string{
			{"build", "--preset", "8puzzle", "-o", out},
			{"lookup", p8},
			{"solve", p8},
			{"verify", p8},
		} {
			args = append(args, "--max-memory="+v)
			r := pdbgen(t, goal8+"\n", args...)
			if v == "" { // the flag given empty means the default
				wantCode(t, r, 0)
				continue
			}
			wantCode(t, r, 2)
			oneErrorLine(t, r, args[0], "--max-memory \""+v+"\"")
		}
	}
	r := pdbgen(t, goal8+"\n", "lookup", "--max-memory", "1.5GiB", p8)
	wantCode(t, r, 0)
	if r.stdout != goal8+"\t0\n" {
		t.Errorf("lookup:\n%v", r)
	}
}

// TestStdoutWriteErrors: a command whose output cannot be written exits 2
// with one message line, prefixed like every other (before the fix: exit 0
// for info, info --json, presets, version and build's list of written
// paths; later info --json on a set file without its "pdbgen info: ").
func TestStdoutWriteErrors(t *testing.T) {
	p8 := fixture(t, fx8)
	set := filepath.Join("..", "..", "readers", "testdata", "sets", "good-catalogue.set.json")
	for _, args := range [][]string{
		{"info", p8},
		{"info", "--json", p8},
		{"info", set},
		{"info", "--json", set},
		{"info", "--json", set, p8},
		{"presets"},
		{"version"},
		{"--version"},
		{"build", "--quiet", "--preset", "8puzzle", "-o", t.TempDir()},
		{"verify", p8},
		{"lookup", p8},
		{"solve", p8},
	} {
		var errb bytes.Buffer
		e := &env{stdin: strings.NewReader(goal8 + "\n"), stdout: &failWriter{}, stderr: &errb}
		code := run(e, args)
		r := result{code: code, stderr: errb.String()}
		wantCode(t, r, 2)
		cmd := args[0]
		if cmd == "--version" {
			cmd = "version"
		}
		if !strings.Contains(r.stderr, "pdbgen "+cmd+": ") || !strings.Contains(r.stderr, "no space left on device") {
			t.Errorf("%v: stderr does not report the write error:\n%v", args, r)
		}
		if cmd == "info" && (len(lines(r.stderr)) != 1 || !strings.HasPrefix(r.stderr, "pdbgen info: writing output: ")) {
			t.Errorf("%v: want one line \"pdbgen info: writing output: ...\":\n%v", args, r)
		}
	}
}

// TestHelpAndArguments covers the everyday mistakes of issue 10 item 10.
func TestHelpAndArguments(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		stdout string // substring of stdout ("" = empty)
		stderr string // substring of stderr ("" = empty)
	}{
		{[]string{"--version"}, 0, generator + "\n", ""},
		{[]string{"-version"}, 0, generator + "\n", ""},
		{[]string{"help", "nope"}, 2, "", `pdbgen help: unknown command "nope"`},
		{[]string{"help", "lookup", "extra"}, 2, "", "at most one command"},
		{[]string{"presets", "foo"}, 2, "", `pdbgen presets: unexpected argument "foo"`},
		{[]string{"version", "foo"}, 2, "", `pdbgen version: unexpected argument "foo"`},
		{[]string{"help", "lookup"}, 0, "the blank is 0, x, X or _", ""},
		{[]string{"help", "solve"}, 0, "the direction in which the\nBLANK moves", ""},
		{[]string{"help", "solve"}, 0, "answered \"unsolvable\"", ""},
		{[]string{"help", "lookup"}, 0, "Exit status: 0 every line answered (unsolvable boards included)", ""},
		{[]string{"help", "build"}, 0, "-max-memory", ""},
	} {
		r := pdbgen(t, "", c.args...)
		if r.code != c.code || (c.stdout == "") != (r.stdout == "") || !strings.Contains(r.stdout, c.stdout) ||
			(c.stderr == "") != (r.stderr == "") || !strings.Contains(r.stderr, c.stderr) {
			t.Errorf("pdbgen %s: want exit %d, stdout with %q, stderr with %q; got\n%v", strings.Join(c.args, " "), c.code, c.stdout, c.stderr, r)
		}
	}
	// No empty "Flags:" section; a "Flags:" section whenever there are flags.
	for _, c := range commands {
		r := pdbgen(t, "", c.name, "-h")
		wantCode(t, r, 0)
		hasFlags := strings.Contains(r.stderr, "\n  -")
		if strings.Contains(r.stderr, "Flags:") != hasFlags {
			t.Errorf("%s -h: Flags section present %v, flags listed %v:\n%s", c.name, !hasFlags, hasFlags, r.stderr)
		}
		if strings.Contains(r.stderr, "Flags:\n\n") || strings.HasSuffix(r.stderr, "Flags:\n") {
			t.Errorf("%s -h: empty Flags section:\n%s", c.name, r.stderr)
		}
	}
}

// TestBuildRemovesStaleTemporaries: a build killed with SIGKILL leaves a
// hidden temporary file; the next build into the folder removes it.
func TestBuildRemovesStaleTemporaries(t *testing.T) {
	out := t.TempDir()
	stale := filepath.Join(out, ".8puzzle.pdb.tmp-2718281828")
	if err := os.WriteFile(stale, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	r := pdbgen(t, "", "build", "--quiet", "--preset", "8puzzle", "-o", out)
	wantCode(t, r, 0)
	if got := dirEntries(t, out); strings.Join(got, " ") != "8puzzle.pdb" {
		t.Errorf("output directory holds %v, want only 8puzzle.pdb", got)
	}
}

// TestManifestCheckReported: build says that the manifest check passed.
func TestManifestCheckReported(t *testing.T) {
	r := pdbgen(t, "", "build", "--preset", "8puzzle", "-o", t.TempDir(), "--manifest", "../../data/MANIFEST.tsv")
	wantCode(t, r, 0)
	if !strings.Contains(r.stderr, "manifest check passed: all 1 table(s) match ../../data/MANIFEST.tsv\n") {
		t.Errorf("no line saying the manifest check passed:\n%v", r)
	}
}

// TestCancelledContext: a command whose context ends (what SIGINT does in
// main) stops, says "interrupted" and exits 130, in-process.
func TestCancelledContext(t *testing.T) {
	p8 := fixture(t, fx8)
	pr, pw := io.Pipe() // stdin that never ends: an idle terminal
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	e := &env{stdin: pr, stdout: &out, stderr: &errb, ctx: ctx}
	done := make(chan int, 1)
	go func() { done <- run(e, []string{"solve", "-j", "1", p8}) }()
	if _, err := pw.Write([]byte(twoMoves8 + "\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case code := <-done:
		r := result{code: code, stdout: out.String(), stderr: errb.String()}
		wantCode(t, r, 130)
		if r.stderr != "pdbgen solve: interrupted\n" {
			t.Errorf("stderr:\n%v", r)
		}
		if !strings.HasPrefix(r.stdout, twoMoves8+" : length 2 moves rr") {
			t.Errorf("the answer found before the interrupt is missing:\n%v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("solve still waiting for input 10 s after the context ended")
	}
}
