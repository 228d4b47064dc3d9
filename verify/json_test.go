package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
)

// decodeLine checks that the report is one line of JSON and decodes it
// both into the schema types (unknown fields refused) and into a generic
// map, to check key names.
func decodeLine(t *testing.T, j *JSONReport) (*JSONReport, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	if err := j.Write(&buf); err != nil {
		t.Fatal(err)
	}
	line := buf.String()
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
		t.Fatalf("not one line: %q", line)
	}
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	var back JSONReport
	if err := dec.Decode(&back); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return &back, m
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

// TestJSONSchema pins the documented key names and the layout: every
// check in order, statuses, counts against kept findings, indexes only on
// per-entry findings.
func TestJSONSchema(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3)
	values := mustReference(t, p)
	goal := p.RankCells(p.GoalCells())
	for i := range values {
		if uint64(i) != goal {
			values[i]++ // every entry off by one: manhattan parity fails everywhere
		}
	}
	r := mustVerify(t, tableWith(t, p, values), Options{MaxFindingsPerCheck: 3})
	j := r.JSON()
	back, m := decodeLine(t, j)
	if got := keys(m); got != "checks entries file findings ok pattern seconds version" {
		t.Errorf("top-level keys %q", got)
	}
	if back.Version != 1 || back.OK || back.Findings != r.Total() || back.Entries != p.Size() ||
		back.Pattern != p.String() || back.File != "" || back.Error != "" || back.Seconds <= 0 {
		t.Errorf("report %+v", back)
	}
	var names []string
	var sum uint64
	for i, c := range back.Checks {
		names = append(names, c.Name)
		sum += c.Count
		if c.Count != r.Counts[c.Name] || len(c.Findings) > 3 || uint64(len(c.Findings)) > c.Count {
			t.Errorf("check %s: count %d (report %d), %d findings", c.Name, c.Count, r.Counts[c.Name], len(c.Findings))
		}
		want := StatusOK
		switch {
		case c.Count > 0:
			want = StatusFailed
		case c.Name == CheckIntegrity || c.Name == CheckReference || c.Name == CheckSymmetry: // no symmetry fixes this goal and tile set
			want = StatusSkipped
		}
		if c.Status != want {
			t.Errorf("check %s: status %s, want %s", c.Name, c.Status, want)
		}
		if (c.Status == StatusSkipped) != (c.Reason != "") {
			t.Errorf("check %s: status %s with reason %q", c.Name, c.Status, c.Reason)
		}
		ck := m["checks"].([]any)[i].(map[string]any)
		wantKeys := "count findings name seconds status"
		if c.Reason != "" {
			wantKeys = "count findings name reason seconds status"
		}
		if got := keys(ck); got != wantKeys {
			t.Errorf("check %s keys %q, want %q", c.Name, got, wantKeys)
		}
	}
	if sum != back.Findings {
		t.Errorf("counts sum to %d, findings %d", sum, back.Findings)
	}
	// Every check but the zero-aware one, which a plain table's report
	// leaves out.
	if want := checkOrder[:len(checkOrder)-1]; !reflect.DeepEqual(names, want) || checkOrder[len(checkOrder)-1] != CheckZeroAware {
		t.Errorf("checks %v, want %v", names, want)
	}
	man := back.Checks[checkRank(CheckManhattan)]
	if man.Count != p.Size()-1 || len(man.Findings) != 3 {
		t.Fatalf("manhattan: count %d, %d findings; want %d, 3", man.Count, len(man.Findings), p.Size()-1)
	}
	last := int64(-1)
	for _, f := range man.Findings {
		if f.Index == nil || *f.Index <= last || f.Msg == "" {
			t.Errorf("manhattan finding %+v (index must be present and increasing)", f)
			continue
		}
		last = *f.Index
	}
	if back.Checks[checkRank(CheckReference)].Reason != "not requested (--deep)" ||
		back.Checks[checkRank(CheckIntegrity)].Reason != "not a file" {
		t.Errorf("skip reasons: %+v", back.Checks)
	}
	// Findings not about one entry carry no index key.
	hdr := tableWith(t, p, mustReference(t, p))
	hdr.Header.MaxValue++
	jh := mustVerify(t, hdr, Options{}).JSON()
	_, mh := decodeLine(t, jh)
	hc := mh["checks"].([]any)[checkRank(CheckHeader)].(map[string]any)
	fs := hc["findings"].([]any)
	if len(fs) == 0 || keys(fs[0].(map[string]any)) != "msg" {
		t.Errorf("header findings %v, want objects with only msg", fs)
	}
}

// TestJSONFile: a good file, an undecodable one (integrity failed,
// everything else skipped, no pattern) and the error form.
func TestJSONFile(t *testing.T) {
	dir := t.TempDir()
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2)
	path := filepath.Join(dir, "good.pdb")
	if err := format.WriteFile(path, goodTable(t, p), 1); err != nil {
		t.Fatal(err)
	}
	r, err := File(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, _ := decodeLine(t, r.JSON())
	if !back.OK || back.File != path || back.Findings != 0 || back.Checks[0].Name != CheckIntegrity || back.Checks[0].Status != StatusOK {
		t.Errorf("good file: %+v", back)
	}
	for _, c := range back.Checks {
		if c.Status == StatusFailed || len(c.Findings) != 0 {
			t.Errorf("good file, check %+v", c)
		}
	}

	bad := filepath.Join(dir, "bad.pdb")
	if err := os.WriteFile(bad, []byte("not a table\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = File(context.Background(), bad, Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, m := decodeLine(t, r.JSON())
	if _, has := m["pattern"]; has || back.OK || back.Findings == 0 || back.Entries != 0 {
		t.Errorf("undecodable file: %+v", back)
	}
	for _, c := range back.Checks {
		want := StatusSkipped
		if c.Name == CheckIntegrity {
			want = StatusFailed
		}
		if c.Status != want {
			t.Errorf("undecodable file: check %s %s, want %s", c.Name, c.Status, want)
		}
	}

	back, m = decodeLine(t, ErrorJSON("gone.pdb", errors.New("open gone.pdb: no such file or directory")))
	if got := keys(m); got != "checks entries error file findings ok seconds version" {
		t.Errorf("error keys %q", got)
	}
	if back.OK || back.Error == "" || len(back.Checks) != 0 || back.File != "gone.pdb" {
		t.Errorf("error report %+v", back)
	}
}
