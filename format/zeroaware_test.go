package format

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// builtZeroAware builds the real zero-aware table of p.
func builtZeroAware(t testing.TB, p *puzzle.Pattern) *Table {
	t.Helper()
	values, err := builder.BuildZeroAware(context.Background(), p, builder.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	r, err := puzzle.NewRegions(p)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := NewZeroAwareTable(r, values, "tilepdb test")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// zaBoard returns a solvable board in the state of zero-aware index idx:
// the pattern tiles on the cells of its placement, the blank on the
// smallest cell of its region, the other tiles on the lowest free cells
// (two of them swapped when that makes the board solvable).
func zaBoard(r *puzzle.Regions, idx uint64) puzzle.Board {
	p := r.Pattern()
	n := p.Geom.N()
	rank, region := r.Placement(idx)
	cells := make([]uint8, p.K())
	p.Unrank(rank, cells)
	pos := make([]uint8, n)
	used := make([]bool, n)
	for i, t := range p.Tiles {
		pos[t], used[cells[i]] = cells[i], true
	}
	labels := r.RegionsOf(rank % p.Combinations())
	blank := slices.Index(labels, uint8(region))
	pos[0], used[blank] = uint8(blank), true
	var others []int
	for t := 1; t < n; t++ {
		if !slices.Contains(p.Tiles, uint8(t)) {
			others = append(others, t)
		}
	}
	c := 0
	for _, t := range others {
		for used[c] {
			c++
		}
		pos[t], used[c] = uint8(c), true
	}
	if !p.SolvablePositions(pos) {
		pos[others[0]], pos[others[1]] = pos[others[1]], pos[others[0]]
	}
	return puzzle.BoardFromPositions(pos)
}

// TestZeroAwareRoundTrip writes zero-aware tables of real distances in
// both versions (frames smaller than a block of S entries, so that a
// frame starts mid-block) and reads them back: same values, kind and
// ranking, the regions restored; Value and a set's Heuristic read the
// entry of the blank's region, which is at least the plain table's value
// and, minimised over the regions, equal to it.
func TestZeroAwareRoundTrip(t *testing.T) {
	for _, c := range []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{3, 3, "blank-last", []uint8{1, 2, 3}},
		{4, 4, "blank-last", []uint8{2, 3, 4}},
		{4, 3, "blank-first", []uint8{1, 2, 3, 4}},
		{3, 3, "blank-last", []uint8{5}},
	} {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		za := builtZeroAware(t, p)
		plain := builtTable(t, p)
		for _, major := range []uint16{MajorVersion1, MajorVersion} {
			t.Run(fmt.Sprintf("%s/v%d", p, major), func(t *testing.T) {
				file := encodeAs(t, za, major, 1024)
				got, err := Decode(bytes.NewReader(file), int64(len(file)))
				if err != nil {
					t.Fatal(err)
				}
				h := got.Header
				if h.Kind != KindZeroAware || h.Ranking != puzzle.RankingCellsetOrderRegion || h.Entries != za.Regions.Size() || !got.ZeroAware() {
					t.Fatalf("header kind %q ranking %q entries %d, zero-aware %v", h.Kind, h.Ranking, h.Entries, got.ZeroAware())
				}
				if !bytes.Equal(got.Values, za.Values) {
					t.Fatal("values differ after the round trip")
				}
				if !bytes.Equal(got.Regions.Minimum(got.Values), plain.Values) {
					t.Fatal("the minimum over regions is not the plain table")
				}
				set, err := NewSet(got)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(uint64(len(file)), 1))
				for range 200 {
					idx := rng.Uint64N(uint64(len(got.Values)))
					b := zaBoard(got.Regions, idx)
					pos := b.Positions()
					if got.Regions.Index(pos) != idx {
						t.Fatalf("board %s: index %d, want %d", b, got.Regions.Index(pos), idx)
					}
					v, err := set.HeuristicBoard(b)
					if err != nil || v != int(got.Values[idx]) || got.Value(pos) != got.Values[idx] {
						t.Fatalf("board %s: heuristic %d (%v), value %d, want %d", b, v, err, got.Value(pos), got.Values[idx])
					}
					if pv := plain.Value(pos); got.Values[idx] < pv {
						t.Fatalf("board %s: zero-aware %d below plain %d", b, got.Values[idx], pv)
					}
				}
			})
		}
	}
}

