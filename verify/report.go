package verify

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Names of the checks, in the order they run and are reported. The rules
// are stated below and argued in full at the functions implementing them
// (ranking, exactEntries, additiveEntries, symmetry and reference in
// checks.go); V is the stored table, M the sum of the Manhattan distances
// of the pattern tiles (all tiles for an exact table) to their goal cells.
const (
	// CheckIntegrity (File only): the file's structure and checksums as
	// format.Inspect sees them: magic, version, header SHA-256, sizes,
	// zstd frames, raw SHA-256, histogram and maximum against a recount.
	CheckIntegrity = "integrity"
	// CheckHeader: every header field the pattern determines matches the
	// pattern, len(Values) = Size; for Table also the histogram and the
	// maximum against a recount.
	CheckHeader = "header"
	// CheckRanking: for an exact table, for every index i, Unrank(i) is a
	// valid, solvable state and RankCells of it is i; since there are
	// exactly Size of those this proves the ranking a bijection. For an
	// additive table, RankCells of the i-th placement in the order the
	// ranking defines is i, for every i, which proves the same of
	// RankCells; Unrank is compared on every cell set and every order, not
	// on every entry (checker.additiveRanking).
	CheckRanking = "ranking"
	// CheckGoal: the goal entry is 0.
	CheckGoal = "goal"
	// CheckUnreached: no entry holds the reserved value 255.
	CheckUnreached = "unreached"
	// CheckManhattan: V >= M and V ≡ M (mod 2), because every counted move
	// changes M by exactly ±1 and no other move changes it.
	CheckManhattan = "manhattan"
	// CheckDescent: every non-goal entry has a neighbour (one counted move
	// away) that is closer: exactly one closer for an exact table,
	// strictly smaller for an additive one. The first counted move of a
	// shortest path leads there.
	CheckDescent = "descent"
	// CheckStep: exact tables: neighbouring states differ by exactly 1
	// (a distance changes by at most 1 per move, and the state graph is
	// bipartite). Additive: when the empty cells of a placement P are
	// connected, every neighbouring placement P' has V(P') <= V(P)+1,
	// since the blank reaches the cell P' moves a tile into for free; with
	// CheckManhattan's parity this gives |V(P)-V(P')| = 1 when both have
	// connected empty cells.
	CheckStep = "step"
	// CheckSymmetry: entries related by a board symmetry that fixes the
	// goal (up to renaming tiles) and the tile set are equal, because the
	// symmetry maps the (abstract) state graph onto itself and fixes the
	// search's start. Skipped when no such symmetry exists.
	CheckSymmetry = "symmetry"
	// CheckReference (Options.Deep): every entry equals the one Reference
	// computes; each differing entry is one finding.
	CheckReference = "reference"
)

// checkOrder lists the checks in report order.
var checkOrder = []string{
	CheckIntegrity, CheckHeader, CheckRanking, CheckGoal, CheckUnreached,
	CheckManhattan, CheckDescent, CheckStep, CheckSymmetry, CheckReference,
	CheckZeroAware,
}

// checkWidth is the width of the check column of the text report: the
// longest check name ("zero-aware").
var checkWidth = func() int {
	w := 0
	for _, c := range checkOrder {
		w = max(w, len(c))
	}
	return w
}()

// CheckedLine is a "checked" row of the text report: "  checked", the
// check's name padded to the longest check name, its status ("ok" or "N
// findings") padded to 16 columns, and took (the time, or "" for none),
// without trailing blanks, so that the statuses of every row start in
// one column.
func CheckedLine(check, status, took string) string {
	return strings.TrimRight(fmt.Sprintf("  checked %-*s %-16s %s", checkWidth, check, status, took), " ")
}

func checkRank(name string) int {
	for i, c := range checkOrder {
		if c == name {
			return i
		}
	}
	return len(checkOrder)
}

// Finding is one inconsistency found by a check.
type Finding struct {
	Check string // one of the Check* names
	Index int64  // the table entry concerned, or -1 when it is not about one entry
	Msg   string // what is wrong
}

// String formats the finding as "check: entry i: msg".
func (f Finding) String() string {
	if f.Index < 0 {
		return f.Check + ": " + f.Msg
	}
	return fmt.Sprintf("%s: entry %d: %s", f.Check, f.Index, f.Msg)
}

// Report is the result of verifying one table. Every check reports every
// inconsistency it finds: Counts holds the full number per check, Findings
// the first MaxFindingsPerCheck of each (in index order), sorted by check.
type Report struct {
	Path     string                   // the file verified ("" for an in-memory table)
	Pattern  string                   // the pattern, e.g. "4x4 blank-last tiles 1,2,3" ("" if unknown)
	Entries  uint64                   // number of table entries (0 if unknown)
	Checked  []string                 // checks that ran, in order
	Skipped  []string                 // checks that did not run, as "check: reason"
	Findings []Finding                // the findings kept, grouped by check in check order
	Counts   map[string]uint64        // number of findings per check, including those not kept
	Elapsed  map[string]time.Duration // time spent in each check that ran (checks sharing a pass share its time)
	Passes   [][]string               // groups of checks that ran together in one pass over the entries, each with the pass's time in Elapsed
	Wall     time.Duration            // wall time of the whole verification
}

