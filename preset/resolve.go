package preset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Table is one table a build writes: its pattern, its file name (FileName,
// or ZeroAwareFileName for a zero-aware table) and its kind
// (format.KindExact, format.KindAdditive or format.KindZeroAware).
type Table struct {
	Pattern *puzzle.Pattern
	File    string
	Kind    format.Kind
}

// Set is the set file a build writes for a preset whose parts share tables
// by symmetry, or for a catalogue preset, once all its tables are written.
type Set struct {
	File       string   // SetFileName (ZeroAwareSetFileName after ZeroAware)
	Partitions [][]Part // PlanCatalogue's: one for an additive preset
	Catalogue  bool     // a catalogue preset: a version-2 set file of partitions
	Tables     []Table  // by Part.Table
}

// Parts counts the parts of all partitions.
func (s Set) Parts() int {
	n := 0
	for _, p := range s.Partitions {
		n += len(p)
	}
	return n
}

// SetFile is the set file of s (SetFile, or CatalogueFile for a
// catalogue), each table's raw SHA-256 taken from sha by file name. The
// error names s.File.
func (s Set) SetFile(sha map[string]string) (*format.SetFile, error) {
	pats, files, sums := make([]*puzzle.Pattern, len(s.Tables)), make([]string, len(s.Tables)), make([]string, len(s.Tables))
	for i, t := range s.Tables {
		pats[i], files[i], sums[i] = t.Pattern, t.File, sha[t.File]
	}
	var sf *format.SetFile
	var err error
	if s.Catalogue {
		sf, err = CatalogueFile(s.Partitions, pats, files, sums)
	} else {
		sf, err = SetFile(s.Partitions[0], pats, files, sums)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.File, err)
	}
	return sf, nil
}

// Resolve turns a build's table flags into its tables and set files:
// presets (comma-separated names; "" is Defaults(); a name given twice
// counts once) or a custom board and its tile lists (one table per list,
// the lists pairwise disjoint), for the goal convention goal. A zero-aware
// preset's tables and set file are zero-aware (ZeroAwareFileName). The
// error is one line: both forms or half of the custom one given, an
// unknown preset, a bad board, goal or tile list, tile lists that are not
// one additive set.
func Resolve(presets, board string, tiles []string, goal string) ([]Table, []Set, error) {
	if board != "" || len(tiles) > 0 {
		if presets != "" {
			return nil, nil, errors.New("use either --preset or --board/--tiles, not both")
		}
		if board == "" || len(tiles) == 0 {
			return nil, nil, errors.New("--board and --tiles go together")
		}
		tables, err := customTables(board, tiles, goal)
		return tables, nil, err
	}
	names := Defaults()
	if presets != "" {
		names = strings.Split(presets, ",")
	}
	var out []Table
	var sets []Set
	seen := map[string]bool{}
	for _, name := range names {
		name = strings.TrimSpace(name)
		if seen[name] {
			continue
		}
		seen[name] = true
		pr, err := Find(name)
		if err != nil {
			return nil, nil, err
		}
		tables, set, err := pr.resolve(goal)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, tables...)
		if set != nil {
			sets = append(sets, *set)
		}
	}
	return out, sets, nil
}

// resolve is Resolve for one preset: its tables and its set file (nil
// when each part has a table of its own).
func (pr Preset) resolve(goal string) ([]Table, *Set, error) {
	patterns, partitions, err := pr.PlanCatalogue(goal)
	if err != nil {
		return nil, nil, err
	}
	tables := make([]Table, len(patterns))
	for i, p := range patterns {
		tables[i] = Table{Pattern: p, File: FileName(pr.Name, p), Kind: PlainKind(p)}
		if pr.ZeroAware {
			tables[i].File, tables[i].Kind = ZeroAwareFileName(pr.Name, p), format.KindZeroAware
		}
	}
	if !pr.IsCatalogue() && len(patterns) == len(partitions[0]) {
		return tables, nil, nil
	}
	// A zero-aware preset's set file has no ZeroAwareMark: its name is
	// the preset's own ("24-best.set.json").
	return tables, &Set{File: SetFileName(pr.Name, patterns[0]), Partitions: partitions, Catalogue: pr.IsCatalogue(), Tables: tables}, nil
}

// PlainKind is the kind of p's plain table: format.KindExact for an
// exact pattern, else format.KindAdditive.
func PlainKind(p *puzzle.Pattern) format.Kind {
	if p.Exact {
		return format.KindExact
	}
	return format.KindAdditive
}

// customTables is the --board/--tiles form: one table per tile list, the
// lists pairwise disjoint, named after the board (FileName).
func customTables(board string, tiles []string, goal string) ([]Table, error) {
	g, err := puzzle.ParseGeometry(board)
	if err != nil {
		return nil, err
	}
	gb, err := puzzle.ParseGoal(goal, g)
	if err != nil {
		return nil, err
	}
	var out []Table
	var names []string
	var patterns []*puzzle.Pattern
	for _, ts := range tiles {
		list, err := puzzle.ParseTiles(ts)
		if err != nil {
			return nil, err
		}
		p, err := puzzle.NewPattern(g, gb, list)
		if err != nil {
			return nil, err
		}
		names = append(names, "--tiles "+ts)
		patterns = append(patterns, p)
		out = append(out, Table{Pattern: p, File: FileName(g.String(), p), Kind: PlainKind(p)})
	}
	if err := puzzle.CheckAdditive(names, patterns); err != nil {
		return nil, fmt.Errorf("the --tiles sets of one build must form one additive set: %w", err)
	}
	return out, nil
}

// ZeroAware turns the tables and set files of a build into zero-aware
// ones (build --zero-aware): each plain additive table's file and each set
// file get ZeroAwareMark, each set's tables are copied and turned so too;
// zero-aware ones are left as they are. An exact table is an error naming
// its file (it has no zero-aware form).
func ZeroAware(tables []Table, sets []Set) error {
	turn := func(t *Table) error {
		switch t.Kind {
		case format.KindExact:
			return fmt.Errorf("%s is an exact table, which has no zero-aware form", t.File)
		case format.KindAdditive:
			t.Kind = format.KindZeroAware
			t.File = strings.TrimSuffix(t.File, FileSuffix) + ZeroAwareMark + FileSuffix
		}
		return nil
	}
	for i := range tables {
		if err := turn(&tables[i]); err != nil {
			return err
		}
	}
	for i := range sets {
		s := &sets[i]
		if len(s.Tables) > 0 && s.Tables[0].Kind == format.KindZeroAware {
			continue // a zero-aware preset's: its own name
		}
		s.File = strings.TrimSuffix(s.File, ".set.json") + ZeroAwareMark + ".set.json"
		s.Tables = append([]Table(nil), s.Tables...)
		for j := range s.Tables {
			if err := turn(&s.Tables[j]); err != nil {
				return err
			}
		}
	}
	return nil
}
