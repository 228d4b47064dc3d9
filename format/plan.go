package format

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/internal/sysmem"
)

// SetPlan is the first of the two phases of opening a set (PlanSet, then
// Open): what a front end needs to know before it loads anything. PlanSet
// opens each path once: a set file (IsSetFile) is read and parsed, a table
// file has its header read (ReadHeaderFile), and so has each table a set
// file names, once however many paths or parts name it. Memory then says
// what the tables need, and Open decodes each table file once (OpenSet is
// PlanSet(paths...).Open() without the headers read first). So a command
// that checks its memory budget and then loads opens a table file twice
// and a set file once.
//
// A plan records the problems it meets instead of failing: a missing or
// unreadable file, a header or set file that does not parse; Open (and
// CheckHeaders) report them, in the reading order of OpenSet, so that a
// plan's memory figure can be checked before any problem of the data is.
// A plan is not modified after PlanSet; Open may be called more than once
// (each call decodes the tables again).
type SetPlan struct {
	files  []plannedFile
	tables map[string]*plannedTable // by absolute path: every table whose header was read
	order  []string                 // the keys of tables, in order of first use
}

// plannedFile is what PlanSet read of one of its paths.
type plannedFile struct {
	path  string
	err   error         // the file could not be opened or sniffed (IsSetFile's error)
	set   *plannedSet   // a set file: its content; nil for a table file
	table *plannedTable // a table file given directly: its header
}

// plannedSet is the content of a set file: the bytes read (or why they
// could not be) and their parse.
type plannedSet struct {
	readErr error
	sf      *SetFile
	probs   []setProblem
}

// newPlannedSet parses the bytes of a set file read (readSetFileBytes).
func newPlannedSet(data []byte, err error) *plannedSet {
	if err != nil {
		return &plannedSet{readErr: err}
	}
	sf, probs := parseSetFileAll(data)
	return &plannedSet{sf: sf, probs: probs}
}

// plannedTable is a table file's header (a Table marked headerOnly) or why
// it could not be read.
type plannedTable struct {
	t   *Table
	err error
}

// PlanSet reads what OpenSet(paths...) would open, each file once, without
// decoding a table: see SetPlan. It never fails; the problems it meets are
// reported by Open, CheckHeaders and File.
func PlanSet(paths ...string) *SetPlan {
	return planSet(paths, true)
}

// planSet is PlanSet; without headers it reads no table header (the plan
// of OpenSet, which decodes the tables at once).
func planSet(paths []string, headers bool) *SetPlan {
	pl := &SetPlan{tables: map[string]*plannedTable{}}
	for _, path := range paths {
		pl.files = append(pl.files, pl.planFile(path, headers))
	}
	return pl
}

// planFile opens path once: a set file is read whole and parsed (and with
// headers the headers of the tables it names are read), a table file has
// its header read.
func (pl *SetPlan) planFile(path string, headers bool) plannedFile {
	pf := plannedFile{path: path}
	key := absPath(path)
	if pt, ok := pl.tables[key]; ok && pt.err == nil {
		pf.table = pt // read through a set file already: a table, not a set file
		return pf
	}
	f, err := regular.Open(path) // never blocks on a named pipe
	if err != nil {
		pf.err = err
		return pf
	}
	defer f.Close()
	isSet, head, err := sniffSetFile(f, path)
	if err != nil {
		pf.err = err
		return pf
	}
	if !isSet {
		pt := &plannedTable{}
		if headers {
			pt.err = onFile(f, path, func(f *os.File, size int64) error {
				pt.t, pt.err = decodeTableHeader(f, size)
				return pt.err
			})
			pl.addTable(key, pt)
		}
		pf.table = pt
		return pf
	}
	pf.set = newPlannedSet(readSetFileRest(f, path, head))
	if sf := pf.set.sf; headers && sf != nil && len(pf.set.probs) == 0 {
		for _, sp := range sf.allParts() {
			if !ValidTableName(sp.Table) {
				continue // refused by Open, never read
			}
			tp := filepath.Join(filepath.Dir(path), sp.Table)
			if k := absPath(tp); pl.tables[k] == nil {
				pt := &plannedTable{}
				pt.t, pt.err = readTableHeader(tp)
				pl.addTable(k, pt)
			}
		}
	}
	return pf
}

// addTable records the header read of the table with key (an absolute
// path), unless one is recorded already.
func (pl *SetPlan) addTable(key string, pt *plannedTable) {
	if pl.tables[key] == nil {
		pl.tables[key] = pt
		pl.order = append(pl.order, key)
	}
}

// Memory is the bytes of memory that Open is estimated to allocate: the
// sum of Header.DecodeMemory over the distinct tables whose headers the
// plan read (those given directly and those of set files that parse
// without a problem). A table whose header could not be read counts 0:
// Open reports it. The result saturates at math.MaxUint64.
func (pl *SetPlan) Memory() uint64 {
	var need uint64
	for _, k := range pl.order {
		if pt := pl.tables[k]; pt.err == nil && pt.t != nil {
			need = sysmem.SatAdd(need, pt.t.Header.DecodeMemory())
		}
	}
	return need
}

