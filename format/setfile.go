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

	"github.com/tilepdb/tilepdb/internal/atomicfile"
	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/puzzle"
)

// ErrSet is wrapped by every error saying that a set file is malformed or
// that the set it describes does not hold together (tables from different
// boards or goals, overlapping parts, a symmetry that does not map a part's
// goal cells onto its table's, a table other than the one recorded).
var ErrSet = errors.New("tilepdb: invalid set")

// SetVersion is the version of set files that list the parts of one
// additive heuristic (SPEC.md section 10).
const SetVersion = 1

// CatalogueVersion is the version of set files that list the partitions of
// a catalogue (SPEC.md section 12). A reader refuses any version other
// than SetVersion and CatalogueVersion.
const CatalogueVersion = 2

// MaxSetFileLen bounds the size of a set file read (1 MiB; a set file for
// an 8x8 board is under 16 KiB).
const MaxSetFileLen = 1 << 20

// SetFileExt is the conventional extension of a set file.
const SetFileExt = ".set.json"

// SetFile is the content of a set file: a small JSON object written next to
// the tables it names, describing which table (and board symmetry) each
// part of an additive heuristic is looked up through (version 1, SPEC.md
// section 10), or each part of each partition of a catalogue (version 2,
// section 12). It encodes as MarshalSetFile writes it (MarshalJSON).
type SetFile struct {
	Version    int         `json:"tilepdb_set"` // SetVersion (parts) or CatalogueVersion (partitions)
	Width      int         `json:"width"`       // columns, 2..8 (puzzle.MinSide..MaxSide)
	Height     int         `json:"height"`      // rows, 2..8
	Goal       []int       `json:"goal"`        // tile in each cell, 0 = blank; len Width*Height
	Parts      []SetPart   `json:"parts"`       // version 1: 1 to N-1 parts; tile sets pairwise disjoint
	Partitions [][]SetPart `json:"partitions"`  // version 2: 1 to MaxPartitions partitions of 1 to N-1 parts each, at most MaxCataloguePartsTotal in all; tile sets pairwise disjoint within each partition
}

// catalogue reports whether sf is encoded and read as a catalogue: version
// CatalogueVersion, or (for encoding a file of another version) with
// Partitions and without Parts.
func (sf *SetFile) catalogue() bool {
	return sf.Version == CatalogueVersion || (sf.Partitions != nil && sf.Parts == nil)
}

