package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// TestHeaderMemory16MiB (issue 22 item 6): reading a legal header of
// almost MaxHeaderLen bytes costs the header itself and the values it
// fills in, not the copies a json.Decoder buffers (before: 74 to 141 MB).
// The bound is 66 MB of heap allocated in all (TotalAlloc, garbage
// included) for the whole ReadHeader and for the whole Decode.
func TestHeaderMemory16MiB(t *testing.T) {
	g := puzzle.Geometry{W: 3, H: 3}
	goal, err := puzzle.ParseGoal(puzzle.GoalBlankLast, g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := puzzle.NewPattern(g, goal, []uint8{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	good := encode(t, mkTable(t, p, 0, 1), 1)
	js, _ := split(t, good)
	room := MaxHeaderLen - len(js) - 64
	for _, tc := range []struct {
		name string
		js   string
	}{
		// An unknown key is ignored whatever its size.
		{"unknown key", `{"comment":"` + strings.Repeat("x", room) + `",` + string(js[1:])},
		// A 16 MiB generator string is kept.
		{"generator", strings.Replace(string(js), `"generator":"`, `"generator":"`+strings.Repeat("y", room), 1)},
		// An unknown key holding a deep array of small numbers.
		{"unknown array", `{"comment":[` + strings.Repeat("1,", room/2) + `1],` + string(js[1:])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := withRawHeader(t, good, tc.js)
			if n := len(tc.js); n > MaxHeaderLen || n < MaxHeaderLen-1<<10 {
				t.Fatalf("header of %d bytes, want just under %d", n, MaxHeaderLen)
			}
			const limit = 66_000_000 // bytes (66 MB)
			var h *Header
			var err error
			alloc := heapDelta(func() { h, err = ReadHeader(bytes.NewReader(file), int64(len(file))) })
			if err != nil {
				t.Fatal(err)
			}
			if h.Entries != p.Size() {
				t.Errorf("entries %d, want %d", h.Entries, p.Size())
			}
			t.Logf("ReadHeader of a %d-byte header allocated %.1f MB", len(tc.js), float64(alloc)/1e6)
			if alloc > limit {
				t.Errorf("ReadHeader of a %d-byte header allocated %d bytes, want at most %d", len(tc.js), alloc, limit)
			}
			alloc = heapDelta(func() { _, err = Decode(bytes.NewReader(file), int64(len(file))) })
			if err != nil {
				t.Fatal(err)
			}
			if alloc > limit {
				t.Errorf("Decode with a %d-byte header allocated %d bytes, want at most %d", len(tc.js), alloc, limit)
			}
		})
	}
}
