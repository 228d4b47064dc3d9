package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/tilepdb/tilepdb/format"
)

// validFramesTable writes into dir a small file declaring a 5x5 additive
// table of tiles 1..k (25!/(25-k)! entries) whose zstd frames are valid,
// checksums included, each holding zeros: only the raw SHA-256 and the
// histogram, checked after the last frame, are wrong. A frame-by-frame
// scan of it reads every declared entry (k = 8: 40.6 GiB, about an hour);
// major is the file version (1: one byte per entry, 2: half4 codes), of
// frames of frameSize entries.
func validFramesTable(t *testing.T, dir string, k int, major uint16, frameSize int) string {
	t.Helper()
	entries := uint64(1)
	for i := range k {
		entries *= uint64(25 - i)
	}
	h := format.Header{
		Width: 5, Height: 5, GoalName: "blank-last", Kind: format.KindAdditive,
		Ranking: "cellset-order", RankingVersion: 1,
		Entries: entries, BitsPerEntry: 8, MaxValue: 0, Histogram: []uint64{entries},
		RawSHA256: strings.Repeat("0", 64), Generator: "hostile test", FrameSize: frameSize,
	}
	for i := 1; i <= k; i++ {
		h.Tiles = append(h.Tiles, i)
	}
	for i := 1; i < 25; i++ {
		h.Goal = append(h.Goal, i)
	}
	h.Goal = append(h.Goal, 0)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithSingleSegment(true), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var payload []byte
	frames := map[uint64][]byte{} // by stored size: all frames but the last are alike
	for lo := uint64(0); lo < entries; lo += uint64(frameSize) {
		stored := min(entries-lo, uint64(frameSize))
		if major == format.MajorVersion {
			stored = stored/2 + stored%2
		}
		f, ok := frames[stored]
		if !ok {
			f = enc.EncodeAll(make([]byte, stored), nil)
			frames[stored] = f
		}
		payload = append(payload, f...)
		h.Frames = append(h.Frames, int64(len(f)))
	}
	if major == format.MajorVersion {
		h.Encoding = format.EncodingHalf4
		sum := sha256.Sum256(payload)
		h.PayloadSHA256 = hex.EncodeToString(sum[:])
	}
	return writeHandMade(t, filepath.Join(dir, "huge-"+strconv.Itoa(k)+"-v"+strconv.Itoa(int(major))+".pdb"), major, &h, payload)
}

// TestVerifyTooLargeRefusedAtOnce: verify refuses at once, exit 2, a table
// that does not fit its memory budget, naming --frames and what it would
// take, instead of scanning it frame by frame without a word (before the
// fix: no answer after minutes on a 1.4 MB file declaring 40.6 GiB, of
// format 1 or 2, and with --max-memory 1G on one declaring 2.26 GiB: the
// scan reads every declared entry, about 17 M entries/s on two cores).
// --frames then scans it, saying so at once with a line of progress per
// interval on a stderr that is not a terminal.
func TestVerifyTooLargeRefusedAtOnce(t *testing.T) {
	if strconv.IntSize == 32 {
		t.Skip("a 32-bit build refuses these patterns itself (more than an int can index)")
	}
	dir := t.TempDir()
	const fs = format.MaxFrameSize
	huge1, huge2 := validFramesTable(t, dir, 8, format.MajorVersion1, fs), validFramesTable(t, dir, 8, format.MajorVersion, fs)
	mid := validFramesTable(t, dir, 7, format.MajorVersion1, fs)
	const hint = "; --frames checks its 43609104000 entries frame by frame in "
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "--max-memory", "1G", huge1}, huge1 + " needs 41.2 GiB of memory, more than --max-memory 1.0 GiB" + hint},
		{[]string{"verify", "--max-memory", "1G", huge2}, huge2 + " needs 41.2 GiB of memory, more than --max-memory 1.0 GiB" + hint},
		{[]string{"verify", "--max-memory", "1G", "--json", mid}, mid + " needs 2.7 GiB of memory, more than --max-memory 1.0 GiB; --frames checks its 2422728000 entries frame by frame in "},
		{[]string{"verify", "--max-memory", "1G", "--deep", huge1}, "TiB of memory, more than --max-memory 1.0 GiB with --deep"},
		// With too little memory for the frames, --frames refuses too.
		{[]string{"verify", "--max-memory", "100M", "--frames", "-j", "2", mid}, mid + " needs 2.7 GiB of memory, more than --max-memory 100.0 MiB"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		start := time.Now()
		r := pdbgenCtx(t, ctx, c.args...)
		cancel()
		wantCode(t, r, exitTrouble)
		if !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, "1 of 1 file(s) could not be checked") {
			t.Errorf("%v: stderr does not say %q\n%v", c.args, c.want, r)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%v took %v", c.args, d)
		}
	}
	// --frames scans, with a line at once and progress lines (here after
	// every frame of 2^16 entries); the test stops it after the first frames.
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 0
	small := validFramesTable(t, t.TempDir(), 6, format.MajorVersion1, 1<<16)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	r := pdbgenCtx(t, ctx, "verify", "--frames", "-j", "2", "--max-memory", "1G", small)
	wantCode(t, r, 130)
	ls := lines(r.stderr)
	if len(ls) < 3 || ls[0] != "verifying "+small+" frame by frame: 127512000 entries in 1946 frames" ||
		!strings.HasPrefix(ls[1], "verifying "+small+" frame by frame: 0.1% (65536 of 127512000 entries, ") || !strings.Contains(ls[1], " M entries/s, about ") {
		t.Errorf("--frames progress:\n%v", r)
	}
}

