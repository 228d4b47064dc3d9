package format

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkLookup compares the two in-memory forms of a format 2 table
// (issue 13): "bytes" is the decoded table, one byte per entry (what
// Table.Values holds: E bytes); "nibbles" keeps the 4-bit codes (E/2
// bytes) and adds the Manhattan distance of the pattern tiles at lookup.
// Both rank the same random states; run with
//
//	go test ./format -run '^$' -bench Lookup -count 6 | benchstat -
func BenchmarkLookup(b *testing.B) {
	p := mkPattern(b, 4, 4, "blank-last", 1, 5, 6, 9, 10, 13)
	tb := mkTable(b, p, 0, 1)
	m := newManhattan(p)
	man := make([]uint8, len(tb.Values))
	var scratch []uint8
	m.fill(0, man, &scratch)
	nib := make([]uint8, encodedLen(EncodingHalf4, uint64(len(tb.Values))))
	if err := encodeCodes(m, EncodingHalf4, 0, tb.Values, man, nib, &scratch); err != nil {
		b.Fatal(err)
	}
	// dist[t][c]: taxicab distance of tile t in cell c from its goal cell.
	var dist [16][16]uint8
	goal := p.GoalPositions()
	for _, t := range p.Tiles {
		for c := range 16 {
			dist[t][c] = uint8(p.Geom.Manhattan(c, int(goal[t])))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	states := make([][]uint8, 4096)
	for i := range states {
		perm := rng.Perm(16)
		pos := make([]uint8, 16)
		for t, c := range perm {
			pos[t] = uint8(c)
		}
		states[i] = pos
	}
	// Cross-check the two forms before timing them.
	for _, pos := range states {
		r := p.Rank(pos)
		var md uint8
		for _, t := range p.Tiles {
			md += dist[t][pos[t]]
		}
		if got := nib[r>>1]>>(4*(r&1))&15*2 + md; got != tb.Values[r] {
			b.Fatalf("rank %d: compact form gives %d, want %d", r, got, tb.Values[r])
		}
	}
	var sink int
	b.Run("bytes", func(b *testing.B) {
		b.ReportMetric(float64(len(tb.Values)), "table-bytes")
		i := 0
		for b.Loop() {
			sink += int(tb.Values[p.Rank(states[i&4095])])
			i++
		}
	})
	b.Run("nibbles", func(b *testing.B) {
		b.ReportMetric(float64(len(nib)), "table-bytes")
		i := 0
		for b.Loop() {
			pos := states[i&4095]
			r := p.Rank(pos)
			var md uint8
			for _, t := range p.Tiles {
				md += dist[t][pos[t]]
			}
			sink += int(nib[r>>1]>>(4*(r&1))&15*2 + md)
			i++
		}
	})
	_ = sink
}
