package format

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/bits"

	"github.com/tilepdb/tilepdb/puzzle"
)

// File format versions. Encode writes MajorVersion.MinorVersion (2.0) unless
// Header.Major is MajorVersion1 (1.0). The reader accepts major versions 1
// and 2 with any minor version.
const (
	MajorVersion  = 2 // format 2: Manhattan-delta encoding (Header.Encoding)
	MinorVersion  = 0
	MajorVersion1 = 1 // format 1: one raw byte per entry
)

// magic opens every table file (8 bytes).
const magic = "TILEPDB\x1a"

// Fixed layout, see SPEC.md.
const (
	offMagic     = 0
	offMajor     = 8
	offMinor     = 10
	offHeaderLen = 12
	offHeader    = 16 // start of the JSON header
	prefixLen    = 16 // magic, versions, header length
	checksumLen  = sha256.Size
)

// MaxHeaderLen is the largest JSON header length accepted: 16 MiB.
const MaxHeaderLen = 16 << 20

// Frame sizes (entries per zstd frame). Encode uses DefaultFrameSize for
// format 1.0 and DefaultFrameSize2(entries) for format 2.0 unless
// Header.FrameSize is set; files with a frame_size outside
// [MinFrameSize, MaxFrameSize] are rejected.
const (
	DefaultFrameSize = 1 << 20
	MinFrameSize     = 1 << 10
	MaxFrameSize     = 1 << 26
)

// DefaultFrameSize2 is the frame size Encode uses for a format 2 table of
// the given number of entries: the largest power of two at most entries/4,
// clamped to [2^20, 2^24]. Chosen by measurement (SPEC.md section 5):
// larger frames compress the 4-bit codes better (a 24-6666 table: 0.129
// bits per entry with 2^20, 0.122 with 2^22, 0.117 with 2^24, 0.116 with
// 2^26), while at least four frames per table, where the table is large
// enough, keep compression and decompression parallel.
func DefaultFrameSize2(entries uint64) int {
	s := 1 << 24
	for s > 1<<20 && uint64(s) > entries/4 {
		s >>= 1
	}
	return s
}

// BitsPerEntry is the only entry width of format 1.x: one byte per entry.
const BitsPerEntry = 8

// GoalCustom is Header.GoalName for a goal that is neither blank-last nor
// blank-first.
const GoalCustom = "custom"

// Header is the JSON header of a table file, plus the file's version from
// the fixed prefix. Key names are fixed and case-sensitive; see SPEC.md for
// the range of every field. Readers ignore unknown keys. The json tags are
// the one list of the keys: the reader's (headerKeys) and the writer's;
// since:"N" marks a key of major version N and later.
type Header struct {
	// Major and Minor are the file format version of the fixed prefix (not
	// JSON keys). The reader sets them; for Encode, Major 0 means
	// MajorVersion (2) and MajorVersion1 writes format 1.0.
	Major, Minor uint16 `json:"-"`

	Width          int      `json:"width"`           // columns, 2..8 (puzzle.MinSide..MaxSide)
	Height         int      `json:"height"`          // rows, 2..8
	Goal           []int    `json:"goal"`            // tile in each cell (reading order), 0 = blank; len Width*Height
	GoalName       string   `json:"goal_name"`       // "blank-last", "blank-first" or "custom"
	Tiles          []int    `json:"tiles"`           // pattern tiles, strictly ascending, in 1..N-1; all of them for an exact table
	Kind           Kind     `json:"kind"`            // KindExact, KindAdditive or KindZeroAware (never KindCatalogue)
	Ranking        string   `json:"ranking"`         // puzzle.RankingLehmerHalf (exact) or puzzle.RankingCellsetOrder (additive)
	RankingVersion int      `json:"ranking_version"` // puzzle.RankingVersion
	Entries        uint64   `json:"entries"`         // number of entries = pattern size
	BitsPerEntry   int      `json:"bits_per_entry"`  // 8: one byte per entry, the value in moves
	MaxValue       int      `json:"max_value"`       // largest value in the table, 0..254
	Histogram      []uint64 `json:"histogram"`       // histogram[v] = number of entries with value v; len MaxValue+1; sums to Entries
	RawSHA256      string   `json:"raw_sha256"`      // lowercase hex SHA-256 of the Entries raw bytes
	Generator      string   `json:"generator"`       // free text naming the producing program, e.g. "tilepdb pdbgen 0.1.0"
	FrameSize      int      `json:"frame_size"`      // entries per zstd frame (the last may hold fewer), MinFrameSize..MaxFrameSize; even in format 2
	Frames         []int64  `json:"frames"`          // compressed size in bytes of each frame, in order; len ceil(Entries/FrameSize)
	// Format 2 only (absent in 1.0 files; Encode fills both):
	Encoding      string `json:"encoding,omitempty" since:"2"`       // the codec: EncodingHalf4 or EncodingHalf8
	PayloadSHA256 string `json:"payload_sha256,omitempty" since:"2"` // lowercase hex SHA-256 of the stored frames (all bytes after the header checksum)
}

