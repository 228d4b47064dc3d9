package format

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// baseFile is a valid 4x4 table of 3360 entries in 4 frames of 1024
// entries, in format version major.
func baseFile(t testing.TB, major uint16) (*Table, []byte) {
	t.Helper()
	tb := mkTable(t, pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3), 1024, 1)
	tb.Header.Major = major
	return tb, encode(t, tb, 2)
}

// bigCount returns the index of the largest histogram count (at least 2 in
// the test tables) and another index, for moving one count between them.
func bigCount(h *Header) (big, other int) {
	for v, c := range h.Histogram {
		if c > h.Histogram[big] {
			big = v
		}
	}
	if big == 0 {
		return 0, 1
	}
	return big, 0
}

// fixPayloadSHA gives a format 2 file with a valid header checksum the
// payload_sha256 of its payload, so that tests of payload corruption reach
// the checks behind it. Other files are returned unchanged.
func fixPayloadSHA(file []byte) []byte {
	if len(file) < prefixLen || binary.LittleEndian.Uint16(file[offMajor:]) != MajorVersion {
		return file
	}
	n := int(binary.LittleEndian.Uint32(file[offHeaderLen:]))
	end := prefixLen + n + checksumLen
	if n > len(file) || end > len(file) {
		return file
	}
	if sum := sha256.Sum256(file[:prefixLen+n]); !bytes.Equal(sum[:], file[prefixLen+n:end]) {
		return file
	}
	h, err := parseHeader(file[prefixLen:prefixLen+n], MajorVersion)
	if err != nil {
		return file
	}
	sum := sha256.Sum256(file[end:])
	h.PayloadSHA256 = hex.EncodeToString(sum[:])
	js, err := json.Marshal(h)
	if err != nil {
		return file
	}
	return append(assemble(MajorVersion, binary.LittleEndian.Uint16(file[offMinor:]), js), file[end:]...)
}

func flip(b []byte, off int, bit uint) []byte {
	c := bytes.Clone(b)
	c[off] ^= 1 << bit
	return c
}

func TestBrokenFiles(t *testing.T) {
	for _, major := range []uint16{MajorVersion1, MajorVersion} {
		t.Run(fmt.Sprintf("v%d", major), func(t *testing.T) { testBrokenFiles(t, major) })
	}
}

