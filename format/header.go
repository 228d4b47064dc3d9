package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// The JSON header keys, SPEC.md section 2. requiredKeys1 are required in
// every file; format 2 adds requiredKeys2.
var (
	requiredKeys1 = []string{"width", "height", "goal", "goal_name", "tiles", "kind", "ranking",
		"ranking_version", "entries", "bits_per_entry", "max_value", "histogram", "raw_sha256",
		"generator", "frame_size", "frames"}
	requiredKeys2 = []string{"encoding", "payload_sha256"}
)

// integerKeys hold an integer or an array of integers.
var integerKeys = map[string]bool{"width": true, "height": true, "goal": true, "tiles": true,
	"ranking_version": true, "entries": true, "bits_per_entry": true, "max_value": true,
	"histogram": true, "frame_size": true, "frames": true}

// fieldOf returns a pointer to the Header field of key, or nil for a key the
// header does not define. Only exact (case-sensitive) names match.
func (h *Header) fieldOf(key string, major uint16) any {
	switch key {
	case "width":
		return &h.Width
	case "height":
		return &h.Height
	case "goal":
		return &h.Goal
	case "goal_name":
		return &h.GoalName
	case "tiles":
		return &h.Tiles
	case "kind":
		return &h.Kind
	case "ranking":
		return &h.Ranking
	case "ranking_version":
		return &h.RankingVersion
	case "entries":
		return &h.Entries
	case "bits_per_entry":
		return &h.BitsPerEntry
	case "max_value":
		return &h.MaxValue
	case "histogram":
		return &h.Histogram
	case "raw_sha256":
		return &h.RawSHA256
	case "generator":
		return &h.Generator
	case "frame_size":
		return &h.FrameSize
	case "frames":
		return &h.Frames
	}
	if major >= 2 {
		switch key {
		case "encoding":
			return &h.Encoding
		case "payload_sha256":
			return &h.PayloadSHA256
		}
	}
	return nil
}

// parseHeader parses the JSON header of a file of the given major version
// strictly (SPEC.md section 2, "JSON rules"): valid UTF-8 without a
// byte-order mark and without \u escapes of lone surrogates; one JSON
// object and nothing after it but whitespace;
// keys matched case-sensitively; a duplicate key is an error; every
// required key present with a value of its type (never null); integers
// written without fraction or exponent. Keys the version does not define
// are ignored (their values must still be valid JSON). The returned error
// is a message for a *FormatError.
func parseHeader(js []byte, major uint16) (*Header, error) {
	if bytes.HasPrefix(js, []byte("\xef\xbb\xbf")) {
		return nil, errors.New("header starts with a byte-order mark")
	}
	if !utf8.Valid(js) {
		return nil, errors.New("header is not valid UTF-8")
	}
	if hasLoneSurrogate(js) {
		return nil, errors.New("header JSON: lone surrogate in \\u escape")
	}
	// The JSON is checked whole first (json.Valid allocates nothing), then
	// split into members that are subslices of js: a 16 MiB header costs
	// the values it fills in, not the copies a json.Decoder would buffer.
	if t := bytes.TrimLeft(js, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("header is not a JSON object")
	}
	if !json.Valid(js) {
		var v struct{}
		err := json.Unmarshal(js, &v) // only the syntax check runs: it fails
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, fmt.Errorf("header JSON: %v", err)
	}
	h := &Header{Major: major}
	seen := make(map[string]bool)
	err := objectMembers(js, func(rawKey, raw []byte) error {
		var key string
		if err := json.Unmarshal(rawKey, &key); err != nil {
			return fmt.Errorf("header JSON: %v", err)
		}
		if seen[key] {
			return fmt.Errorf("header: duplicate key %q", key)
		}
		seen[key] = true
		field := h.fieldOf(key, major)
		if field == nil {
			return nil // unknown key: ignored
		}
		if string(raw) == "null" {
			return fmt.Errorf("header: key %q is null", key)
		}
		if integerKeys[key] && bytes.ContainsAny(raw, ".eE") {
			return fmt.Errorf("header: key %q: integers must have no fraction or exponent", key)
		}
		if err := json.Unmarshal(raw, field); err != nil {
			return fmt.Errorf("header: key %q: %v", key, typeMsg(err))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := requiredKeys1
	if major >= 2 {
		keys = append(keys[:len(keys):len(keys)], requiredKeys2...)
	}
	for _, k := range keys {
		if !seen[k] {
			return nil, fmt.Errorf("header: required key %q is missing", k)
		}
	}
	return h, nil
}

// objectMembers calls fn with the key (a JSON string, quotes included) and
// the value of each member of the JSON object js, in order, as subslices
// of js; it stops at fn's first error. js must be one valid JSON object
// (json.Valid), so the scan only has to find where each part ends.
func objectMembers(js []byte, fn func(key, value []byte) error) error {
	i := skipSpace(js, 0) + 1 // past '{'
	for {
		i = skipSpace(js, i)
		if js[i] == '}' {
			return nil
		}
		kEnd := stringEnd(js, i)
		key := js[i:kEnd]
		i = skipSpace(js, kEnd) + 1 // past ':'
		i = skipSpace(js, i)
		vEnd := valueEnd(js, i)
		if err := fn(key, js[i:vEnd]); err != nil {
			return err
		}
		i = skipSpace(js, vEnd)
		if js[i] == ',' {
			i++
		}
	}
}

func skipSpace(js []byte, i int) int {
	for i < len(js) && (js[i] == ' ' || js[i] == '\t' || js[i] == '\r' || js[i] == '\n') {
		i++
	}
	return i
}

// stringEnd returns the index just past the JSON string starting at js[i].
func stringEnd(js []byte, i int) int {
	for i++; js[i] != '"'; i++ {
		if js[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// valueEnd returns the index just past the JSON value starting at js[i].
func valueEnd(js []byte, i int) int {
	switch js[i] {
	case '"':
		return stringEnd(js, i)
	case '{', '[':
		depth := 0
		for {
			switch js[i] {
			case '"':
				i = stringEnd(js, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	for ; i < len(js); i++ { // a number, true, false or null
		switch js[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return i
}

// typeMsg shortens encoding/json's messages about a value of the wrong type.
func typeMsg(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("a JSON %s is not a valid value (want %s)", te.Value, te.Type)
	}
	return err.Error()
}