// Version returns the file format version as "major.minor", e.g. "2.0"
// (Major 0, a table not yet written, counts as MajorVersion).
func (h *Header) Version() string {
	major := h.Major
	if major == 0 {
		major = MajorVersion
	}
	return fmt.Sprintf("%d.%d", major, h.Minor)
}

// Table is one decoded table: its header, the pattern it describes and the
// raw values. len(Values) == Header.Entries == Pattern.Size(), and
// Values[Pattern.Rank(pos)] is the value (moves) of the state pos.
type Table struct {
	Header  Header
	Pattern *puzzle.Pattern
	Values  []uint8
	// Regions is the region numbering of a zero-aware table (Header.Kind
	// KindZeroAware): its index is puzzle.RankingCellsetOrderRegion and
	// len(Values) = Regions.Size(). nil for the other kinds.
	Regions *puzzle.Regions
	// Codes is the table as its format 2 codes, two per byte, when it was
	// read by ReadCodesFile (Values is then nil): CodeValue.
	Codes []uint8

	// headerOnly marks a table of which only the header was read
	// (readTableHeader, for SetPlan.CheckHeaders): no Values, never
	// looked up, never returned.
	headerOnly bool
}

// NewTable wraps values built for p: Values[rank] is the value of the state
// with that rank under p's ranking scheme. It fills every header field from
// p and values (histogram, max, SHA-256, kind, ranking...), except
// FrameSize (0: the default of the version Encode writes), Frames,
// Encoding and PayloadSHA256, which Encode fills. values is not
// copied. It fails when len(values) != p.Size() or a value is puzzle.Unreached
// (255).
func NewTable(p *puzzle.Pattern, values []uint8, generator string) (*Table, error) {
	if p == nil {
		return nil, fmt.Errorf("tilepdb: NewTable: nil pattern")
	}
	if uint64(len(values)) != p.Size() {
		return nil, fmt.Errorf("tilepdb: NewTable: %d values for pattern %s, want %d", len(values), p, p.Size())
	}
	st := computeStats(values)
	if n := st.counts[puzzle.Unreached]; n != 0 {
		return nil, fmt.Errorf("tilepdb: NewTable: %d entries hold the reserved value 255 (unreached), first at rank %d", n, firstIndex(values, puzzle.Unreached))
	}
	h := patternHeader(p)
	h.Entries = uint64(len(values))
	h.BitsPerEntry = BitsPerEntry
	h.MaxValue = st.counts.Max()
	h.Histogram = st.counts.Histogram()
	h.RawSHA256 = st.sha
	h.Generator = generator
	return &Table{Header: h, Pattern: p, Values: values}, nil
}

// patternHeader returns the header fields determined by the pattern alone.
func patternHeader(p *puzzle.Pattern) Header {
	h := Header{
		Width:          p.Geom.W,
		Height:         p.Geom.H,
		Goal:           make([]int, len(p.Goal)),
		GoalName:       goalName(p.Geom, p.Goal),
		Tiles:          make([]int, len(p.Tiles)),
		Kind:           KindAdditive,
		Ranking:        p.Ranking(),
		RankingVersion: puzzle.RankingVersion,
		Entries:        p.Size(),
		BitsPerEntry:   BitsPerEntry,
	}
	for i, t := range p.Goal {
		h.Goal[i] = int(t)
	}
	for i, t := range p.Tiles {
		h.Tiles[i] = int(t)
	}
	if p.Exact {
		h.Kind = KindExact
	}
	return h
}

func goalName(g puzzle.Geometry, goal puzzle.Board) string {
	switch n := puzzle.GoalName(g, goal); n {
	case puzzle.GoalBlankLast, puzzle.GoalBlankFirst:
		return n
	}
	return GoalCustom
}

// Value returns the entry of the state with full position vector pos
// (pos[t] = cell of tile t, len N; only the pattern tiles are read for an
// additive table, and the blank too for a zero-aware one). pos must be a valid state (solvable for an exact table);
// it is not checked. Safe for concurrent use.
func (t *Table) Value(pos []uint8) uint8 {
	if t.Regions != nil {
		return t.Values[t.Regions.Index(pos)]
	}
	return t.Values[t.Pattern.Rank(pos)]
}