func testBrokenFiles(t *testing.T, major uint16) {
	tb, good := baseFile(t, major)
	js, payload := split(t, good)
	n := len(js)
	payOff := prefixLen + n + checksumLen
	fr := tb.Header.Frames
	frameOff := func(i int) int {
		o := payOff
		for _, c := range fr[:i] {
			o += int(c)
		}
		return o
	}
	setU32 := func(b []byte, off int, v uint32) []byte {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint32(c[off:], v)
		return c
	}
	setU16 := func(b []byte, off int, v uint16) []byte {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint16(c[off:], v)
		return c
	}
	hdr := func(fn func(h *Header)) []byte { return withHeader(t, good, fn) }
	raw := func(s string) []byte { return withRawHeader(t, good, s) }
	jsonWith := func(old, new string) []byte {
		if !strings.Contains(string(js), old) {
			t.Fatalf("header has no %q", old)
		}
		return raw(strings.Replace(string(js), old, new, 1))
	}

	// Payload of the same table with other values: valid frames, wrong SHA.
	other := mkTable(t, tb.Pattern, 1024, 2)
	other.Header.Major = major
	otherFile := encode(t, other, 1)
	_, otherPayload := split(t, otherFile)
	js2, _ := split(t, hdr(func(h *Header) { h.Frames = other.Header.Frames }))
	swappedPayload := rebuildLike(good, js2, otherPayload)

	// Frames 2 and 3 swapped (3 is the short one): content size mismatch.
	swapped := bytes.Clone(payload[:frameOff(2)-payOff])
	swapped = append(swapped, good[frameOff(3):]...)
	swapped = append(swapped, good[frameOff(2):frameOff(3)]...)
	js3, _ := split(t, hdr(func(h *Header) { h.Frames[2], h.Frames[3] = h.Frames[3], h.Frames[2] }))
	frameSwap := rebuildLike(good, js3, swapped)

	// An empty skippable frame after the last frame, counted in its slot.
	skippable := append(bytes.Clone(good), 0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0)
	skippable = withHeader(t, skippable, func(h *Header) { h.Frames[3] += 8 })

	zeroFrame := bytes.Clone(good)
	clear(zeroFrame[frameOff(1):frameOff(2)])

	isFormat := func(err error) bool { return errors.Is(err, ErrFormat) }
	isChecksum := func(err error) bool { return errors.Is(err, ErrChecksum) }
	isEither := func(err error) bool { return isFormat(err) || isChecksum(err) }
	isUnsupported := func(sub string) func(error) bool {
		return func(err error) bool {
			var ue *UnsupportedError
			return errors.As(err, &ue) && errors.Is(err, errors.ErrUnsupported) && isFormat(err) && strings.Contains(ue.Msg, sub)
		}
	}
	isVersion := func(major uint16) func(error) bool {
		return func(err error) bool {
			var ve *UnsupportedVersionError
			return errors.As(err, &ve) && ve.Major == major && errors.Is(err, errors.ErrUnsupported) && !isFormat(err)
		}
	}
	checksumOf := func(what string) func(error) bool {
		return func(err error) bool {
			var ce *ChecksumError
			return errors.As(err, &ce) && strings.Contains(ce.What, what)
		}
	}
	formatMsg := func(sub string) func(error) bool {
		return func(err error) bool {
			var fe *FormatError
			return errors.As(err, &fe) && strings.Contains(fe.Msg, sub)
		}
	}

	cases := []struct {
		name string
		file []byte
		ok   func(error) bool
	}{
		{"empty", nil, formatMsg("empty")},
		{"one byte", good[:1], formatMsg("")},
		{"inside magic", good[:5], isFormat},
		{"after magic", good[:8], formatMsg("truncated")},
		{"inside version", good[:11], formatMsg("truncated")},
		{"inside length", good[:14], formatMsg("truncated")},
		{"inside header", good[:prefixLen+n/2], formatMsg("truncated")},
		{"inside checksum", good[:prefixLen+n+10], formatMsg("truncated")},
		{"no payload", good[:payOff], formatMsg("truncated")},
		{"inside frame 0", good[:payOff+5], formatMsg("truncated")},
		{"last byte missing", good[:len(good)-1], formatMsg("truncated")},
		{"wrong magic", flip(good, 3, 0), formatMsg("magic")},
		{"text file", []byte("hello, world\n"), formatMsg("magic")},
		{"zstd file", otherPayload, formatMsg("magic")},
		{"major 3", setU16(good, offMajor, 3), isVersion(3)},
		{"major 0", setU16(good, offMajor, 0), isVersion(0)},
		{"major 3 short", setU16(good, offMajor, 3)[:12], isVersion(3)},
		{"other known major", setU16(good, offMajor, 3-major), checksumOf("header")},
		{"json bit flip", flip(good, prefixLen+n/2, 1), checksumOf("header")},
		{"checksum bit flip", flip(good, prefixLen+n+3, 7), checksumOf("header")},
		{"length bit flip", flip(good, offHeaderLen, 0), isEither},
		{"minor bit flip", flip(good, offMinor, 2), checksumOf("header")},
		{"header length 0xFFFFFFFF", setU32(good, offHeaderLen, 0xFFFFFFFF), formatMsg("limit")},
		{"header length 16 MiB", setU32(good, offHeaderLen, MaxHeaderLen), formatMsg("truncated")},
		{"header length 0", setU32(good, offHeaderLen, 0), isEither},
		{"payload frame magic", flip(good, payOff, 0), formatMsg("frame 0")},
		{"payload middle", flip(good, payOff+int(fr[0])/2, 3), isEither},
		{"payload frame 2 middle", flip(good, frameOff(2)+int(fr[2])/2, 5), isEither},
		{"zstd checksum", flip(good, len(good)-1, 0), checksumOf("frame 3")},
		{"frame zeroed", zeroFrame, formatMsg("frame 1")},
		{"frames swapped", frameSwap, formatMsg("content size")},
		{"other payload", swappedPayload, checksumOf("raw_sha256")},
		{"skippable frame in a slot", skippable, formatMsg("exactly one zstd frame")},
		{"trailing garbage", append(bytes.Clone(good), 0), formatMsg("trailing")},
		{"trailing frame", append(bytes.Clone(good), payload[:fr[0]]...), formatMsg("trailing")},
		{"json wrong type", jsonWith(`"width":4`, `"width":"4"`), formatMsg("JSON")},
		{"json float", jsonWith(`"width":4`, `"width":4.5`), formatMsg("fraction")},
		{"json integral float", jsonWith(`"width":4`, `"width":4.0`), formatMsg("fraction")},
		{"json exponent", jsonWith(`"width":4`, `"width":4e0`), formatMsg("fraction")},
		{"json huge number", jsonWith(`"width":4`, `"width":1e300`), formatMsg("fraction")},
		{"json huge integer", jsonWith(`"width":4`, `"width":100000000000000000000`), formatMsg("width")},
		{"json null value", jsonWith(`"width":4`, `"width":null`), formatMsg("null")},
		{"json key case", jsonWith(`"width":4`, `"Width":4`), formatMsg(`required key "width"`)},
		{"json duplicate key", jsonWith(`"width":4`, `"width":4,"width":4`), formatMsg(`duplicate key "width"`)},
		{"json case-variant key ignored", jsonWith(`"width":4`, `"width":4,"WIDTH":5`), nil},
		{"json no generator", jsonWith(`"generator":"tilepdb test",`, ``), formatMsg(`required key "generator"`)},
		{"json BOM", raw("\xef\xbb\xbf" + string(js)), formatMsg("byte-order mark")},
		{"json bad UTF-8", jsonWith(`"tilepdb test"`, "\"tilepdb \xff test\""), formatMsg("UTF-8")},
		{"json negative entries", jsonWith(`"entries":3360`, `"entries":-1`), formatMsg("JSON")},
		{"json null", raw("null"), formatMsg("not a JSON object")},
		{"json array", raw("[1,2]"), formatMsg("not a JSON object")},
		{"json empty", raw(""), formatMsg("not a JSON object")},
		{"json empty object", raw("{}"), formatMsg("required key")},
		{"json syntax", raw(string(js[:len(js)-1])), formatMsg("JSON")},
		{"json trailing", raw(string(js) + "{}"), formatMsg("JSON")},
		{"width 9", hdr(func(h *Header) { h.Width = 9 }), formatMsg("board 9x4")},
		{"height 65", hdr(func(h *Header) { h.Height = 65 }), formatMsg("board 4x65")},
		{"goal short", hdr(func(h *Header) { h.Goal = h.Goal[:15] }), formatMsg("goal has 15 cells")},
		{"goal repeated", hdr(func(h *Header) { h.Goal[0] = 2 }), formatMsg("twice")},
		{"goal out of range", hdr(func(h *Header) { h.Goal[0] = 300 }), formatMsg("out of range")},
		{"goal negative", hdr(func(h *Header) { h.Goal[0] = -1 }), formatMsg("out of range")},
		{"tiles empty", hdr(func(h *Header) { h.Tiles = []int{} }), formatMsg("0 tiles")},
		{"tiles N-2", hdr(func(h *Header) { h.Tiles = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14} }), formatMsg("non-pattern tile")},
		{"tiles blank", hdr(func(h *Header) { h.Tiles = []int{0, 1, 2} }), formatMsg("tile 0 out of range")},
		{"tiles unsorted", hdr(func(h *Header) { h.Tiles = []int{2, 1, 3} }), formatMsg("ascending")},
		{"tiles repeated", hdr(func(h *Header) { h.Tiles = []int{1, 1, 3} }), formatMsg("ascending")},
		{"tiles too many", hdr(func(h *Header) { h.Tiles = make([]int, 40) }), formatMsg("40 tiles")},
		{"tiles more", hdr(func(h *Header) { h.Tiles = []int{1, 2, 3, 4} }), formatMsg("entries 3360, but pattern")},
		{"kind", hdr(func(h *Header) { h.Kind = KindExact }), formatMsg("kind")},
		{"ranking", hdr(func(h *Header) { h.Ranking = "lehmer-half" }), formatMsg("ranking")},
		{"ranking version", hdr(func(h *Header) { h.RankingVersion = 2 }), isUnsupported("ranking_version 2")},
		{"bits per entry", hdr(func(h *Header) { h.BitsPerEntry = 4 }), isUnsupported("bits_per_entry")},
		{"entries", hdr(func(h *Header) { h.Entries = 3361 }), formatMsg("entries 3361")},
		{"absurd entries", hdr(func(h *Header) { h.Entries = 1 << 62 }), formatMsg("entries")},
		{"absurd pattern", hdr(func(h *Header) {
			h.Width, h.Height, h.Goal, h.Tiles = 5, 5, nil, []int{1, 2, 3, 4, 5, 6, 7}
			for i := 1; i < 25; i++ {
				h.Goal = append(h.Goal, i)
			}
			h.Goal = append(h.Goal, 0)
			h.Entries = 2422728000
			h.MaxValue, h.Histogram = 0, []uint64{2422728000}
		}), formatMsg("frames")},
		{"absurd pattern, right frame count", hdr(func(h *Header) {
			h.Width, h.Height, h.Goal, h.Tiles = 5, 5, nil, []int{1, 2, 3, 4, 5, 6, 7}
			for i := 1; i < 25; i++ {
				h.Goal = append(h.Goal, i)
			}
			h.Goal = append(h.Goal, 0)
			h.Entries = 2422728000
			h.MaxValue, h.Histogram = 0, []uint64{2422728000}
			h.FrameSize = MaxFrameSize
			h.Frames = make([]int64, 37)
			for i := range h.Frames {
				h.Frames[i] = 1000
			}
		}), formatMsg("too small")},
		{"goal_name", hdr(func(h *Header) { h.GoalName = "blank-first" }), formatMsg("goal_name")},
		{"max_value too big", hdr(func(h *Header) { h.MaxValue = 255 }), formatMsg("max_value 255")},
		{"max_value wrong", hdr(func(h *Header) { h.MaxValue--; h.Histogram = h.Histogram[:len(h.Histogram)-1] }), formatMsg("histogram sums")},
		{"histogram short", hdr(func(h *Header) { h.Histogram = h.Histogram[:3] }), formatMsg("histogram has 3")},
		{"histogram sum", hdr(func(h *Header) { h.Histogram[0]++ }), formatMsg("histogram sums")},
		{"histogram overflow", hdr(func(h *Header) { h.Histogram[0] = 1<<64 - 1 }), formatMsg("histogram counts overflow 64 bits")},
		{"histogram mismatch", hdr(func(h *Header) { big, o := bigCount(h); h.Histogram[o]++; h.Histogram[big]-- }), formatMsg("histogram does not match")},
		{"max not attained", hdr(func(h *Header) {
			h.Histogram[0] += h.Histogram[h.MaxValue]
			h.Histogram[h.MaxValue] = 0
		}), formatMsg("not attained")},
		{"max and histogram lie", hdr(func(h *Header) {
			big, _ := bigCount(h)
			h.Histogram[big]--
			h.Histogram = append(h.Histogram, 1)
			h.MaxValue++
		}), formatMsg("max_value")},
		{"sha uppercase", hdr(func(h *Header) { h.RawSHA256 = strings.ToUpper(h.RawSHA256) }), formatMsg("raw_sha256")},
		{"sha wrong", hdr(func(h *Header) { h.RawSHA256 = strings.Repeat("0", 64) }), checksumOf("raw_sha256")},
		{"frame_size 0", hdr(func(h *Header) { h.FrameSize = 0 }), formatMsg("frame_size 0")},
		{"frame_size negative", hdr(func(h *Header) { h.FrameSize = -1024 }), formatMsg("frame_size")},
		{"frame_size huge", hdr(func(h *Header) { h.FrameSize = math.MaxInt32 }), formatMsg("frame_size")},
		{"frame_size other", hdr(func(h *Header) { h.FrameSize = 2048 }), formatMsg("frames listed")},
		{"frames missing", hdr(func(h *Header) { h.Frames = h.Frames[:3] }), formatMsg("frames listed")},
		{"frames extra", hdr(func(h *Header) { h.Frames = append(h.Frames, 1) }), formatMsg("frames listed")},
		{"frame negative", hdr(func(h *Header) { h.Frames[0] = -h.Frames[0] }), formatMsg("too small")},
		{"frame zero", hdr(func(h *Header) { h.Frames[3] = 0 }), formatMsg("too small")},
		{"frames overflow", hdr(func(h *Header) { h.Frames[0], h.Frames[1] = 1<<62, 1<<62 }), formatMsg("overflow")},
		{"frame boundaries moved", hdr(func(h *Header) { h.Frames[0]++; h.Frames[1]-- }), isEither},
		{"frames short of file", hdr(func(h *Header) { h.Frames[3]-- }), formatMsg("trailing")},
		{"frames beyond file", hdr(func(h *Header) { h.Frames[3]++ }), formatMsg("truncated")},
	}
	if major == MajorVersion {
		// Format 2: the payload SHA-256 catches any change of the
		// payload; the cases above get a matching payload_sha256 so that
		// the checks behind it are reached.
		for i := range cases {
			cases[i].file = fixPayloadSHA(cases[i].file)
		}
		enc := func(e string) []byte { return hdr(func(h *Header) { h.Encoding = e }) }
		cases = append(cases, []struct {
			name string
			file []byte
			ok   func(error) bool
		}{
			{"payload_sha256 wrong", flip(good, payOff+int(fr[0])/2, 3), checksumOf("payload_sha256")},
			{"payload_sha256 syntax", hdr(func(h *Header) { h.PayloadSHA256 = "x" }), formatMsg("payload_sha256")},
			{"payload_sha256 missing", hdr(func(h *Header) { h.PayloadSHA256 = "" }), formatMsg(`required key "payload_sha256"`)},
			{"encoding missing", enc(""), formatMsg(`required key "encoding"`)},
			{"encoding unknown", enc("manhattan-half-2bit"), isUnsupported("encoding")},
			{"encoding 8bit", fixPayloadSHA(enc(EncodingHalf8)), formatMsg("frame 0")},
			{"frame_size odd", fixPayloadSHA(hdr(func(h *Header) { h.FrameSize = 1025 })), formatMsg("odd")},
		}...)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.ok == nil { // accepted
				if _, err := Decode(bytes.NewReader(c.file), int64(len(c.file))); err != nil {
					t.Fatal(err)
				}
				return
			}
			alloc := heapDelta(func() { _, err = Decode(bytes.NewReader(c.file), int64(len(c.file))) })
			if err == nil {
				t.Fatal("Decode accepted the file")
			}
			if !c.ok(err) {
				t.Errorf("Decode error %T %q not the expected kind", err, err)
			}
			if alloc > 32<<20 {
				t.Errorf("Decode allocated %d bytes", alloc)
			}
			// The other readers must not panic either, and must fail when
			// Decode fails before the payload.
			_, herr := ReadHeader(bytes.NewReader(c.file), int64(len(c.file)))
			_, _, ierr := inspect(bytes.NewReader(c.file), int64(len(c.file)))
			if herr == nil && ierr != nil {
				t.Errorf("header is fine but inspect failed: %v", ierr)
			}
			t.Logf("%v", err)
		})
	}
}

