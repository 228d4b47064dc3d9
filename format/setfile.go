package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tilepdb/tilepdb/internal/atomicfile"
	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/puzzle"
)

// ErrSet is wrapped by every error saying that a set file is malformed or
// that the set it describes does not hold together (tables from different
// boards or goals, overlapping parts, a symmetry that does not map a part's
// goal cells onto its table's, a table other than the one recorded).
var ErrSet = errors.New("tilepdb: invalid set")

// SetVersion is the version of the set file format (SPEC.md section 10)
// written by this package; a reader refuses any other.
const SetVersion = 1

// MaxSetFileLen bounds the size of a set file read (1 MiB; a set file for
// a 5x5 board is under 4 KiB).
const MaxSetFileLen = 1 << 20

// SetFileExt is the conventional extension of a set file.
const SetFileExt = ".set.json"

// SetFile is the content of a set file: a small JSON object written next to
// the tables it names, describing which table (and board symmetry) each
// part of an additive heuristic is looked up through. See SPEC.md section 10.
type SetFile struct {
	Version int       `json:"tilepdb_set"` // SetVersion
	Width   int       `json:"width"`       // columns, 2..5
	Height  int       `json:"height"`      // rows, 2..5
	Goal    []int     `json:"goal"`        // tile in each cell, 0 = blank; len Width*Height
	Parts   []SetPart `json:"parts"`       // at least one; tile sets pairwise disjoint
}

// SetPart is one part of a set file.
type SetPart struct {
	Tiles      []int  `json:"tiles"`            // the part's tiles, strictly ascending
	Table      string `json:"table"`            // file name of the table, in the set file's directory (no path separators)
	TableTiles []int  `json:"table_tiles"`      // the table's tiles, as in its header
	Symmetry   string `json:"symmetry"`         // puzzle.Symmetry name
	TileMap    []int  `json:"tile_map"`         // TileMap[i] = table tile that Tiles[i] is looked up as
	RawSHA256  string `json:"table_raw_sha256"` // the table header's raw_sha256
}

// NewSetPart describes the part pattern looked up through the table of
// pattern table after symmetry sym, stored in the file tableFile whose raw
// table has SHA-256 rawSHA256. It checks the symmetric use
// (puzzle.MapPattern, unless pattern is the table's own pattern with the
// identity) and fills TileMap.
func NewSetPart(pattern, table *puzzle.Pattern, sym puzzle.Symmetry, tableFile, rawSHA256 string) (SetPart, error) {
	sp := SetPart{Tiles: ints(pattern.Tiles), Table: tableFile, TableTiles: ints(table.Tiles), Symmetry: sym.String(), RawSHA256: rawSHA256}
	if sym == puzzle.Identity && slices.Equal(pattern.Tiles, table.Tiles) && pattern.Geom == table.Geom && pattern.Goal.Equal(table.Goal) {
		sp.TileMap = ints(pattern.Tiles)
		return sp, nil
	}
	m, err := puzzle.MapPattern(pattern, table, sym)
	if err != nil {
		return SetPart{}, fmt.Errorf("%w: %w", ErrSet, err)
	}
	for _, t := range pattern.Tiles {
		sp.TileMap = append(sp.TileMap, int(m.Tile[t]))
	}
	return sp, nil
}

func ints(xs []uint8) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// WriteSetFile writes sf to path atomically (internal/atomicfile), as
// MarshalSetFile encodes it.
func WriteSetFile(path string, sf *SetFile) error {
	js, err := MarshalSetFile(sf)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := w.Write(js)
		return err
	})
}

// MarshalSetFile encodes sf as JSON in the layout WriteSetFile writes: one
// key per line and one line per part, ending in a newline.
func MarshalSetFile(sf *SetFile) ([]byte, error) {
	goal, err := json.Marshal(sf.Goal)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"tilepdb_set\": %d,\n  \"width\": %d,\n  \"height\": %d,\n  \"goal\": %s,\n  \"parts\": [", sf.Version, sf.Width, sf.Height, goal)
	for i, p := range sf.Parts {
		js, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(js)
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes(), nil
}