// allParts returns the set file's parts: Parts, or those of every
// partition in order.
func (sf *SetFile) allParts() []SetPart {
	if !sf.catalogue() {
		return sf.Parts
	}
	var out []SetPart
	for _, ps := range sf.Partitions {
		out = append(out, ps...)
	}
	return out
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
// key per line and one line per part, ending in a newline. A catalogue
// (version CatalogueVersion) gets "partitions", each partition's parts
// between "[" and "]" lines; any other version "parts" (a nil list is
// written null, for tests of broken files).
func MarshalSetFile(sf *SetFile) ([]byte, error) {
	goal, err := json.Marshal(sf.Goal)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"tilepdb_set\": %d,\n  \"width\": %d,\n  \"height\": %d,\n  \"goal\": %s,\n", sf.Version, sf.Width, sf.Height, goal)
	// parts writes a list of parts, one per line at indent, or null.
	parts := func(ps []SetPart, indent string) error {
		if ps == nil {
			b.WriteString("null")
			return nil
		}
		b.WriteByte('[')
		for i, p := range ps {
			js, err := json.Marshal(p)
			if err != nil {
				return err
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n" + indent + "  ")
			b.Write(js)
		}
		if len(ps) > 0 {
			b.WriteString("\n" + indent)
		}
		b.WriteByte(']')
		return nil
	}
	if !sf.catalogue() {
		b.WriteString(`  "parts": `)
		if err := parts(sf.Parts, "  "); err != nil {
			return nil, err
		}
	} else {
		b.WriteString(`  "partitions": `)
		if sf.Partitions == nil {
			b.WriteString("null")
		} else {
			b.WriteByte('[')
			for i, ps := range sf.Partitions {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n    ")
				if err := parts(ps, "    "); err != nil {
					return nil, err
				}
			}
			if len(sf.Partitions) > 0 {
				b.WriteString("\n  ")
			}
			b.WriteByte(']')
		}
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// MarshalJSON encodes sf as MarshalSetFile does (encoding/json compacts
// it): "parts" for version 1, "partitions" for a catalogue.
func (sf SetFile) MarshalJSON() ([]byte, error) { return MarshalSetFile(&sf) }

// readSetFileBytes reads the set file at path, refusing one larger than
// MaxSetFileLen (an error naming path and wrapping ErrSet).
func readSetFileBytes(path string) ([]byte, error) {
	f, err := regular.Open(path) // never blocks on a named pipe
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSetFileRest(f, path, nil)
}

// readSetFileRest reads the rest of the set file f (named path), of which
// head has been read already, refusing one larger than MaxSetFileLen (an
// error naming path and wrapping ErrSet).
func readSetFileRest(f io.Reader, path string, head []byte) ([]byte, error) {
	rest, err := io.ReadAll(io.LimitReader(f, int64(MaxSetFileLen+1-len(head))))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	data := append(head, rest...)
	if len(data) > MaxSetFileLen {
		return nil, fmt.Errorf("%s: %w: larger than %d bytes", path, ErrSet, MaxSetFileLen)
	}
	return data, nil
}

// ParseSetFile parses a set file by the JSON rules and required keys of
// SPEC.md section 10 (no byte-order mark, UTF-8, keys case-sensitive and
// each at most once in every object, integers without fraction or
// exponent, nesting at most MaxSetFileDepth deep; tilepdb_set first, then
// every required key present, not null, of its type), and of section 12
// for a catalogue (version CatalogueVersion: Partitions instead of Parts).
// Unknown keys are ignored. The error, wrapping ErrSet, is the first
// problem in the order of sections 10.3 and 12.1.
func ParseSetFile(data []byte) (*SetFile, error) {
	sf, probs := parseSetFileAll(data)
	if len(probs) > 0 {
		return nil, probs[0].err()
	}
	return sf, nil
}

// parseSetFileAll is ParseSetFile reporting every problem; the set file is
// nil when its parts cannot be checked (see decodeSetFile).
func parseSetFileAll(data []byte) (*SetFile, []setProblem) {
	v, err := parseSetJSON(data)
	if err != nil {
		return nil, []setProblem{{msg: "not a set file: " + err.Error()}}
	}
	return decodeSetFile(v)
}

// err is the problem as an error wrapping ErrSet, without the path.
func (p setProblem) err() error {
	switch {
	case p.partition > 0 && p.part == 0:
		return fmt.Errorf("%w: partition %d: %s", ErrSet, p.partition, p.msg)
	case p.part > 0:
		return fmt.Errorf("%w: %s: %s", ErrSet, partName(p.partition, p.part), p.msg)
	}
	return fmt.Errorf("%w: %s", ErrSet, p.msg)
}

// partName names part no (from 1) of partition (from 1; 0 for a set file
// of version 1) in messages: "part 2", "partition 3 part 2".
func partName(partition, no int) string {
	if partition == 0 {
		return "part " + strconv.Itoa(no)
	}
	return "partition " + strconv.Itoa(partition) + " part " + strconv.Itoa(no)
}

// IsSetFile reports whether the file at path is a set file rather than a
// table file (SPEC.md section 10.3): after an optional UTF-8 byte-order
// mark and JSON white space (space, tab, LF, CR), among its first
// MaxSetFileLen bytes, comes '{'. A table file starts with its magic
// number. A path that is not a regular file (a directory, a named pipe)
// is an error (*regular.NotRegularError), found without opening it.
func IsSetFile(path string) (bool, error) {
	f, err := regular.Open(path) // a named pipe or a directory: *regular.NotRegularError
	if err != nil {
		return false, err
	}
	defer f.Close()
	isSet, _, err := sniffSetFile(f, path)
	return isSet, err
}

// sniffSetFile is IsSetFile on the open file f (named path in errors): it
// reads from the start of f until the first byte that is not white space
// (after an optional byte-order mark), at most MaxSetFileLen bytes, and
// returns whether it is '{' with the bytes read so far.
func sniffSetFile(f io.Reader, path string) (bool, []byte, error) {
	var head []byte
	buf := make([]byte, 4096)
	for len(head) < MaxSetFileLen {
		n, err := f.Read(buf[:min(len(buf), MaxSetFileLen-len(head))])
		first := len(head) == 0
		head = append(head, buf[:n]...)
		s := buf[:n]
		if first {
			s = bytes.TrimPrefix(s, []byte("\xef\xbb\xbf"))
		}
		if s = bytes.TrimLeft(s, " \t\r\n"); len(s) > 0 {
			return s[0] == '{', head, nil
		}
		if errors.Is(err, io.EOF) || (err == nil && n == 0) {
			return false, head, nil
		}
		if err != nil {
			return false, head, fmt.Errorf("%s: %w", path, err)
		}
	}
	return false, head, nil
}

// OpenSet reads a set from files: each path is a table file (used for its
// own pattern) or a set file (IsSetFile; its parts, with their tables read
// from the set file's directory). A table given both directly and through
// a set file is read once and used once, so the list of paths `pdbgen
// build` prints for a preset can be passed as is (a table given twice
// directly is two parts, which overlap). The parts are then checked as by
// NewSetParts. A catalogue (a set file of version CatalogueVersion, SPEC.md
// section 12) is a whole heuristic and is read as by NewCatalogue: the
// other paths may only be tables it names. Each table file is read once
// however many parts use it. Errors name the paths; a set file that is
// malformed or inconsistent with its tables wraps ErrSet. It stops at the
// first problem, in the reading order of SPEC.md sections 10.3 and 12
// (CheckSetFile finds them all). It is planSet(paths).Open() without the
// headers read first: see SetPlan for a plan that says the memory needed
// before anything is decoded.
func OpenSet(paths ...string) (*Set, error) {
	return planSet(paths, false).Open()
}

// CheckSetFile checks the set file at path with its tables as OpenSet
// does, but does not stop at the first problem: it returns every problem
// found, in the reading order of SPEC.md sections 10.3 and 12, or the set
// when there is none. A problem that makes the rest uncheckable ends the
// check (a JSON syntax error, a wrong version, a bad board or goal, a
// wrong number of parts or partitions); a problem of one part (or of one
// partition's type) leaves the others to be checked, and the parts that
// pass are checked for overlaps, partition by partition. Problems name the
// path; those about the set file wrap ErrSet, a table's own errors (a
// table that fails to read or verify) pass through.
func CheckSetFile(path string) (*Set, []error) {
	c := checkSetFile(path, tableCache(ReadFile), true)
	if c.sf == nil {
		return nil, c.probs
	}
	s, probs := c.build(path, true)
	c.probs = append(c.probs, probs...)
	if len(c.probs) > 0 {
		return nil, c.probs
	}
	return s, nil
}

// tableCache returns a function reading table files with read (ReadFile,
// or readTableHeader for the headers alone), each once (by cleaned
// absolute path).
func tableCache(read func(string) (*Table, error)) func(string) (*Table, error) {
	tables := map[string]*Table{}
	return func(path string) (*Table, error) {
		key := absPath(path)
		if t, ok := tables[key]; ok {
			return t, nil
		}
		t, err := read(path)
		if err != nil {
			return nil, err
		}
		tables[key] = t
		return t, nil
	}
}

// setFileCheck is what checkSetFile found: the set file (nil when it could
// not be read as one), the parts that passed, by partition, and the
// problems.
type setFileCheck struct {
	sf     *SetFile
	groups []partGroup // version 1: one group; a catalogue: one per partition checked, in order
	probs  []error
}

// partGroup is the parts of one partition (or of a set file of version 1)
// that passed the checks of each part.
type partGroup struct {
	partition int    // from 1; 0 for a set file of version 1
	parts     []Part // the parts that passed
	nums      []int  // their numbers within the partition, from 1
}

// build checks the parts that passed for overlaps (SPEC.md section 10.3
// step 8; in a catalogue within each partition, in partition order) and,
// when no problem was found before or now, builds the set. With all it
// reports an overlap in every partition, else the first.
func (c *setFileCheck) build(path string, all bool) (*Set, []error) {
	groupNames := func(g partGroup) []string {
		names := make([]string, len(g.parts))
		for j, n := range g.nums {
			names[j] = path + " " + partName(g.partition, n)
		}
		return names
	}
	if !c.sf.catalogue() {
		if len(c.groups) == 0 || len(c.groups[0].parts) == 0 {
			return nil, nil
		}
		s, err := newSetWrap(groupNames(c.groups[0]), c.groups[0].parts, ErrSet)
		if err != nil {
			return nil, []error{err}
		}
		return s, nil
	}
	var probs []error
	var partitions [][]Part
	var names [][]string
	for _, g := range c.groups {
		if len(g.parts) == 0 {
			continue
		}
		n := groupNames(g)
		if _, err := checkParts(n, g.parts, ErrSet); err != nil {
			probs = append(probs, err)
			if !all {
				return nil, probs
			}
		}
		partitions = append(partitions, g.parts)
		names = append(names, n)
	}
	if len(probs) > 0 || len(c.probs) > 0 || len(partitions) == 0 {
		return nil, probs
	}
	s, err := newCatalogue(func(i, j int) string { return names[i][j] }, partitions, ErrSet)
	if err != nil {
		return nil, []error{err}
	}
	return s, nil
}

// checkSetFile reads the set file at path and checks it against its tables
// (read with read) in the order of SPEC.md sections 10.3 and 12; with all
// it goes on after a problem where it can, else it stops at the first.
func checkSetFile(path string, read func(string) (*Table, error), all bool) *setFileCheck {
	return newPlannedSet(readSetFileBytes(path)).check(path, read, all)
}

// check checks the set file planned (read from path) against its tables
// (read with read) as checkSetFile does.
func (ps *plannedSet) check(path string, read func(string) (*Table, error), all bool) *setFileCheck {
	c := &setFileCheck{}
	if ps.readErr != nil {
		c.probs = []error{ps.readErr}
		return c
	}
	sf, probs := ps.sf, ps.probs
	skip := map[[2]int]bool{}
	for _, p := range probs {
		c.probs = append(c.probs, fmt.Errorf("%s: %w", path, p.err()))
		skip[[2]int{p.partition, p.part}] = true
		if !all {
			return c
		}
	}
	if sf == nil {
		return c
	}
	c.sf = sf
	sf.check(path, read, skip, all, c)
	return c
}

// check checks the set file read from path against its tables (read with
// read), leaving out the partitions and parts in skip ({partition, part},
// part 0 for a whole partition), and adds to c the parts that pass and the
// problems (SPEC.md section 10.3, steps 6 and 7, and section 12). Every
// problem names the path and wraps ErrSet unless it is about reading a
// table.
func (sf *SetFile) check(path string, read func(string) (*Table, error), skip map[[2]int]bool, all bool, c *setFileCheck) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %w: "+format, append([]any{path, ErrSet}, a...)...)
	}
	g, err := puzzle.NewGeometry(sf.Width, sf.Height)
	if err != nil {
		c.probs = append(c.probs, bad("%v", err))
		return
	}
	n := g.N()
	if len(sf.Goal) != n {
		c.probs = append(c.probs, bad("goal has %d cells, want %d", len(sf.Goal), n))
		return
	}
	goal := make(puzzle.Board, n)
	for i, t := range sf.Goal {
		if t < 0 || t >= n {
			c.probs = append(c.probs, bad("goal cell %d holds %d, not a tile of 0..%d", i, t, n-1))
			return
		}
		goal[i] = uint8(t)
	}
	if err := goal.Validate(n); err != nil {
		c.probs = append(c.probs, bad("goal: %v", err))
		return
	}
	if !sf.catalogue() {
		if len(sf.Parts) == 0 || len(sf.Parts) > n-1 {
			c.probs = append(c.probs, bad("%d parts, want 1 to %d", len(sf.Parts), n-1))
			return
		}
		sf.checkGroup(path, 0, sf.Parts, g, goal, read, skip, all, c)
		return
	}
	if len(sf.Partitions) == 0 || len(sf.Partitions) > MaxPartitions {
		c.probs = append(c.probs, bad("%d partitions, want 1 to %d", len(sf.Partitions), MaxPartitions))
		return
	}
	total := 0
	for i, ps := range sf.Partitions {
		if skip[[2]int{i + 1, 0}] {
			continue
		}
		if len(ps) == 0 || len(ps) > n-1 {
			c.probs = append(c.probs, bad("partition %d: %d parts, want 1 to %d", i+1, len(ps), n-1))
			return
		}
		total += len(ps)
	}
	if total > MaxCataloguePartsTotal {
		c.probs = append(c.probs, bad("%d parts in all, want at most %d", total, MaxCataloguePartsTotal))
		return
	}
	for i, ps := range sf.Partitions {
		if skip[[2]int{i + 1, 0}] {
			continue
		}
		if !sf.checkGroup(path, i+1, ps, g, goal, read, skip, all, c) {
			return
		}
	}
}

// checkGroup checks the parts ps of partition (0 for a set file of
// version 1) one by one (checkPart), leaving out those in skip, and adds
// to c the group of those that pass and the problems. Without all it
// stops at the first problem and returns false.
func (sf *SetFile) checkGroup(path string, partition int, ps []SetPart, g puzzle.Geometry, goal puzzle.Board, read func(string) (*Table, error), skip map[[2]int]bool, all bool, c *setFileCheck) bool {
	grp := partGroup{partition: partition}
	defer func() { c.groups = append(c.groups, grp) }()
	for j, sp := range ps {
		no := j + 1
		if skip[[2]int{partition, no}] {
			continue
		}
		p, err := checkPart(path, partName(partition, no), sp, g, goal, read)
		if err != nil {
			c.probs = append(c.probs, err)
			if !all {
				return false
			}
			continue
		}
		grp.parts = append(grp.parts, p)
		grp.nums = append(grp.nums, no)
	}
	return true
}

// checkPart checks the part sp of the set file read from path, named
// where ("part 2", "partition 3 part 2"), against its table: SPEC.md
// section 10.3 step 7.
func checkPart(path, where string, sp SetPart, g puzzle.Geometry, goal puzzle.Board, read func(string) (*Table, error)) (Part, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %w: %s: "+format, append([]any{path, ErrSet, where}, a...)...)
	}
	tiles, err := tileList(sp.Tiles, g.N())
	if err != nil {
		return Part{}, bad("tiles: %v", err)
	}
	p, err := puzzle.NewPattern(g, goal, tiles)
	if err != nil {
		return Part{}, bad("%v", err)
	}
	sym, err := puzzle.ParseSymmetry(sp.Symmetry)
	if err != nil {
		return Part{}, bad("%v", err)
	}
	if !ValidTableName(sp.Table) {
		return Part{}, bad("table %s must be a plain file name in the set file's directory", QuoteName(sp.Table))
	}
	name := QuoteName(sp.Table)
	t, err := read(filepath.Join(filepath.Dir(path), sp.Table))
	if err != nil {
		return Part{}, fmt.Errorf("%s: %s: %w", path, where, err)
	}
	tp := t.Pattern
	switch {
	case tp.Geom != g:
		return Part{}, bad("table %s is for a %s board, the set for %s", name, tp.Geom, g)
	case !tp.Goal.Equal(goal):
		return Part{}, bad("table %s has goal %q, the set %q", name, tp.Goal, goal)
	case !slices.EqualFunc(sp.TableTiles, tp.Tiles, intIs):
		return Part{}, bad("table %s holds tiles %v, the set file says %v", name, tp.Tiles, sp.TableTiles)
	case sp.RawSHA256 != t.Header.RawSHA256:
		return Part{}, bad("table %s has raw_sha256 %s, the set file says %s", name, t.Header.RawSHA256, QuoteName(sp.RawSHA256))
	case tp.Exact:
		return Part{}, bad("table %s is an exact table (%s); a set file lists additive tables only", name, tp)
	}
	want, err := NewSetPart(p, tp, sym, sp.Table, sp.RawSHA256)
	if err != nil {
		return Part{}, fmt.Errorf("%s: %s (tiles %v) through table %s: %w", path, where, sp.Tiles, name, err)
	}
	if !slices.Equal(sp.TileMap, want.TileMap) {
		return Part{}, bad("tile_map %v, but %s maps tiles %v to %v", sp.TileMap, sym, sp.Tiles, want.TileMap)
	}
	return Part{Pattern: p, Table: t, Sym: sym}, nil
}

// MaxTableNameLen bounds the length in bytes of a table name in a set file.
const MaxTableNameLen = 255

// ValidTableName reports whether name may name a table in a set file
// (SPEC.md section 10.2): a plain file name in the set file's directory,
// 1 to MaxTableNameLen bytes, without '/', '\' or ':', not "." or "..",
// and without control characters (U+0000 to U+001F, U+007F to U+009F).
func ValidTableName(name string) bool {
	if name == "" || len(name) > MaxTableNameLen || name == "." || name == ".." {
		return false
	}
	for _, r := range name {
		if r == '/' || r == '\\' || r == ':' || r < 0x20 || (r >= 0x7f && r <= 0x9f) {
			return false
		}
	}
	return true
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
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
