package preset

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Preset is a named set of tables: an exact table or a disjoint partition
// of tiles into additive pattern databases. Tiles are given for the
// blank-last goal; for the blank-first goal each tile t becomes N-t, the
// relabelling that maps one convention onto the other with the board
// rotated 180 degrees, so the preset builds the same tables up to that map.
type Preset struct {
	Name        string
	Description string
	W, H        int
	Partition   [][]uint8 // blank-last tile sets; one set of all tiles = exact table
	// Catalogue, for a catalogue preset (format/SPEC.md section 12), lists
	// its partitions, each a list of disjoint blank-last tile sets: the
	// heuristic is the maximum over the partitions of their additive sums.
	// Partition is nil then.
	Catalogue [][][]uint8
	// ZeroAware: the preset's tables are zero-aware (format/SPEC.md
	// section 11), as build --zero-aware makes them.
	ZeroAware bool
	Default   bool // part of the default set built by `make data`
}

// IsCatalogue reports whether the preset is a catalogue (Catalogue set).
func (pr Preset) IsCatalogue() bool { return pr.Catalogue != nil }

// All lists every preset, in the order `pdbgen presets` shows them.
// Partitions, mapped to the blank-last goal by t -> N-t (and the board
// turned by 180 degrees): Korf & Felner 2002 ("Disjoint pattern database
// heuristics", Artificial Intelligence 134) for 15-555, 15-663, 15-78 and
// 24-6666; 24-6666-reinefeld is the 6-6-6-6 partition of a public C
// research codebase, which credits it to Reinefeld et al. Patterns that a
// board symmetry maps onto one another share one table (Plan).
var All = []Preset{
	{Name: "8puzzle", Description: "exact distance table of the 3x3 puzzle (9!/2 = 181,440 states)",
		W: 3, H: 3, Partition: [][]uint8{{1, 2, 3, 4, 5, 6, 7, 8}}, Default: true},
	{Name: "15-555", Description: "15-puzzle additive PDBs 5-5-5",
		W: 4, H: 4, Partition: [][]uint8{{1, 2, 3, 4, 7}, {5, 6, 9, 10, 13}, {8, 11, 12, 14, 15}}, Default: true},
	{Name: "15-663", Description: "15-puzzle additive PDBs 6-6-3",
		W: 4, H: 4, Partition: [][]uint8{{1, 5, 6, 9, 10, 13}, {7, 8, 11, 12, 14, 15}, {2, 3, 4}}, Default: true},
	{Name: "15-78", Description: "15-puzzle additive PDBs 7-8 (Korf & Felner's {1..7}/{8..15} in blank-first terms)",
		W: 4, H: 4, Partition: [][]uint8{{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15}}},
	// Korf & Felner's {1,2,5,6,7,12} {3,4,8,9,13,14} {10,11,15,16,20,21}
	// {17,18,19,22,23,24} (blank-first); the last three are 2x3 blocks,
	// rotations of one another: 2 tables.
	{Name: "24-6666", Description: "24-puzzle additive PDBs 6-6-6-6, Korf & Felner's partition (2 tables: three 2x3 blocks share one)",
		W: 5, H: 5, Partition: [][]uint8{{13, 18, 19, 20, 23, 24}, {11, 12, 16, 17, 21, 22}, {4, 5, 9, 10, 14, 15}, {1, 2, 3, 6, 7, 8}}},
	{Name: "24-6666-reinefeld", Description: "24-puzzle additive PDBs 6-6-6-6, the partition a public C research codebase credits to Reinefeld et al. (2 tables)",
		W: 5, H: 5, Partition: [][]uint8{{1, 2, 6, 7, 11, 12}, {3, 4, 5, 8, 9, 10}, {13, 14, 15, 19, 20, 24}, {16, 17, 18, 21, 22, 23}}},
	{Name: "35-puzzle", Description: "35-puzzle (6x6) additive PDBs 6-6-6-6-6-5: the board's six 2x3 blocks (3 tables: three corner blocks share one, the two middle blocks another; the blank's corner block has 5 tiles)",
		W: 6, H: 6, Partition: [][]uint8{{1, 2, 3, 7, 8, 9}, {4, 5, 6, 10, 11, 12}, {13, 14, 15, 19, 20, 21}, {16, 17, 18, 22, 23, 24}, {25, 26, 27, 31, 32, 33}, {28, 29, 30, 34, 35}}},
	{Name: "35-catalogue", Description: "35-puzzle (6x6) catalogue: the maximum over 4 additive 6-6-6-6-6-5 partitions, the 2x3 blocks of 35-puzzle, their transpose, a pinwheel of four corner blocks (2x3 and 3x2) round two L-shaped groups, and its transpose (5 tables through the board's symmetries)",
		W: 6, H: 6, Catalogue: catalogue35},
	{Name: "48-puzzle", Description: "48-puzzle (7x7) additive PDBs 6-6-6-6-6-6-6-5-1: a pinwheel of 3x2 blocks round the centre tile (3 tables through the board's rotations: the corner blocks share one, the inner blocks another; the blank's corner block has 5 tiles; the centre tile counts its Manhattan distance)",
		W: 7, H: 7, Partition: [][]uint8{{1, 2, 8, 9, 15, 16}, {3, 4, 10, 11, 17, 18}, {5, 6, 7, 12, 13, 14}, {19, 20, 21, 26, 27, 28},
			{34, 35, 41, 42, 48}, {32, 33, 39, 40, 46, 47}, {36, 37, 38, 43, 44, 45}, {22, 23, 24, 29, 30, 31}, {25}}},
	{Name: "48-5tile", Description: "48-puzzle (7x7) additive PDBs 5-5-4 on each pair of rows and 3-3 on the last row (the 48-puzzle preset before 6-tile tables)",
		W: 7, H: 7, Partition: [][]uint8{{1, 2, 3, 8, 9}, {4, 5, 10, 11, 12}, {6, 7, 13, 14}, {15, 16, 17, 22, 23}, {18, 19, 24, 25, 26}, {20, 21, 27, 28},
			{29, 30, 31, 36, 37}, {32, 33, 38, 39, 40}, {34, 35, 41, 42}, {43, 44, 45}, {46, 47, 48}}},
	{Name: "24-best", Description: "24-puzzle catalogue: the maximum over 14 additive 6-6-6-6 partitions (Clausecker & Reinefeld's small catalogue: 7 partitions and their transposes) of zero-aware tables (11 tables through the board's symmetries)",
		W: 5, H: 5, Catalogue: blankLast(25, catalogue24Small), ZeroAware: true},
	{Name: "24-7tile", Description: "24-puzzle catalogue: the maximum over 22 additive partitions of zero-aware tables, two 7-7-7-3 partitions and their transposes, four 7-7-6-4 partitions and 24-best's 14 6-6-6-6 partitions (6 tables of 7 tiles, 2 of 3, 2 of 4 and 11 of 6 through the board's symmetries; held at 1 bit per entry when solving)",
		W: 5, H: 5, Catalogue: blankLast(25, slices.Concat(catalogue24Seven, catalogue24Small)), ZeroAware: true},
}