// pdbgenCtx is pdbgen with ctx as the command's context (its end is an
// interruption: exit 130).
func pdbgenCtx(t *testing.T, ctx context.Context, args ...string) result {
	t.Helper()
	var out, errb strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, ctx: ctx}
	code := run(e, args)
	res := result{code: code, stdout: out.String(), stderr: errb.String()}
	noStackTrace(t, args, res)
	return res
}

// TestVerifyProgressLines: a verification in memory that takes longer
// than the interval prints lines of progress naming the pass on a stderr
// that is not a terminal (here the interval is 0: after every chunk of
// entries but the last of each pass), and the report is the same.
func TestVerifyProgressLines(t *testing.T) {
	dir := t.TempDir()
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--board", "4x4", "--tiles", "1-5", "--preset", "", "-o", dir), 0)
	table := filepath.Join(dir, "4x4_1-2-3-4-5.pdb")
	quiet := pdbgen(t, "", "verify", "-j", "2", table)
	wantCode(t, quiet, 0)
	if quiet.stderr != "" {
		t.Errorf("a quick verify printed on stderr:\n%v", quiet)
	}
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 0
	r := pdbgen(t, "", "verify", "-j", "2", table)
	wantCode(t, r, 0)
	ls := lines(r.stderr)
	passes := map[string]bool{}
	for _, l := range ls {
		rest, ok := strings.CutPrefix(l, "verifying "+table+", ")
		pass, share, ok2 := strings.Cut(rest, " pass: ")
		if !ok || !ok2 || !strings.Contains(share, " of 524160 entries, ") || !strings.Contains(share, " M entries/s, about ") {
			t.Fatalf("progress line %q\n%v", l, r)
		}
		passes[pass] = true
	}
	if !passes["ranking"] || !passes["goal"] || len(passes) != 2 { // no symmetry fixes tiles 1-5
		t.Errorf("passes %v, want ranking and goal\n%v", passes, r)
	}
	// The report itself does not depend on the lines, but its elapsed times do.
	if strings.Count(r.stdout, "\n") != strings.Count(quiet.stdout, "\n") {
		t.Errorf("report with progress lines:\n%s\nwithout:\n%s", r.stdout, quiet.stdout)
	}
}

