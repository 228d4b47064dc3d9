package format

import (
	"flag"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"math/rand/v2"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

var measureLookup = flag.Bool("measure-lookup", false, "run TestMeasureLookup")

// BenchmarkLookup compares the two in-memory forms of a format 2 table
// (issue 13): "bytes" is the decoded table, one byte per entry (what
// Table.Values holds: E bytes); "nibbles" keeps the 4-bit codes (E/2
// bytes) and adds the Manhattan distance of the pattern tiles at lookup.
// Both rank the same random states; run with
//
//	go test ./format -run '^$' -bench Lookup -count 6 | benchstat -
//
// lookupSetup builds the 4x4 table of tiles 1,5,6,9,10,13 (5,765,760
// entries) in both in-memory forms and 4096 random states, and checks
// that both forms agree on them.
func lookupSetup(tb testing.TB) (p *puzzle.Pattern, values, nib []uint8, dist *[16][16]uint8, states [][]uint8) {
	p = pdbtest.Pattern(tb, 4, 4, "blank-last", 1, 5, 6, 9, 10, 13)
	t := mkTable(tb, p, 0, 1)
	m := newManhattan(p)
	man := make([]uint8, len(t.Values))
	var scratch []uint8
	m.fill(0, man, &scratch)
	nib = make([]uint8, encodedLen(EncodingHalf4, uint64(len(t.Values))))
	if err := encodeCodes(m, EncodingHalf4, 0, t.Values, man, nib, &scratch); err != nil {
		tb.Fatal(err)
	}
	// dist[t][c]: taxicab distance of tile t in cell c from its goal cell.
	dist = new([16][16]uint8)
	goal := p.GoalPositions()
	for _, t := range p.Tiles {
		for c := range 16 {
			dist[t][c] = uint8(p.Geom.Manhattan(c, int(goal[t])))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	states = make([][]uint8, 4096)
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
		if got := nib[r>>1]>>(4*(r&1))&15*2 + md; got != t.Values[r] {
			tb.Fatalf("rank %d: compact form gives %d, want %d", r, got, t.Values[r])
		}
	}
	return p, t.Values, nib, dist, states
}

func BenchmarkLookup(b *testing.B) {
	p, values, nib, dist, states := lookupSetup(b)
	var sink int
	b.Run("bytes", func(b *testing.B) {
		b.ReportMetric(float64(len(values)), "table-bytes")
		i := 0
		for b.Loop() {
			sink += int(values[p.Rank(states[i&4095])])
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

// TestMeasureLookup is BenchmarkLookup timed in CPU time (user+sys), which
// a loaded machine distorts less than wall time: 5 alternating rounds of
// 2^23 lookups per form.
//
//	go test ./format -run TestMeasureLookup -v -measure-lookup
func TestMeasureLookup(t *testing.T) {
	if !*measureLookup {
		t.Skip("no -measure-lookup")
	}
	p, values, nib, dist, states := lookupSetup(t)
	const n = 1 << 23
	sink := 0
	for round := range 5 {
		c0 := cpuTime()
		for i := range n {
			sink += int(values[p.Rank(states[i&4095])])
		}
		c1 := cpuTime()
		for i := range n {
			pos := states[i&4095]
			r := p.Rank(pos)
			var md uint8
			for _, tile := range p.Tiles {
				md += dist[tile][pos[tile]]
			}
			sink += int(nib[r>>1]>>(4*(r&1))&15*2 + md)
		}
		c2 := cpuTime()
		t.Logf("round %d: bytes %.1f ns/lookup (%d bytes), nibbles %.1f ns/lookup (%d bytes)", round,
			float64(c1-c0)/n, len(values), float64(c2-c1)/n, len(nib))
	}
	_ = sink
}
