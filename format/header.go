package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, errors.New("header is not a JSON object")
	}
	h := &Header{Major: major}
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("header JSON: %v", err)
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("header JSON: object key expected, found %v", tok)
		}
		if seen[key] {
			return nil, fmt.Errorf("header: duplicate key %q", key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("header JSON: value of %q: %v", key, err)
		}
		field := h.fieldOf(key, major)
		if field == nil {
			continue // unknown key: ignored
		}
		if string(raw) == "null" {
			return nil, fmt.Errorf("header: key %q is null", key)
		}
		if integerKeys[key] && bytes.ContainsAny(raw, ".eE") {
			return nil, fmt.Errorf("header: key %q: integers must have no fraction or exponent", key)
		}
		if err := json.Unmarshal(raw, field); err != nil {
			return nil, fmt.Errorf("header: key %q: %v", key, typeMsg(err))
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, errors.New("header JSON: unterminated object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("header JSON: data after the object")
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

// typeMsg shortens encoding/json's messages about a value of the wrong type.
func typeMsg(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("a JSON %s is not a valid value (want %s)", te.Value, te.Type)
	}
	return err.Error()
}