// catalogue35 is the catalogue of preset 35-catalogue (blank-last tiles:
// tile 6r+c+1 at row r, column c): the 2x3 blocks of preset 35-puzzle and
// their transposes (3x2 blocks), then a pinwheel and its transpose. The
// pinwheel has a 2x3 or 3x2 block in each corner (the same table as the
// corner blocks, through the board's rotations; the blank's corner block
// has 5 tiles, the table of 35-puzzle's) round two L-shaped groups of six,
// {4,10,13,14,15,16} and its 180-degree rotation {21,22,23,24,27,33}: two
// new tables (the first encloses the top-left 2x3 region, the second the
// blank's goal cell, so the rotation does not map one table onto the
// other). Its corner blocks are those of the other two partitions; the
// L-shaped groups span the middle of the board, where both block
// partitions cut rows or columns in two.
var catalogue35 = [][][]uint8{
	{{1, 2, 3, 7, 8, 9}, {4, 5, 6, 10, 11, 12}, {13, 14, 15, 19, 20, 21}, {16, 17, 18, 22, 23, 24}, {25, 26, 27, 31, 32, 33}, {28, 29, 30, 34, 35}},
	{{1, 2, 7, 8, 13, 14}, {3, 4, 9, 10, 15, 16}, {5, 6, 11, 12, 17, 18}, {19, 20, 25, 26, 31, 32}, {21, 22, 27, 28, 33, 34}, {23, 24, 29, 30, 35}},
	{{1, 2, 3, 7, 8, 9}, {5, 6, 11, 12, 17, 18}, {28, 29, 30, 34, 35}, {19, 20, 25, 26, 31, 32}, {4, 10, 13, 14, 15, 16}, {21, 22, 23, 24, 27, 33}},
	{{1, 2, 7, 8, 13, 14}, {4, 5, 6, 10, 11, 12}, {23, 24, 29, 30, 35}, {25, 26, 27, 31, 32, 33}, {3, 9, 15, 19, 20, 21}, {16, 17, 18, 22, 28, 34}},
}