// hugeSetFile writes into dir a set file of one identity part through the
// table file table, a 5x5 additive table of tiles 1..k with a raw SHA-256
// of zeros (validFramesTable), and returns its path.
func hugeSetFile(t *testing.T, dir, table string, k int) string {
	t.Helper()
	tiles := make([]string, k)
	for i := range tiles {
		tiles[i] = strconv.Itoa(i + 1)
	}
	ts := "[" + strings.Join(tiles, ",") + "]"
	goal := make([]string, 25)
	for i := range 24 {
		goal[i] = strconv.Itoa(i + 1)
	}
	goal[24] = "0"
	set := `{"tilepdb_set":1,"width":5,"height":5,"goal":[` + strings.Join(goal, ",") + `],"parts":[` +
		`{"tiles":` + ts + `,"table":"` + filepath.Base(table) + `","table_tiles":` + ts +
		`,"symmetry":"identity","tile_map":` + ts + `,"table_raw_sha256":"` + strings.Repeat("0", 64) + `"}]}` + "\n"
	path := filepath.Join(dir, "huge-"+strconv.Itoa(k)+".set.json")
	if err := os.WriteFile(path, []byte(set), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestVerifySetTooLargeRefusedAtOnce: verify refuses at once, exit 2, a
// set file whose tables together do not fit the memory budget, as it
// refuses a table (before the fix: the set's tables were loaded whole
// whatever their size: the 122 MiB table here under --max-memory 64M, and
// a 1.4 MB file declaring 40.6 GiB the same way). --json says so in the
// set's report.
func TestVerifySetTooLargeRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	mid := hugeSetFile(t, dir, validFramesTable(t, dir, 6, format.MajorVersion1, format.MaxFrameSize), 6)
	const hint = " to load its tables; pdbgen info "
	// The figures depend on GOMAXPROCS (a frame buffer per decoder).
	for i, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "--max-memory", "64M", mid}, "MiB of memory, more than --max-memory 64.0 MiB" + hint + mid},
		{[]string{"verify", "--max-memory", "64M", "--json", mid}, "MiB of memory, more than --max-memory 64.0 MiB" + hint + mid},
		{[]string{"verify", "--max-memory", "1G", "@huge"}, "GiB of memory, more than --max-memory 1.0 GiB" + hint},
	} {
		if c.args[len(c.args)-1] == "@huge" {
			if strconv.IntSize == 32 {
				continue // a 32-bit build refuses the 43.6 G-entry pattern itself
			}
			// Only once the smaller set is refused: unrefused, this one
			// would allocate 40.6 GiB.
			c.args[len(c.args)-1] = hugeSetFile(t, dir, validFramesTable(t, dir, 8, format.MajorVersion, format.MaxFrameSize), 8)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		start := time.Now()
		r := pdbgenCtx(t, ctx, c.args...)
		cancel()
		if r.code != exitTrouble || !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, "1 of 1 file(s) could not be checked") {
			t.Fatalf("%v: want exit 2 and stderr saying %q\n%v", c.args, c.want, r)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%v took %v", c.args, d)
		}
		if i == 1 && !strings.Contains(r.stdout, `"set":true,"ok":false,"error":"`+mid+` needs `) {
			t.Errorf("%v: stdout is not the set's report with the refusal\n%v", c.args, r)
		}
	}
}

// TestBuildIfNeededHugeExisting: build --if-needed refuses at once, exit 2,
// to verify a file already there that declares a table too large for the
// memory, whether its header reads strictly or only leniently (a broken
// header checksum), reading each file's header once before refusing.
func TestBuildIfNeededHugeExisting(t *testing.T) {
	if strconv.IntSize == 32 {
		t.Skip("a 32-bit build refuses the 43.6 G-entry pattern itself")
	}
	for _, broken := range []bool{false, true} {
		dir := t.TempDir()
		target := filepath.Join(dir, "5x5_1-2-3-4-5-6-7-8.pdb")
		if err := os.Rename(hugeDeclaredTable(t, dir), target); err != nil {
			t.Fatal(err)
		}
		if broken {
			b := readBytes(t, target)
			n := int(binary.LittleEndian.Uint32(b[12:16]))
			b[16+n+3] ^= 0x10 // a byte of the header SHA-256
			if err := os.WriteFile(target, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r := pdbgen(t, "", "build", "--if-needed", "--quiet", "--board", "5x5", "--tiles", "1-8", "-o", dir, "--max-memory", "1G")
		wantCode(t, r, exitTrouble)
		oneErrorLine(t, r, "build", target+" needs 41.2 GiB of memory, more than --max-memory 1.0 GiB")
	}
}