// File returns what the plan read of its i-th path (from 0): a table
// file's header (h, with its error as ReadHeaderFile gives it), or a set
// file's content (sf, with the first problem ParseSetFile finds, naming
// the path). err alone is a file that could not be opened or read.
func (pl *SetPlan) File(i int) (h *Header, sf *SetFile, err error) {
	pf := pl.files[i]
	switch {
	case pf.err != nil:
		return nil, nil, pf.err
	case pf.set != nil:
		if pf.set.readErr != nil {
			return nil, nil, pf.set.readErr
		}
		if len(pf.set.probs) > 0 {
			return nil, nil, fmt.Errorf("%s: %w", pf.path, pf.set.probs[0].err())
		}
		return nil, pf.set.sf, nil
	case pf.table.err != nil:
		return nil, nil, pf.table.err
	case pf.table.t == nil:
		return nil, nil, fmt.Errorf("%s: header not read (the plan of OpenSet)", pf.path)
	}
	h2 := pf.table.t.Header
	return &h2, nil, nil
}

// Open decodes the plan's tables, each file once, and combines them into a
// set as OpenSet documents (same checks, same first error). The set files
// are not read again: Open checks the content PlanSet read.
func (pl *SetPlan) Open() (*Set, error) {
	return pl.open(tableCache(ReadFile))
}

// OpenWith is Open reading each table file with read instead of ReadFile:
// a caller's function that calls ReadFile and may keep a table's values
// in another form (Table.ReleaseValues), so that a front end that packs
// zero-aware tables at one bit per entry as they are read never holds
// them all in bytes.
func (pl *SetPlan) OpenWith(read func(path string) (*Table, error)) (*Set, error) {
	return pl.open(tableCache(read))
}

// Headers returns the headers of the distinct tables whose headers the
// plan read (those Memory counts), in order of first use.
func (pl *SetPlan) Headers() []*Header {
	var out []*Header
	for _, k := range pl.order {
		if pt := pl.tables[k]; pt.err == nil && pt.t != nil {
			h := pt.t.Header
			out = append(out, &h)
		}
	}
	return out
}

// TableHeader returns the header the plan read of the table file at path
// (given directly or named by a set file), or nil when it read none.
func (pl *SetPlan) TableHeader(path string) *Header {
	if pt := pl.tables[absPath(path)]; pt != nil && pt.err == nil && pt.t != nil {
		h := pt.t.Header
		return &h
	}
	return nil
}

// CheckHeaders checks the plan's set files against the headers of their
// tables as Open would, in the same order and with the same first error,
// without decoding a table (nor reading anything again): it finds every
// problem of the set files and of their tables' headers (board, goal,
// tiles, raw_sha256 named, kind, symmetry, tile_map, overlaps), but not a
// table whose payload is corrupt. The tables given directly are checked
// as Open would check them (their headers). For `pdbgen info`.
func (pl *SetPlan) CheckHeaders() error {
	read := tableCache(func(path string) (*Table, error) {
		if pt := pl.tables[absPath(path)]; pt != nil && pt.t != nil {
			return pt.t, pt.err
		}
		return readTableHeader(path)
	})
	_, err := pl.open(read)
	return err
}

// open is Open with the tables read by read.
func (pl *SetPlan) open(read func(string) (*Table, error)) (*Set, error) {
	var names []string
	var parts []Part
	used := map[string]bool{} // tables used by a set file
	var cat *setFileCheck     // the catalogue among the paths, if any
	catPath, setPaths := "", []string{}
	for _, pf := range pl.files {
		if pf.err != nil {
			return nil, pf.err
		}
		if pf.set == nil {
			continue
		}
		c := pf.set.check(pf.path, read, false)
		if len(c.probs) > 0 {
			return nil, c.probs[0]
		}
		for _, sp := range c.sf.allParts() {
			used[absPath(filepath.Join(filepath.Dir(pf.path), sp.Table))] = true
		}
		setPaths = append(setPaths, pf.path)
		if c.sf.catalogue() {
			if cat == nil {
				cat, catPath = c, pf.path
			}
			continue
		}
		for _, g := range c.groups {
			for j, p := range g.parts {
				names = append(names, pf.path+" "+partName(0, g.nums[j]))
				parts = append(parts, p)
			}
		}
	}
	if cat != nil {
		return pl.catalogue(cat, catPath, setPaths, used)
	}
	for _, pf := range pl.files {
		if pf.set != nil || used[absPath(pf.path)] {
			continue
		}
		t, err := read(pf.path)
		if err != nil {
			return nil, err
		}
		names = append(names, pf.path)
		parts = append(parts, Part{Pattern: t.Pattern, Table: t})
	}
	if len(setPaths) > 0 {
		return newSetWrap(names, parts, ErrSet)
	}
	return newSet(names, parts)
}

// catalogue builds the set of the catalogue cat (the set file catPath),
// after checking that the other paths are only tables it uses.
func (pl *SetPlan) catalogue(cat *setFileCheck, catPath string, setPaths []string, used map[string]bool) (*Set, error) {
	alone := func(other string) error {
		return fmt.Errorf("%s: %w: a catalogue (set file version %d) is a whole heuristic and is used alone, not with %s", catPath, ErrSet, CatalogueVersion, other)
	}
	if i := slices.IndexFunc(setPaths, func(p string) bool { return p != catPath }); i >= 0 {
		return nil, alone(setPaths[i])
	}
	if len(setPaths) > 1 {
		return nil, alone(catPath)
	}
	for _, pf := range pl.files {
		if pf.set == nil && !used[absPath(pf.path)] {
			return nil, alone(pf.path)
		}
	}
	s, probs := cat.build(catPath, false)
	if len(probs) > 0 {
		return nil, probs[0]
	}
	return s, nil
}