// catalogue24Seven holds the 7-tile partitions of preset 24-7tile (the
// others are catalogue24Small's), for the blank-first goal (tile t in cell
// t): two 7-7-7-3 partitions, each followed by its transpose (reflection
// about the main diagonal, which keeps the blank's cell), so that a
// pattern and its transpose share one table; then four 7-7-6-4 partitions
// (two pairs of transposes), each of two of those 7-tile blocks, a 6-tile
// block that is one of 24-best's tables through a symmetry, and a 4-tile
// block (two 4-tile tables, shared by transposition). The first
// partition's block {1,2,5,6,7,10,11} round the blank is its own
// transpose. The partitions were chosen by hand for compact blocks of 2x3
// cells plus one, away from the blank's corner for the 3-tile part. The
// 7-7-7-3 ones alone are weaker than 24-best on Korf's five easiest (383.6
// against 202.7 million nodes); with 24-best's partitions beside them,
// 118.4 million; with the four 7-7-6-4 partitions too, 111.1 million in
// the same time (docs/big-boards.md).
var catalogue24Seven = [][][]uint8{
	{{1, 2, 5, 6, 7, 10, 11}, {3, 4, 8, 9, 13, 14, 19}, {12, 15, 16, 17, 20, 21, 22}, {18, 23, 24}},
	{{1, 2, 5, 6, 7, 10, 11}, {15, 16, 17, 20, 21, 22, 23}, {3, 4, 8, 9, 12, 13, 14}, {18, 19, 24}},
	{{2, 3, 4, 7, 8, 9, 14}, {1, 5, 6, 10, 11, 15, 16}, {12, 13, 17, 18, 19, 22, 23}, {20, 21, 24}},
	{{10, 11, 15, 16, 20, 21, 22}, {1, 2, 3, 5, 6, 7, 8}, {12, 13, 14, 17, 18, 19, 23}, {4, 9, 24}},
	{{1, 2, 5, 6, 7, 10, 11}, {3, 4, 8, 9, 13, 14, 19}, {15, 16, 17, 20, 21, 22}, {12, 18, 23, 24}},
	{{1, 2, 5, 6, 7, 10, 11}, {15, 16, 17, 20, 21, 22, 23}, {3, 4, 8, 9, 13, 14}, {12, 18, 19, 24}},
	{{2, 3, 4, 7, 8, 9, 14}, {1, 5, 6, 10, 11, 15, 16}, {17, 18, 19, 22, 23, 24}, {12, 13, 20, 21}},
	{{10, 11, 15, 16, 20, 21, 22}, {1, 2, 3, 5, 6, 7, 8}, {13, 14, 18, 19, 23, 24}, {4, 9, 12, 17}},
}