// stats are the header fields computed from the raw values.
type stats struct {
	counts Counts
	sha    string // lowercase hex SHA-256
}

// computeStats hashes and counts values; the SHA-256 runs concurrently
// with the count.
func computeStats(values []uint8) stats {
	done := make(chan string, 1)
	go func() {
		sum := sha256.Sum256(values)
		done <- hex.EncodeToString(sum[:])
	}()
	st := stats{counts: CountValues(values)}
	st.sha = <-done
	return st
}

// Counts is a recount of a table's values: Counts[v] is the number of
// entries holding the value v. The header's max_value and histogram record
// it: NewTable fills them from a Counts, and readers and checkers compare
// them with one (Mismatches), so that the recount is written once.
type Counts [256]uint64

// CountValues counts values, with four interleaved counters (one pass,
// no allocation).
func CountValues(values []uint8) Counts {
	var c [4]Counts
	i := 0
	for ; i+4 <= len(values); i += 4 {
		c[0][values[i]]++
		c[1][values[i+1]]++
		c[2][values[i+2]]++
		c[3][values[i+3]]++
	}
	for ; i < len(values); i++ {
		c[0][values[i]]++
	}
	for v := range c[0] {
		c[0][v] += c[1][v] + c[2][v] + c[3][v]
	}
	return c[0]
}

// Max is the largest value with a non-zero count, 0 when there is none
// (an empty table): the header's max_value.
func (c *Counts) Max() int {
	for v := len(c) - 1; v > 0; v-- {
		if c[v] != 0 {
			return v
		}
	}
	return 0
}

// Histogram returns the counts of the values 0..Max, the header's
// histogram field (a new slice).
func (c *Counts) Histogram() []uint64 {
	return append([]uint64(nil), c[:c.Max()+1]...)
}

// Mismatches compares the header's max_value and histogram with the
// recount c and describes each disagreement, in this order: max_value,
// then the histogram (one description naming the first value whose count
// differs and how many values differ; counts beyond the histogram's length
// are 0, and so are the recount's beyond 255). It returns nil when they
// agree.
func (c *Counts) Mismatches(h *Header) []string {
	var out []string
	if m := c.Max(); h.MaxValue != m {
		out = append(out, fmt.Sprintf("header max_value is %d, the largest value in the table is %d", h.MaxValue, m))
	}
	first, differ := -1, 0
	for v := range max(len(h.Histogram), len(c)) {
		var stored, counted uint64
		if v < len(h.Histogram) {
			stored = h.Histogram[v]
		}
		if v < len(c) {
			counted = c[v]
		}
		if stored != counted {
			if first < 0 {
				first = v
			}
			differ++
		}
	}
	if first >= 0 {
		var stored, counted uint64
		if first < len(h.Histogram) {
			stored = h.Histogram[first]
		}
		if first < len(c) {
			counted = c[first]
		}
		msg := fmt.Sprintf("header histogram does not match the table: value %d: header says %d entries, table has %d", first, stored, counted)
		if differ > 1 {
			msg += fmt.Sprintf(" (%d values differ)", differ)
		}
		out = append(out, msg)
	}
	return out
}

func firstIndex(values []uint8, v uint8) int {
	for i, x := range values {
		if x == v {
			return i
		}
	}
	return -1
}

// frameCount is ceil(entries/frameSize); frameSize must be positive.
func frameCount(entries uint64, frameSize int) uint64 {
	fs := uint64(frameSize)
	return entries/fs + min(entries%fs, 1)
}

// minFrameLen is a lower bound on the compressed size of a valid zstd frame
// (with content size and content checksum, no dictionary) holding raw bytes:
// 4 magic + 1 descriptor + 1 content size, 4 bytes per block of at most
// 128 KiB (an RLE block), 4 checksum bytes. It bounds the decompression
// ratio so that a small file cannot make the reader allocate a huge table.
func minFrameLen(raw uint64) uint64 {
	const blockMax = 128 << 10
	blocks := raw/blockMax + min(raw%blockMax, 1)
	return 4 + 1 + 1 + 4*max(blocks, 1) + 4
}

// addOverflows reports whether a+b overflows int64 (both non-negative).
func addOverflows(a, b int64) bool {
	_, carry := bits.Add64(uint64(a), uint64(b), 0)
	return carry != 0 || a+b < 0
}
