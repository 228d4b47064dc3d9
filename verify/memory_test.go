package verify

import (
	"bytes"
	"math"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
)

func TestMemoryNeed(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
		goal string
		tile []uint8
		ref  uint64 // Reference's share per entry
	}{
		{"exact", 3, 3, "blank-last", nil, 6},
		{"additive", 4, 4, "blank-last", []uint8{1, 2, 3}, 4 * 16},
	} {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tile...)
		tb := goodTable(t, p)
		var buf bytes.Buffer
		if err := tb.Encode(&buf, 1); err != nil {
			t.Fatal(err)
		}
		h, err := format.ReadHeader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		fast := MemoryNeed(h, Options{})
		walk := uint64(0)
		if !p.Exact {
			walk = walkBytes(p.Geom.N(), p.K())
			if walk == 0 {
				t.Errorf("%s: no memory for the walk's tables", c.name)
			}
		}
		if fast != h.DecodeMemory()+walk || fast < p.Size() {
			t.Errorf("%s: MemoryNeed = %d, DecodeMemory %d + walk %d, entries %d", c.name, fast, h.DecodeMemory(), walk, p.Size())
		}
		if deep := MemoryNeed(h, Options{Deep: true}); deep != fast+c.ref*p.Size() {
			t.Errorf("%s: deep MemoryNeed = %d, want %d + %d×%d", c.name, deep, fast, c.ref, p.Size())
		}
	}
	absurd := &format.Header{Width: 5, Height: 5, Kind: format.KindAdditive, Entries: math.MaxUint64 / 8}
	if got := MemoryNeed(absurd, Options{Deep: true}); got != math.MaxUint64 {
		t.Errorf("absurd header: %d, want saturation", got)
	}
}