// catalogue24Small is the small catalogue of clausecker/24puzzle
// (catalogues/small-t.cat; Clausecker & Reinefeld's zero-aware 6-tile
// tables): 7 additive 6-6-6-6 partitions of the 24-puzzle, each followed
// by its transpose (14 partitions, 56 parts, 28 distinct tile sets), for the
// blank-first goal (tile t in cell t), as
// ../shared/reference/catalogue-24-small.tsv lists them. blankLast turns
// it into the blank-last tiles of the presets.
var catalogue24Small = [][][]uint8{
	{{1, 5, 6, 10, 11, 12}, {2, 3, 4, 7, 8, 9}, {13, 14, 18, 19, 23, 24}, {15, 16, 17, 20, 21, 22}},
	{{1, 2, 5, 6, 7, 12}, {10, 11, 15, 16, 20, 21}, {17, 18, 19, 22, 23, 24}, {3, 4, 8, 9, 13, 14}},
	{{1, 2, 5, 6, 10, 11}, {3, 4, 7, 8, 9, 12}, {13, 14, 18, 19, 23, 24}, {15, 16, 17, 20, 21, 22}},
	{{3, 4, 8, 9, 13, 14}, {17, 18, 19, 22, 23, 24}, {11, 12, 15, 16, 20, 21}, {1, 2, 5, 6, 7, 10}},
	{{1, 5, 6, 10, 11, 12}, {2, 3, 4, 7, 8, 9}, {13, 14, 15, 16, 17, 18}, {19, 20, 21, 22, 23, 24}},
	{{1, 2, 5, 6, 7, 12}, {10, 11, 15, 16, 20, 21}, {3, 8, 13, 17, 18, 22}, {4, 9, 14, 19, 23, 24}},
	{{1, 2, 5, 6, 10, 11}, {3, 4, 7, 8, 9, 12}, {13, 14, 15, 16, 17, 18}, {19, 20, 21, 22, 23, 24}},
	{{1, 2, 5, 6, 7, 10}, {11, 12, 15, 16, 20, 21}, {3, 8, 13, 17, 18, 22}, {4, 9, 14, 19, 23, 24}},
	{{1, 5, 6, 10, 15, 20}, {2, 3, 4, 7, 8, 9}, {11, 12, 16, 17, 21, 22}, {13, 14, 18, 19, 23, 24}},
	{{1, 2, 3, 4, 5, 6}, {10, 11, 15, 16, 20, 21}, {7, 8, 9, 12, 13, 14}, {17, 18, 19, 22, 23, 24}},
	{{1, 2, 5, 6, 10, 11}, {3, 4, 9, 14, 19, 24}, {7, 8, 12, 13, 18, 23}, {15, 16, 17, 20, 21, 22}},
	{{1, 2, 5, 6, 7, 10}, {15, 20, 21, 22, 23, 24}, {11, 12, 16, 17, 18, 19}, {3, 4, 8, 9, 13, 14}},
	{{1, 5, 6, 10, 15, 20}, {2, 3, 4, 7, 8, 9}, {11, 12, 13, 16, 17, 18}, {14, 19, 21, 22, 23, 24}},
	{{1, 2, 3, 4, 5, 6}, {10, 11, 15, 16, 20, 21}, {7, 8, 12, 13, 17, 18}, {9, 14, 19, 22, 23, 24}},
}

// blankLast maps partitions of blank-first tiles of an n-cell board to the
// blank-last convention of the presets (tile t becomes n-t: the board
// turned by 180 degrees), each tile set sorted.
func blankLast(n int, partitions [][][]uint8) [][][]uint8 {
	out := make([][][]uint8, len(partitions))
	for i, part := range partitions {
		for _, set := range part {
			ts := make([]uint8, len(set))
			for j, t := range set {
				ts[j] = uint8(n) - t
			}
			slices.Sort(ts)
			out[i] = append(out[i], ts)
		}
	}
	return out
}

// Defaults are the names of the presets built by default, in the order of
// All.
func Defaults() []string {
	var out []string
	for _, p := range All {
		if p.Default {
			out = append(out, p.Name)
		}
	}
	return out
}