func TestInspect(t *testing.T) {
	for _, major := range []uint16{MajorVersion1, MajorVersion} {
		t.Run(fmt.Sprintf("v%d", major), func(t *testing.T) { testInspect(t, major) })
	}
}

func testInspect(t *testing.T, major uint16) {
	tb, good := baseFile(t, major)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	got, findings, err := Inspect(write("good.pdb", good))
	if err != nil || len(findings) != 0 || !bytes.Equal(got.Values, tb.Values) {
		t.Fatalf("good file: %v %v", findings, err)
	}

	// A bit flip inside the generator string: the JSON still parses.
	js, _ := split(t, good)
	i := bytes.Index(good, []byte("tilepdb test"))
	got, findings, err = Inspect(write("genflip.pdb", flip(good, i, 1)))
	if err != nil || len(findings) != 1 || !errors.Is(findings[0], ErrChecksum) || !bytes.Equal(got.Values, tb.Values) {
		t.Errorf("generator flip: findings %v, err %v", findings, err)
	}
	if _, err := ReadFile(write("genflip2.pdb", flip(good, i, 1))); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "genflip2.pdb") {
		t.Errorf("ReadFile: %v", err)
	}

	// Several lies at once are all reported.
	bad := withHeader(t, good, func(h *Header) {
		h.RawSHA256 = strings.Repeat("ab", 32)
		big, o := bigCount(h)
		h.Histogram[o]++
		h.Histogram[big]--
		h.GoalName = "custom"
	})
	got, findings, err = Inspect(write("lies.pdb", bad))
	if err != nil || len(findings) != 3 {
		t.Errorf("lies: findings %v, err %v", findings, err)
	}
	if got == nil || !bytes.Equal(got.Values, tb.Values) {
		t.Error("lies: table not returned")
	}

	// A corrupt frame: reported as an *UndecodedFrameError, its entries set
	// to puzzle.Unreached, and no recount of those placeholders (raw
	// SHA-256, reserved values, histogram) is reported (issue 22).
	n := len(js)
	payOff := prefixLen + n + checksumLen
	corrupt := flip(good, payOff+int(tb.Header.Frames[0])+int(tb.Header.Frames[1])-1, 0) // frame 1's checksum
	got, findings, err = Inspect(write("frame.pdb", corrupt))
	if err != nil || got == nil {
		t.Fatalf("corrupt frame: %v", err)
	}
	first := 0
	if major == MajorVersion { // the payload SHA-256 comes first
		first = 1
		if len(findings) == 0 || !strings.Contains(findings[0].Error(), "payload_sha256") {
			t.Errorf("corrupt frame findings: %v", findings)
		}
	}
	var fe *UndecodedFrameError
	if len(findings) != first+1 || !strings.Contains(findings[first].Error(), "frame 1") || !errors.As(findings[first], &fe) || fe.Frame != 1 {
		t.Errorf("corrupt frame findings: %v", findings)
	}
	for r := range got.Values {
		want := tb.Values[r]
		if r >= 1024 && r < 2048 {
			want = puzzle.Unreached
		}
		if got.Values[r] != want {
			t.Fatalf("rank %d: %d, want %d", r, got.Values[r], want)
		}
	}

	// Fatal problems.
	for name, b := range map[string][]byte{
		"truncated":   good[:len(good)-3],
		"magic":       flip(good, 0, 0),
		"version":     append([]byte(magic+"\x05\x00"), good[10:]...),
		"json":        flip(good, prefixLen, 0), // '{' becomes 'z'
		"nonexistent": nil,
	} {
		path := filepath.Join(dir, "missing.pdb")
		if b != nil {
			path = write(name+".pdb", b)
		}
		if got, _, err := Inspect(path); err == nil || got != nil {
			t.Errorf("%s: Inspect = %v, %v", name, got != nil, err)
		} else if !strings.Contains(err.Error(), filepath.Base(path)) {
			t.Errorf("%s: error does not name the file: %v", name, err)
		}
	}
}

func TestReadHeaderFile(t *testing.T) {
	tb, good := baseFile(t, MajorVersion)
	path := filepath.Join(t.TempDir(), "t.pdb")
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := ReadHeaderFile(path)
	if err != nil || h.Entries != tb.Header.Entries || h.RawSHA256 != tb.Header.RawSHA256 {
		t.Fatalf("ReadHeaderFile: %+v %v", h, err)
	}
	// ReadHeader does not look at the payload beyond its length.
	if err := os.WriteFile(path, flip(good, len(good)-100, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadHeaderFile(path); err != nil {
		t.Errorf("payload corruption seen by ReadHeaderFile: %v", err)
	}
	if _, err := ReadFile(path); err == nil {
		t.Error("ReadFile accepted a corrupt payload")
	}
	if _, err := ReadHeaderFile(t.TempDir()); err == nil {
		t.Error("directory accepted")
	}
}