// passOf returns the group of checks that ran in one pass with check c, or
// nil when c ran alone.
func (r *Report) passOf(c string) []string {
	for _, g := range r.Passes {
		for _, x := range g {
			if x == c {
				return g
			}
		}
	}
	return nil
}

// Total is the number of findings over all checks.
func (r *Report) Total() uint64 {
	var n uint64
	for _, c := range r.Counts {
		n += c
	}
	return n
}

// OK reports whether no check found anything.
func (r *Report) OK() bool { return r.Total() == 0 }

// WriteText writes the report for a person: one line per kept finding, a
// note per check whose findings were not all kept, the checks run and
// skipped, and the total count as the last line.
func (r *Report) WriteText(w io.Writer) error {
	var sb strings.Builder
	name := r.Path
	if name == "" {
		name = "table"
	}
	if r.Pattern != "" {
		fmt.Fprintf(&sb, "%s: %s, %d entries\n", name, r.Pattern, r.Entries)
	} else {
		fmt.Fprintf(&sb, "%s\n", name)
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&sb, "  %s\n", f)
	}
	kept := map[string]uint64{}
	for _, f := range r.Findings {
		kept[f.Check]++
	}
	for _, c := range checkOrder {
		if n := r.Counts[c]; n > kept[c] {
			fmt.Fprintf(&sb, "  %s: %d more findings not shown\n", c, n-kept[c])
		}
	}
	// Checks in checkOrder, as in the JSON report, each "checked" or
	// "skipped" (the order they ran in may differ: --deep).
	ran := map[string]bool{}
	for _, c := range r.Checked {
		ran[c] = true
	}
	skipped := map[string][]string{}
	for _, s := range r.Skipped {
		name, _, _ := strings.Cut(s, ": ")
		skipped[name] = append(skipped[name], s)
	}
	for _, c := range checkOrder {
		for _, s := range skipped[c] {
			fmt.Fprintf(&sb, "  skipped %s\n", s)
		}
		delete(skipped, c)
		if !ran[c] {
			continue
		}
		status := "ok"
		if n := r.Counts[c]; n > 0 {
			status = fmt.Sprintf("%d findings", n)
		}
		took := r.Elapsed[c].Round(time.Millisecond).String()
		if g := r.passOf(c); len(g) > 1 {
			if c == g[0] {
				took += " (one pass: " + strings.Join(g, ", ") + ")"
			} else {
				took = "(in the " + g[0] + " pass)"
			}
		}
		sb.WriteString(CheckedLine(c, status, took) + "\n")
	}
	for _, s := range r.Skipped { // any not named by a check
		name, _, _ := strings.Cut(s, ": ")
		if _, ok := skipped[name]; ok {
			fmt.Fprintf(&sb, "  skipped %s\n", s)
		}
	}
	fmt.Fprintf(&sb, "%d findings\n", r.Total())
	_, err := io.WriteString(w, sb.String())
	return err
}

// tally collects the findings of one piece of work: all are counted, the
// first limit of each check are kept (formatted lazily, so that millions
// of findings cost little).
type tally struct {
	limit  int
	counts map[string]uint64
	kept   []Finding
}

func newTally(limit int) *tally { return &tally{limit: limit} }

// addf counts a finding and keeps it if its check has room.
func (t *tally) addf(check string, index int64, format string, args ...any) {
	if t.counts == nil {
		t.counts = map[string]uint64{}
	}
	t.counts[check]++
	if t.counts[check] <= uint64(t.limit) {
		t.kept = append(t.kept, Finding{Check: check, Index: index, Msg: fmt.Sprintf(format, args...)})
	}
}

// merge adds the findings of t into the report, keeping at most limit per
// check. Tallies merged in index order keep the first findings.
func (r *Report) merge(t *tally, limit int) {
	if t == nil {
		return
	}
	kept := map[string]int{}
	for _, f := range r.Findings {
		kept[f.Check]++
	}
	for _, f := range t.kept {
		if kept[f.Check] < limit {
			r.Findings = append(r.Findings, f)
			kept[f.Check]++
		}
	}
	for c, n := range t.counts {
		r.Counts[c] += n
	}
}

// sortFindings groups the findings by check, in check order, keeping the
// order within a check.
func (r *Report) sortFindings() {
	sort.SliceStable(r.Findings, func(i, j int) bool {
		return checkRank(r.Findings[i].Check) < checkRank(r.Findings[j].Check)
	})
}