// Find returns the preset called name, or an error listing the known names.
func Find(name string) (Preset, error) {
	var names []string
	for _, p := range All {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(names, ", "))
}

// Patterns returns the patterns of the preset's tables for a goal
// convention name (puzzle.GoalBlankLast or puzzle.GoalBlankFirst): the
// partition's patterns in order, or for a catalogue the tables of
// PlanCatalogue (one per pattern no earlier table serves by a symmetry).
func (pr Preset) Patterns(goal string) ([]*puzzle.Pattern, error) {
	if pr.IsCatalogue() {
		tables, _, err := pr.PlanCatalogue(goal)
		return tables, err
	}
	ps, err := pr.partitionPatterns(goal, pr.Partition)
	if err != nil {
		return nil, err
	}
	return ps, nil
}

// partitionPatterns returns the patterns of blank-last tile sets for a
// goal convention name, mapped to the blank-first tiles for
// puzzle.GoalBlankFirst.
func (pr Preset) partitionPatterns(goal string, sets [][]uint8) ([]*puzzle.Pattern, error) {
	g, err := puzzle.NewGeometry(pr.W, pr.H)
	if err != nil {
		return nil, err
	}
	var gb puzzle.Board
	switch goal {
	case "", puzzle.GoalBlankLast:
		gb = puzzle.BlankLastGoal(g)
	case puzzle.GoalBlankFirst:
		gb = puzzle.BlankFirstGoal(g)
	default:
		return nil, fmt.Errorf("preset %s: goal must be %s or %s (use --board and --tiles for a custom goal)", pr.Name, puzzle.GoalBlankLast, puzzle.GoalBlankFirst)
	}
	var out []*puzzle.Pattern
	for _, set := range sets {
		tiles := append([]uint8(nil), set...)
		if goal == puzzle.GoalBlankFirst && len(tiles) != g.N()-1 {
			for i, t := range tiles {
				tiles[i] = puzzle.BlankFirstToLastTile(g.N(), t)
			}
			sort.Slice(tiles, func(i, j int) bool { return tiles[i] < tiles[j] })
		}
		p, err := puzzle.NewPattern(g, gb, tiles)
		if err != nil {
			return nil, fmt.Errorf("preset %s: %w", pr.Name, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// FileName is the conventional file name of a table: "<prefix>.pdb" for an
// exact table, "<prefix>_<t1>-<t2>-....pdb" for an additive one, where the
// prefix is the preset name or the board size, followed by "-bf" for the
// blank-first goal and "-goal" plus the goal's cells joined by dots for
// another goal (e.g. "3x3-goal2.1.3.4.5.6.7.8.0_1-2.pdb").
func FileName(prefix string, p *puzzle.Pattern) string {
	prefix = goalPrefix(prefix, p)
	if p.Exact {
		return prefix + FileSuffix
	}
	ts := make([]string, len(p.Tiles))
	for i, t := range p.Tiles {
		ts[i] = fmt.Sprint(t)
	}
	return prefix + "_" + strings.Join(ts, "-") + FileSuffix
}

// SetFileName is the conventional name of the set file (format.SetFileExt)
// of a preset whose parts share tables: the prefix of FileName for the
// goal of p, then ".set.json" (e.g. "24-6666.set.json",
// "24-6666-bf.set.json").
func SetFileName(prefix string, p *puzzle.Pattern) string {
	return goalPrefix(prefix, p) + ".set.json"
}

// goalPrefix is prefix followed by the goal's part of a file name.
func goalPrefix(prefix string, p *puzzle.Pattern) string {
	switch puzzle.GoalName(p.Geom, p.Goal) {
	case puzzle.GoalBlankLast:
	case puzzle.GoalBlankFirst:
		prefix += "-bf"
	default:
		// the goal itself, so tables for different goals never share a name
		cells := make([]string, len(p.Goal))
		for i, t := range p.Goal {
			cells[i] = fmt.Sprint(t)
		}
		prefix += "-goal" + strings.Join(cells, ".")
	}
	return prefix
}