// ReadSetFile reads and parses the set file at path. It checks the syntax,
// the version and the size (at most MaxSetFileLen bytes), not the tables;
// OpenSet does the rest. Errors name the path; bad content wraps ErrSet.
func ReadSetFile(path string) (*SetFile, error) {
	f, err := regular.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSetFileLen+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxSetFileLen {
		return nil, fmt.Errorf("%s: %w: larger than %d bytes", path, ErrSet, MaxSetFileLen)
	}
	sf, err := ParseSetFile(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sf, nil
}

// ParseSetFile parses the JSON of a set file and checks its version.
// Unknown keys are ignored. Errors wrap ErrSet.
func ParseSetFile(data []byte) (*SetFile, error) {
	var sf SetFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&sf); err != nil {
		return nil, fmt.Errorf("%w: not a set file: %v", ErrSet, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the JSON object", ErrSet)
	}
	if sf.Version != SetVersion {
		return nil, fmt.Errorf("%w: set file version %d is not supported (this reader supports %d)", ErrSet, sf.Version, SetVersion)
	}
	return &sf, nil
}

// IsSetFile reports whether the file at path looks like a set file (its
// first non-space byte is '{') rather than a table file.
func IsSetFile(path string) (bool, error) {
	f, err := regular.Open(path) // a named pipe or a directory: *regular.NotRegularError
	if err != nil {
		return false, err
	}
	defer f.Close()
	buf := make([]byte, 64)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	s := bytes.TrimLeft(buf[:n], " \t\r\n")
	return len(s) > 0 && s[0] == '{', nil
}

// OpenSet reads a set from files: each path is a table file (used for its
// own pattern) or a set file (its parts, with their tables read from the
// set file's directory). A table given both directly and through a set
// file is read once and used once, so the list of paths `pdbgen build`
// prints for a preset can be passed as is (a table given twice directly
// is two parts, which overlap). The parts are then checked as
// by NewSetParts. Errors name the paths; a set file that is malformed or
// inconsistent with its tables wraps ErrSet.
func OpenSet(paths ...string) (*Set, error) {
	tables := map[string]*Table{} // by cleaned absolute path
	read := func(path string) (*Table, error) {
		key := absPath(path)
		if t, ok := tables[key]; ok {
			return t, nil
		}
		t, err := ReadFile(path)
		if err != nil {
			return nil, err
		}
		tables[key] = t
		return t, nil
	}
	var names []string
	var parts []Part
	used := map[string]bool{} // tables used by a set file
	isSet := make([]bool, len(paths))
	for i, path := range paths {
		ok, err := IsSetFile(path)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		isSet[i] = true
		sf, err := ReadSetFile(path)
		if err != nil {
			return nil, err
		}
		ps, err := sf.parts(path, read)
		if err != nil {
			return nil, err
		}
		for j, p := range ps {
			names = append(names, fmt.Sprintf("%s part %d", path, j+1))
			parts = append(parts, p)
			used[absPath(filepath.Join(filepath.Dir(path), sf.Parts[j].Table))] = true
		}
	}
	for i, path := range paths {
		if isSet[i] || used[absPath(path)] {
			continue
		}
		t, err := read(path)
		if err != nil {
			return nil, err
		}
		names = append(names, path)
		parts = append(parts, Part{Pattern: t.Pattern, Table: t})
	}
	if slices.Contains(isSet, true) {
		return newSetWrap(names, parts, ErrSet)
	}
	return newSet(names, parts)
}

// SetFileTables returns the paths of the tables a set file names (in the
// set file's directory), each once, in order of first use. It reads only
// the set file (ReadSetFile), so a front end can size the tables' memory
// before loading them.
func SetFileTables(path string) ([]string, error) {
	sf, err := ReadSetFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range sf.Parts {
		if seen[p.Table] {
			continue
		}
		seen[p.Table] = true
		out = append(out, filepath.Join(filepath.Dir(path), p.Table))
	}
	return out, nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// parts checks the set file read from path against its tables (read with
// read) and returns its parts. Every error names the path and wraps ErrSet
// unless it is about reading a table.
func (sf *SetFile) parts(path string, read func(string) (*Table, error)) ([]Part, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %w: "+format, append([]any{path, ErrSet}, a...)...)
	}
	g, err := puzzle.NewGeometry(sf.Width, sf.Height)
	if err != nil {
		return nil, bad("%v", err)
	}
	n := g.N()
	if len(sf.Goal) != n {
		return nil, bad("goal has %d cells, want %d", len(sf.Goal), n)
	}
	goal := make(puzzle.Board, n)
	for c, t := range sf.Goal {
		if t < 0 || t >= n {
			return nil, bad("goal cell %d holds %d, not a tile of 0..%d", c, t, n-1)
		}
		goal[c] = uint8(t)
	}
	if err := goal.Validate(n); err != nil {
		return nil, bad("goal: %v", err)
	}
	if len(sf.Parts) == 0 || len(sf.Parts) > n-1 {
		return nil, bad("%d parts, want 1 to %d", len(sf.Parts), n-1)
	}
	out := make([]Part, len(sf.Parts))
	for i, sp := range sf.Parts {
		where := "part " + strconv.Itoa(i+1)
		tiles, err := tileList(sp.Tiles, n)
		if err != nil {
			return nil, bad("%s: tiles: %v", where, err)
		}
		p, err := puzzle.NewPattern(g, goal, tiles)
		if err != nil {
			return nil, bad("%s: %v", where, err)
		}
		sym, err := puzzle.ParseSymmetry(sp.Symmetry)
		if err != nil {
			return nil, bad("%s: %v", where, err)
		}
		if sp.Table == "" || strings.ContainsAny(sp.Table, `/\:`) || sp.Table == "." || sp.Table == ".." {
			return nil, bad("%s: table %q must be a plain file name in the set file's directory", where, sp.Table)
		}
		tpath := filepath.Join(filepath.Dir(path), sp.Table)
		t, err := read(tpath)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, where, err)
		}
		tp := t.Pattern
		switch {
		case tp.Exact:
			return nil, bad("%s: table %s is an exact table (%s); a set file lists additive tables only", where, sp.Table, tp)
		case tp.Geom != g:
			return nil, bad("%s: table %s is for a %s board, the set for %s", where, sp.Table, tp.Geom, g)
		case !tp.Goal.Equal(goal):
			return nil, bad("%s: table %s has goal %q, the set %q", where, sp.Table, tp.Goal, goal)
		case !slices.EqualFunc(sp.TableTiles, tp.Tiles, intIs):
			return nil, bad("%s: table %s holds tiles %v, the set file says %v", where, sp.Table, tp.Tiles, sp.TableTiles)
		case sp.RawSHA256 != t.Header.RawSHA256:
			return nil, bad("%s: table %s has raw_sha256 %s, the set file says %s", where, sp.Table, t.Header.RawSHA256, sp.RawSHA256)
		}
		want, err := NewSetPart(p, tp, sym, sp.Table, sp.RawSHA256)
		if err != nil {
			return nil, fmt.Errorf("%s: %s (tiles %v) through table %s: %w", path, where, sp.Tiles, sp.Table, err)
		}
		if !slices.Equal(sp.TileMap, want.TileMap) {
			return nil, bad("%s: tile_map %v, but %s maps tiles %v to %v", where, sp.TileMap, sym, sp.Tiles, want.TileMap)
		}
		out[i] = Part{Pattern: p, Table: t, Sym: sym}
	}
	return out, nil
}

// tileList converts and checks a JSON tile list: strictly ascending, in
// 1..n-1.
func tileList(xs []int, n int) ([]uint8, error) {
	if len(xs) == 0 {
		return nil, errors.New("empty")
	}
	out := make([]uint8, len(xs))
	for i, x := range xs {
		if x < 1 || x >= n || (i > 0 && x <= xs[i-1]) {
			return nil, fmt.Errorf("%v is not a strictly ascending list of tiles 1..%d", xs, n-1)
		}
		out[i] = uint8(x)
	}
	return out, nil
}

// intIs reports whether a JSON int is the tile or cell b.
func intIs(a int, b uint8) bool { return a == int(b) }
