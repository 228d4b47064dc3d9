package verify

import (
	"encoding/json"
	"io"
	"strings"
	"time"
)

// JSONVersion is the version of the JSON report schema below. Fields may
// be added within a version; a field is removed or changes meaning only
// with a new version.
const JSONVersion = 1

// JSON statuses of a check.
const (
	StatusOK      = "ok"      // ran, no findings
	StatusFailed  = "failed"  // ran, at least one finding
	StatusSkipped = "skipped" // did not run; JSONCheck.Reason says why
)

// JSONReport is the machine-readable form of a Report (Report.JSON), or of
// a file that could not be checked at all (ErrorJSON). Written as one
// object per line (JSON Lines) by `pdbgen verify --json`:
//
//	{"version":1,"file":"data/8puzzle.pdb","pattern":"3x3 blank-last exact (all tiles)",
//	 "entries":181440,"ok":true,"findings":0,"seconds":0.041,
//	 "checks":[{"name":"integrity","status":"ok","count":0,"findings":[],"seconds":0.009},
//	           ...,
//	           {"name":"reference","status":"skipped","count":0,"findings":[],"seconds":0,
//	            "reason":"not requested (--deep)"}]}
type JSONReport struct {
	Version  int         `json:"version"`           // JSONVersion
	File     string      `json:"file"`              // the path verified; "" for an in-memory table
	Pattern  string      `json:"pattern,omitempty"` // e.g. "4x4 blank-last tiles 1,2,3"; absent when unknown (undecodable file)
	Entries  uint64      `json:"entries"`           // table entries; 0 when unknown
	OK       bool        `json:"ok"`                // no finding and no error
	Findings uint64      `json:"findings"`          // findings over all checks (all counted, not only those listed)
	Seconds  float64     `json:"seconds"`           // wall time of the whole verification, in seconds
	Checks   []JSONCheck `json:"checks"`            // every check in the fixed order of the Check* constants; [] with Error
	Error    string      `json:"error,omitempty"`   // set when the file could not be checked (missing, unreadable, interrupted): trouble, not bad data
}

// JSONCheck is one check of a JSONReport.
type JSONCheck struct {
	Name     string        `json:"name"`             // one of the Check* names
	Status   string        `json:"status"`           // StatusOK, StatusFailed or StatusSkipped
	Count    uint64        `json:"count"`            // number of findings, all of them
	Findings []JSONFinding `json:"findings"`         // the first Options.MaxFindingsPerCheck findings, in entry order; never null
	Seconds  float64       `json:"seconds"`          // time spent (checks sharing a pass share its time); 0 when skipped
	Reason   string        `json:"reason,omitempty"` // why the check was skipped
}

// JSONFinding is one finding of a JSONCheck.
type JSONFinding struct {
	Index *int64 `json:"index,omitempty"` // the table entry concerned; absent when the finding is not about one entry
	Msg   string `json:"msg"`             // what is wrong, one line
}

// JSON returns the report in the documented JSON schema (JSONReport).
func (r *Report) JSON() *JSONReport {
	j := &JSONReport{
		Version:  JSONVersion,
		File:     r.Path,
		Pattern:  r.Pattern,
		Entries:  r.Entries,
		OK:       r.OK(),
		Findings: r.Total(),
		Seconds:  seconds(r.Wall),
		Checks:   []JSONCheck{},
	}
	ran := map[string]bool{}
	for _, c := range r.Checked {
		ran[c] = true
	}
	skipped := map[string]string{}
	for _, s := range r.Skipped {
		name, reason, _ := strings.Cut(s, ": ")
		skipped[name] = reason
	}
	for _, name := range checkOrder {
		c := JSONCheck{Name: name, Count: r.Counts[name], Findings: []JSONFinding{}}
		switch {
		case ran[name]:
			c.Status = StatusOK
			if c.Count > 0 {
				c.Status = StatusFailed
			}
			c.Seconds = seconds(r.Elapsed[name])
		default:
			reason, ok := skipped[name]
			if !ok {
				continue // neither ran nor skipped: not part of this report
			}
			c.Status, c.Reason = StatusSkipped, reason
		}
		for _, f := range r.Findings {
			if f.Check != name {
				continue
			}
			jf := JSONFinding{Msg: f.Msg}
			if f.Index >= 0 {
				i := f.Index
				jf.Index = &i
			}
			c.Findings = append(c.Findings, jf)
		}
		j.Checks = append(j.Checks, c)
	}
	return j
}

// ErrorJSON is the JSON report of a file that could not be checked: err
// says why (ok false, no checks).
func ErrorJSON(path string, err error) *JSONReport {
	return &JSONReport{Version: JSONVersion, File: path, Checks: []JSONCheck{}, Error: err.Error()}
}

// WriteJSON writes r.JSON() as one line of JSON followed by a newline.
func (r *Report) WriteJSON(w io.Writer) error {
	return r.JSON().Write(w)
}

// Write writes j as one line of JSON followed by a newline.
func (j *JSONReport) Write(w io.Writer) error {
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// seconds is d in seconds, rounded to the microsecond.
func seconds(d time.Duration) float64 {
	return d.Round(time.Microsecond).Seconds()
}
