package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/atomicfile"
)

// manifestEntry is one line of a manifest: file name, entries, maximum
// value and the SHA-256 of the raw table (which, unlike the compressed
// file, does not depend on the zstd library version).
type manifestEntry struct {
	name    string
	entries uint64
	max     int
	sha     string
}

// entryOf is the manifest line of table t written as file name.
func entryOf(name string, t *format.Table) manifestEntry {
	return manifestEntry{name: name, entries: t.Header.Entries, max: t.Header.MaxValue, sha: t.Header.RawSHA256}
}

// readManifest parses a manifest: '#' comments, then tab- or
// space-separated lines "name entries max sha256". A malformed line is bad
// data (exit 1) named by file and line.
func readManifest(path string) (map[string]manifestEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	defer f.Close()
	out := map[string]manifestEntry{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Fields(s)
		if len(f) != 4 {
			return nil, dataErr(fmt.Errorf("manifest %s:%d: want 4 fields (name entries max sha256), got %d", path, line, len(f)))
		}
		n, err1 := strconv.ParseUint(f[1], 10, 64)
		m, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || len(f[3]) != 64 {
			return nil, dataErr(fmt.Errorf("manifest %s:%d: malformed line", path, line))
		}
		out[f[0]] = manifestEntry{name: f[0], entries: n, max: m, sha: f[3]}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return out, nil
}

// manifestHeader is the comment line at the top of every manifest written.
const manifestHeader = "# tilepdb manifest: file\tentries\tmax value\tSHA-256 of the raw table (pdbgen info shows it as raw_sha256)\n"

// writeManifest writes entries to path atomically (atomicfile.Write, as
// the tables are written): a header comment, then one tab-separated line
// per table.
func writeManifest(path string, entries []manifestEntry) error {
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		if _, err := io.WriteString(w, manifestHeader); err != nil {
			return err
		}
		for _, m := range entries {
			if _, err := fmt.Fprintf(w, "%s\t%d\t%d\t%s\n", m.name, m.entries, m.max, m.sha); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return nil
}
