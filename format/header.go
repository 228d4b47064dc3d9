package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// headerKey is one JSON key of the header (SPEC.md section 2). The keys are
// listed once, as the json tags of Header's fields (which Encode writes
// with encoding/json); a field tagged since:"N" exists from major version
// N on (else from 1). Every key of a file's version is required.
type headerKey struct {
	name    string
	field   int    // index of the field in Header
	since   uint16 // first major version with the key
	integer bool   // an integer or an array of integers
}

// headerKeys are Header's keys in field order, and keyIndex finds them by
// name.
var headerKeys, keyIndex = listHeaderKeys()

func listHeaderKeys() ([]headerKey, map[string]int) {
	var keys []headerKey
	index := map[string]int{}
	t := reflect.TypeOf(Header{})
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || name == "" {
			continue
		}
		k := headerKey{name: name, field: i, since: 1}
		if v, err := strconv.ParseUint(f.Tag.Get("since"), 10, 16); err == nil {
			k.since = uint16(v)
		}
		kind := f.Type.Kind()
		if kind == reflect.Slice {
			kind = f.Type.Elem().Kind()
		}
		k.integer = kind >= reflect.Int && kind <= reflect.Uint64
		index[name] = len(keys)
		keys = append(keys, k)
	}
	return keys, index
}

// fieldOf returns a pointer to the Header field of key, or nil for a key
// that a header of the given major version does not define. Only exact
// (case-sensitive) names match.
func (h *Header) fieldOf(key string, major uint16) (any, headerKey) {
	i, ok := keyIndex[key]
	if !ok || headerKeys[i].since > major {
		return nil, headerKey{}
	}
	return reflect.ValueOf(h).Elem().Field(headerKeys[i].field).Addr().Interface(), headerKeys[i]
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
	// split into members that are subslices of js by the package's one
	// JSON parser (jsonParser.members, which scans the values without
	// building them): a 16 MiB header costs the values it fills in, not
	// the copies a json.Decoder would buffer.
	if t := bytes.TrimLeft(js, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("header is not a JSON object")
	}
	if !json.Valid(js) {
		var v struct{}
		err := json.Unmarshal(js, &v) // only the syntax check runs: it fails
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, fmt.Errorf("header JSON: %w", err)
	}
	h := &Header{Major: major}
	seen := make(map[string]bool)
	p := &jsonParser{s: js}
	err := p.members(func(key string, raw []byte) error {
		if seen[key] {
			return fmt.Errorf("header: duplicate key %q", key)
		}
		seen[key] = true
		field, k := h.fieldOf(key, major)
		if field == nil {
			return nil // unknown key: ignored
		}
		if string(raw) == "null" {
			return fmt.Errorf("header: key %q is null", key)
		}
		if k.integer && bytes.ContainsAny(raw, ".eE") {
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
	for _, k := range headerKeys {
		if k.since <= major && !seen[k.name] {
			return nil, fmt.Errorf("header: required key %q is missing", k.name)
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