// TestZeroAwareRefused: headers that a zero-aware reader must refuse.
func TestZeroAwareRefused(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3)
	za := encodeAs(t, builtZeroAware(t, p), MajorVersion, 0)
	plain := encodeAs(t, builtTable(t, p), MajorVersion, 0)
	for _, c := range []struct {
		name, class string
		file        []byte
	}{
		{"unknown kind", classUnsupported, withHeader(t, za, func(h *Header) { h.Kind = "zero-aware-2" })},
		{"zero-aware kind, plain ranking", classFormat, withHeader(t, za, func(h *Header) { h.Ranking = puzzle.RankingCellsetOrder })},
		{"plain kind, zero-aware ranking", classFormat, withHeader(t, plain, func(h *Header) { h.Ranking = puzzle.RankingCellsetOrderRegion })},
		{"zero-aware kind, plain entries", classFormat, withHeader(t, za, func(h *Header) { h.Entries = p.Size() })},
		{"plain table labelled zero-aware", classFormat, withHeader(t, plain, func(h *Header) {
			h.Kind, h.Ranking = KindZeroAware, puzzle.RankingCellsetOrderRegion
		})},
		{"exact table labelled zero-aware", classFormat, withHeader(t, encodeAs(t, builtTable(t, pdbtest.Pattern(t, 3, 2, "blank-last")), MajorVersion, 0), func(h *Header) {
			h.Kind, h.Ranking = KindZeroAware, puzzle.RankingCellsetOrderRegion
		})},
		{"ranking version 2", classUnsupported, withHeader(t, za, func(h *Header) { h.RankingVersion = 2 })},
		// 6 tiles of 8x8: C(64,6) = 74,974,368 cell sets, whose region maps
		// (5.1 GB) must not be allocated for a header of a few hundred bytes.
		{"8x8, 6 tiles: too many cell sets", classFormat, withHeader(t, za, func(h *Header) {
			h.Width, h.Height, h.GoalName, h.Tiles = 8, 8, "blank-last", []int{1, 2, 3, 4, 5, 6}
			h.Goal = make([]int, 64)
			for c := range 63 {
				h.Goal[c] = c + 1
			}
		})},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(bytes.NewReader(c.file), int64(len(c.file)))
			if got := kitClass(err); got != c.class {
				t.Fatalf("class %q (%v), want %q", got, err, c.class)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error of several lines: %q", err)
			}
		})
	}
	if _, err := NewZeroAwareTable(nil, nil, ""); err == nil {
		t.Error("NewZeroAwareTable(nil) accepted")
	}
	r, _ := puzzle.NewRegions(p)
	if _, err := NewZeroAwareTable(r, make([]uint8, p.Size()), ""); err == nil {
		t.Error("NewZeroAwareTable accepted a plain table's entry count")
	}
}

// Zero-aware test vectors (SPEC.md section 11).
const (
	zaVectorsFile = "testdata/zero_aware_vectors.txt"
	zaSpecBegin   = "<!-- zero-aware-vectors:begin (generated by go test -run TestZeroAwareVectors -update) -->"
	zaSpecEnd     = "<!-- zero-aware-vectors:end -->"
)

// generateZAVectors lists, for the 3x3 blank-last table of tiles 1,2,3,
// every cell set with more than one region (its rank M, cells, the region
// of each cell as a 3x3 grid, slotStart), S and the entry count, then
// boards with every step of their index and their value.
func generateZAVectors(t *testing.T) string {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3)
	tb := builtZeroAware(t, p)
	r := tb.Regions
	var sb strings.Builder
	sb.WriteString("# tilepdb zero-aware test vectors (ranking cellset-order-region, ranking_version 1); see SPEC.md section 11.\n")
	fmt.Fprintf(&sb, "# table: %s, kind zero-aware, C(9,3) = %d cell sets, S = %d slots, entries 3!·S = %d, raw_sha256 %s\n",
		p, p.Combinations(), r.Slots(), r.Size(), tb.Header.RawSHA256)
	sb.WriteString("# cell sets with two or more regions: M, occupied cells, region of each cell in reading order (x = occupied), slotStart[M]\n")
	for m := uint64(0); m < p.Combinations(); m++ {
		if r.Count(m) < 2 {
			continue
		}
		cells := make([]uint8, 3)
		p.Unrank(m, cells)
		var lab []string
		for _, l := range r.RegionsOf(m) {
			if l == puzzle.OccupiedRegion {
				lab = append(lab, "x")
			} else {
				lab = append(lab, fmt.Sprint(l))
			}
		}
		fmt.Fprintf(&sb, "M=%d\tcells %s\tregions %s\tslotStart %d\n", m, joinInts(cells), strings.Join(lab, " "), r.SlotStart(m))
	}
	sb.WriteString("# boards: board, cells of tiles 1,2,3, M, P, blank cell, region, slotStart[M], index = P·S + slotStart[M] + region, value (zero-aware), plain value (minimum over regions)\n")
	plain := r.Minimum(tb.Values)
	// The goal, the two regions of the cell set {2,4,6} (free cells
	// 0,1,3 and 5,7,8) under two orders, and a few others.
	m246 := puzzle.CombinationRank(1<<2 | 1<<4 | 1<<6)
	idxs := []uint64{r.Index(p.Goal.Positions())}
	for _, ord := range []uint64{1, 5} {
		for region := uint64(0); region < 2; region++ {
			idxs = append(idxs, ord*r.Slots()+r.SlotStart(m246)+region)
		}
	}
	idxs = append(idxs, 7, 333, r.Size()-1)
	for _, idx := range idxs {
		b := zaBoard(r, idx)
		pos := b.Positions()
		cells := []uint8{pos[1], pos[2], pos[3]}
		rank := p.Rank(pos)
		m := rank % p.Combinations()
		fmt.Fprintf(&sb, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", b, joinInts(cells), m, rank/p.Combinations(), pos[0],
			r.Region(m, int(pos[0])), r.SlotStart(m), idx, tb.Values[idx], plain[rank])
	}
	return sb.String()
}

func joinInts(c []uint8) string {
	s := make([]string, len(c))
	for i, x := range c {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

func TestZeroAwareVectors(t *testing.T) {
	content := generateZAVectors(t)
	if *update {
		writeVectors(t, zaVectorsFile, specFile, zaSpecBegin, zaSpecEnd, content)
	}
	data, err := os.ReadFile(zaVectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != content {
		t.Errorf("%s is stale; run go test ./format -run TestZeroAwareVectors -update", zaVectorsFile)
	}
	spec, err := os.ReadFile(specFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(spec), "```\n"+string(data)+"```\n") {
		t.Errorf("%s does not contain %s verbatim; run go test -run TestZeroAwareVectors -update", specFile, zaVectorsFile)
	}
}
