package format

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseSetJSON: the JSON rules of set files (SPEC.md section 10.1),
// with the messages the JS and Java readers give too.
func TestParseSetJSON(t *testing.T) {
	cases := []struct{ in, err string }{
		{`{"a":1}`, ""},
		{" \t\r\n{\"a\":-0} \n", ""},
		{`{"a":"\ud83d\ude00"}`, ""},
		{`{"a":{"b":[1,{"c":null}]},"b":{"b":1}}`, ""},
		{"\xef\xbb\xbf{}", "starts with a byte-order mark"},
		{"{\"a\":\"\xc3\"}", "not valid UTF-8"},
		{`{"a":1,"a":2}`, `duplicate key "a" at byte 11`},
		{`{"a":{"b":1,"b":2}}`, `duplicate key "b" at byte 16`},
		{`{"a\u0000":1,"a\u0000":1}`, `duplicate key "a\x00" at byte 23`},
		{`{"a":"\ud800"}`, `lone surrogate in \u escape at byte 6`},
		{`{"a":"\udc00\ud800"}`, `lone surrogate in \u escape at byte 6`},
		{`{"a":"\ud800\u0041"}`, `lone surrogate in \u escape at byte 6`},
		{`{"a":"\x"}`, `invalid escape in string literal at byte 6`},
		{`{"a":01}`, `after object key:value pair: want ',' or '}' at byte 6`},
		{`{"a":1.}`, `after object key:value pair: want ',' or '}' at byte 6`},
		{`{"a":tru}`, `invalid character looking for beginning of value at byte 5`},
		{`{"a":1}x`, `invalid character after top-level value at byte 7`},
		{`{"a":1,}`, `looking for beginning of object key string at byte 7`},
		{`{"a" 1}`, `after object key: want ':' at byte 5`},
		{`[1 2]`, `after array element: want ',' or ']' at byte 3`},
		{`{"a":"b`, `unexpected end of JSON input in string at byte 7`},
		{"{\"a\":\"\t\"}", `invalid control character in string literal at byte 6`},
		{`{"a":`, `unexpected end of JSON input at byte 5`},
		{`{"é":1,"é":2}`, `duplicate key "\u00e9" at byte 13`},
		{`{"a":` + strings.Repeat("1", 400) + `}`, `number literal too long at byte 5`},
		{`{"a":` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}`, ""},
		{`{"a":` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `}`, `JSON nested deeper than 64 levels at byte 68`},
	}
	for _, tc := range cases {
		_, err := parseSetJSON([]byte(tc.in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%.40q: %q, want %q", tc.in, got, tc.err)
		}
	}
}

// FuzzParseSetJSON: never a panic, in the parser or in reading the keys
// of a set file; whatever the strict parser accepts is valid JSON to
// encoding/json, which decodes it to the same value.
func FuzzParseSetJSON(f *testing.F) {
	files, _ := filepath.Glob("../readers/testdata/sets/*.set.json")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"a":[1,-0,2.5e3,"\u00e9\ud83d\ude00",true,null,{}]}`))
	// catalogues (SPEC.md section 12)
	part := `{"tiles":[1],"table":"a.pdb","table_tiles":[1],"symmetry":"identity","tile_map":[1],"table_raw_sha256":"ab"}`
	f.Add([]byte(`{"tilepdb_set":2,"width":2,"height":2,"goal":[1,2,3,0],"partitions":[[` + part + `],[` + part + `,` + part + `]]}`))
	f.Add([]byte(`{"tilepdb_set":2,"width":2,"height":2,"goal":[1,2,3,0],"partitions":[[],{},null,[[]],[{"tiles":1}]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, probs := parseSetFileAll(data)
		if sf == nil && len(probs) == 0 {
			t.Fatalf("%q: neither a set file nor a problem", data)
		}
		if sf != nil && (sf.Version == CatalogueVersion) != (sf.Partitions != nil && sf.Parts == nil) {
			t.Fatalf("%q: version %d with %d parts and %d partitions", data, sf.Version, len(sf.Parts), len(sf.Partitions))
		}
		for _, p := range probs {
			if msg := p.err().Error(); strings.Contains(msg, "\n") || (p.partition > 0 && !strings.Contains(msg, "partition ")) {
				t.Fatalf("%q: problem %q", data, msg)
			}
		}
		v, err := parseSetJSON(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted %q, which encoding/json refuses", data)
		}
		var w any
		if err := json.Unmarshal(data, &w); err != nil {
			t.Fatal(err)
		}
		if !sameJSON(v, w) {
			t.Fatalf("%q: parsed %#v, encoding/json %#v", data, v, w)
		}
	})
}

// sameJSON compares a parseSetJSON value with an encoding/json one.
func sameJSON(a, b any) bool {
	switch a := a.(type) {
	case jsonObject:
		m, ok := b.(map[string]any)
		if !ok || len(m) != len(a) {
			return false
		}
		for k, v := range a {
			if !sameJSON(v, m[k]) {
				return false
			}
		}
		return true
	case []any:
		l, ok := b.([]any)
		if !ok || len(l) != len(a) {
			return false
		}
		for i := range a {
			if !sameJSON(a[i], l[i]) {
				return false
			}
		}
		return true
	case jsonNum:
		var x float64
		return json.Unmarshal([]byte(a), &x) == nil && b == x
	}
	return a == b
}
