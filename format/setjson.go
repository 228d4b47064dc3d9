package format

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxSetFileDepth is how deep arrays and objects may nest in a set file,
// the top-level object counting as 1 (SPEC.md section 10.1; a set file
// needs 4: object, parts, part, tiles; a catalogue 5, section 12). Deeper nesting, which only
// unknown keys could hold, is refused before any reader's stack is at risk.
const MaxSetFileDepth = 64

// jsonNum is a JSON number literal as written in a set file.
type jsonNum string

// jsonObject is a JSON object of a set file: its keys, each once.
type jsonObject map[string]any

// setJSONError is a JSON syntax error of a set file, at byte Offset.
type setJSONError struct {
	Msg    string
	Offset int
}

func (e *setJSONError) Error() string { return fmt.Sprintf("%s at byte %d", e.Msg, e.Offset) }

// parseSetJSON parses the bytes of a set file by the JSON rules of SPEC.md
// section 10.1: no byte-order mark, valid UTF-8, one JSON value (RFC 8259)
// and nothing after it but JSON white space (space, tab, LF, CR), a key at
// most once in each object (compared byte for byte), no \u escape of a
// lone surrogate, arrays and objects nested at most MaxSetFileDepth deep.
// Objects become jsonObject, arrays []any, numbers jsonNum, strings
// string, true/false bool, null nil. The error's message is what the JS
// and Java readers print too (readers/js/json.mjs, readers/java Json.java).
func parseSetJSON(data []byte) (any, error) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, fmt.Errorf("starts with a byte-order mark")
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("not valid UTF-8")
	}
	p := &jsonParser{s: data}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.s) {
		return nil, p.fail("invalid character after top-level value")
	}
	return v, nil
}

// jsonParser is the one strict JSON parser of the package, for set files
// (parseSetJSON: a tree, byte offsets in errors, nesting at most
// MaxSetFileDepth) and table headers (members: the header object's
// members as subslices, the values below them only scanned).
type jsonParser struct {
	s []byte
	i int
	// skip scans values without building them: no allocation, no
	// duplicate-key check and no length limit inside them, and no depth
	// limit (the header's text has passed json.Valid, which bounds it).
	skip bool
}

func (p *jsonParser) fail(msg string) error { return &setJSONError{Msg: msg, Offset: p.i} }

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// value parses one value; depth is the number of arrays and objects
// around it.
func (p *jsonParser) value(depth int) (any, error) {
	p.ws()
	if p.i >= len(p.s) {
		return nil, p.fail("unexpected end of JSON input")
	}
	switch c := p.s[p.i]; {
	case c == '{' || c == '[':
		if depth >= MaxSetFileDepth && !p.skip {
			return nil, p.fail("JSON nested deeper than " + strconv.Itoa(MaxSetFileDepth) + " levels")
		}
		p.i++
		if c == '{' {
			return p.object(depth + 1)
		}
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case bytes.HasPrefix(p.s[p.i:], []byte("true")):
		p.i += 4
		return true, nil
	case bytes.HasPrefix(p.s[p.i:], []byte("false")):
		p.i += 5
		return false, nil
	case bytes.HasPrefix(p.s[p.i:], []byte("null")):
		p.i += 4
		return nil, nil
	}
	n := numberLen(p.s[p.i:])
	if n == 0 {
		return nil, p.fail("invalid character looking for beginning of value")
	}
	if p.skip {
		p.i += n
		return nil, nil
	}
	if n >= 400 {
		return nil, p.fail("number literal too long")
	}
	num := jsonNum(p.s[p.i : p.i+n])
	p.i += n
	return num, nil
}

func (p *jsonParser) object(depth int) (any, error) {
	var m jsonObject
	if !p.skip {
		m = jsonObject{}
	}
	p.ws()
	if p.peek() == '}' {
		p.i++
		return m, nil
	}
	for {
		p.ws()
		if p.peek() != '"' {
			return nil, p.fail("looking for beginning of object key string")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.peek() != ':' {
			return nil, p.fail("after object key: want ':'")
		}
		p.i++
		if _, dup := m[k]; dup && !p.skip {
			return nil, p.fail("duplicate key " + QuoteName(k))
		}
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		if !p.skip {
			m[k] = v
		}
		p.ws()
		switch p.peek() {
		case ',':
			p.i++
			continue
		case '}':
			p.i++
			return m, nil
		}
		return nil, p.fail("after object key:value pair: want ',' or '}'")
	}
}

// members calls fn with the key (decoded) and the value (a subslice of
// p.s, not parsed) of each member of the JSON object p.s, in order; it
// stops at fn's first error. The values are scanned in skip mode. p.s
// must be one valid JSON object (json.Valid): members is the header's
// walk (parseHeader), whose syntax errors encoding/json words.
func (p *jsonParser) members(fn func(key string, value []byte) error) error {
	p.ws()
	p.i++ // past '{'
	for {
		p.ws()
		if p.peek() == '}' {
			return nil
		}
		p.skip = false
		key, err := p.str()
		if err != nil {
			return err
		}
		p.ws()
		p.i++ // past ':'
		p.ws()
		p.skip = true
		start := p.i
		if _, err := p.value(1); err != nil {
			return err
		}
		if err := fn(key, p.s[start:p.i]); err != nil {
			return err
		}
		p.ws()
		if p.peek() == ',' {
			p.i++
		}
	}
}

func (p *jsonParser) array(depth int) (any, error) {
	a := []any{}
	p.ws()
	if p.peek() == ']' {
		p.i++
		return a, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		if !p.skip {
			a = append(a, v)
		}
		p.ws()
		switch p.peek() {
		case ',':
			p.i++
			continue
		case ']':
			p.i++
			return a, nil
		}
		return nil, p.fail("after array element: want ',' or ']'")
	}
}

// skipStr moves past the string literal starting at its opening quote
// (skip mode: the text is valid JSON).
func (p *jsonParser) skipStr() {
	for p.i++; p.i < len(p.s) && p.s[p.i] != '"'; p.i++ {
		if p.s[p.i] == '\\' {
			p.i++
		}
	}
	p.i++
}

// str parses a string literal starting at its opening quote (in skip
// mode it only finds its end, skipStr).
func (p *jsonParser) str() (string, error) {
	if p.skip {
		p.skipStr()
		return "", nil
	}
	p.i++
	var out []byte
	start := p.i
	for {
		if p.i >= len(p.s) {
			return "", p.fail("unexpected end of JSON input in string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			out = append(out, p.s[start:p.i]...)
			p.i++
			return string(out), nil
		case c < 0x20:
			return "", p.fail("invalid control character in string literal")
		case c != '\\':
			p.i++
			continue
		}
		out = append(out, p.s[start:p.i]...)
		e := byte(0)
		if p.i+1 < len(p.s) {
			e = p.s[p.i+1]
		}
		if simple, ok := jsonEscapes[e]; ok {
			out = append(out, simple)
			p.i += 2
			start = p.i
			continue
		}
		r, ok := p.hex4(p.i + 2)
		if e != 'u' || !ok {
			return "", p.fail("invalid escape in string literal")
		}
		n := 6
		if utf16.IsSurrogate(r) {
			r2, ok2 := rune(0), false
			if r < 0xdc00 && p.i+7 < len(p.s) && p.s[p.i+6] == '\\' && p.s[p.i+7] == 'u' {
				r2, ok2 = p.hex4(p.i + 8)
			}
			if !ok2 || r2 < 0xdc00 || r2 > 0xdfff {
				return "", p.fail("lone surrogate in \\u escape")
			}
			r, n = utf16.DecodeRune(r, r2), 12
		}
		out = utf8.AppendRune(out, r)
		p.i += n
		start = p.i
	}
}

var jsonEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 reads 4 hex digits at i.
func (p *jsonParser) hex4(i int) (rune, bool) {
	if i+4 > len(p.s) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.s[i:i+4]), 16, 16) // hex digits only: no sign, prefix or _
	return rune(v), err == nil
}

// numberLen is the length of the JSON number literal at the start of s
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), 0 if there is none.
func numberLen(s []byte) int {
	i := 0
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		digits()
	default:
		return 0
	}
	if i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		i++
		digits()
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			i = j
		}
	}
	return i
}

// QuoteName quotes a name read from a file for a message: Go's %+q
// (strconv.QuoteToASCII): printable ASCII as is, `"` and `\` escaped,
// \a \b \f \n \r \t \v, other bytes below 0x80 as \xHH, other characters as
// \uHHHH or \UHHHHHHHH (lowercase hex). The JS and Java readers quote by
// the same rule, so their messages stay byte-identical to pdbgen's, and no
// control character from a file reaches a terminal.
func QuoteName(s string) string { return strconv.QuoteToASCII(s) }

// jsonKind names the JSON type of a parsed value in messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "bool"
	case []any:
		return "array"
	case jsonObject:
		return "object"
	}
	return "number"
}

// jsonInt converts a parsed value to an integer of the set file: a JSON
// number without fraction or exponent ("-0" is 0) within int64; the
// message says what is wrong.
func jsonInt(v any) (int, string) {
	n, ok := v.(jsonNum)
	if !ok {
		return 0, "want an integer, found " + jsonKind(v)
	}
	if bytes.ContainsAny([]byte(n), ".eE") {
		return 0, string(n) + " is not an integer"
	}
	x, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || x < math.MinInt || x > math.MaxInt {
		return 0, string(n) + " is out of range"
	}
	return int(x), ""
}

// setProblem is one problem of a set file: partition is 0 for a set file
// of version 1 and for the file as a whole, else the partition's number
// (from 1) in a catalogue (version 2); part is 0 for the file or the
// partition as a whole, else the part's number (from 1, within its
// partition).
type setProblem struct {
	partition, part int
	msg             string
}

// decodeSetFile reads a parsed set file by SPEC.md sections 10.2 and 12: a
// JSON object whose tilepdb_set (checked first) is SetVersion or
// CatalogueVersion, then every required key present, not null, of its
// type, in the order width, height, goal, then parts (version 1) or
// partitions (version 2, each an array of parts), then for each part the
// keys of partKeys. It returns the problems in that order. The set file is
// nil when a problem concerns the file as a whole (its parts cannot be
// checked); otherwise the partitions and parts with problems are to be
// left out of later checks.
func decodeSetFile(v any) (*SetFile, []setProblem) {
	obj, ok := v.(jsonObject)
	if !ok {
		return nil, []setProblem{{msg: "not a set file: want a JSON object, found " + jsonKind(v)}}
	}
	d := &setDecoder{}
	var sf SetFile
	d.intKey(obj, "tilepdb_set", 0, 0, &sf.Version)
	if len(d.probs) > 0 {
		return nil, d.probs
	}
	if sf.Version != SetVersion && sf.Version != CatalogueVersion {
		return nil, []setProblem{{msg: fmt.Sprintf("set file version %d is not supported (this reader supports %d and %d)", sf.Version, SetVersion, CatalogueVersion)}}
	}
	d.intKey(obj, "width", 0, 0, &sf.Width)
	d.intKey(obj, "height", 0, 0, &sf.Height)
	d.intsKey(obj, "goal", 0, 0, &sf.Goal)
	key, want := "parts", "objects"
	if sf.Version == CatalogueVersion {
		key, want = "partitions", "arrays"
	}
	pv, msg := field(obj, key)
	list, ok := pv.([]any)
	if msg == "" && !ok {
		msg = "key " + strconv.Quote(key) + ": want an array of " + want + ", found " + jsonKind(pv)
	}
	if msg != "" {
		d.bad(0, 0, msg)
		return nil, d.probs
	}
	fileProbs := len(d.probs)
	if sf.Version == SetVersion {
		sf.Parts = d.parts(0, list)
	} else {
		sf.Partitions = make([][]SetPart, len(list))
		for i, pv := range list {
			ps, ok := pv.([]any)
			if !ok {
				d.bad(i+1, 0, "want an array, found "+jsonKind(pv))
				continue
			}
			sf.Partitions[i] = d.parts(i+1, ps)
		}
	}
	if fileProbs > 0 {
		return nil, d.probs
	}
	return &sf, d.probs
}

// setDecoder collects the problems of decodeSetFile.
type setDecoder struct {
	probs []setProblem
}

func (d *setDecoder) bad(partition, part int, msg string) {
	d.probs = append(d.probs, setProblem{partition, part, msg})
}

// field fetches a required key: the value and "", or the problem.
func field(o jsonObject, key string) (any, string) {
	v, ok := o[key]
	switch {
	case !ok:
		return nil, "required key " + strconv.Quote(key) + " is missing"
	case v == nil:
		return nil, "key " + strconv.Quote(key) + " is null"
	}
	return v, ""
}

func (d *setDecoder) intKey(o jsonObject, key string, partition, part int, dst *int) {
	v, msg := field(o, key)
	if msg == "" {
		if *dst, msg = jsonInt(v); msg != "" {
			msg = "key " + strconv.Quote(key) + ": " + msg
		}
	}
	if msg != "" {
		d.bad(partition, part, msg)
	}
}

func (d *setDecoder) intsKey(o jsonObject, key string, partition, part int, dst *[]int) {
	v, msg := field(o, key)
	if msg == "" {
		if a, ok := v.([]any); !ok {
			msg = "key " + strconv.Quote(key) + ": want an array of integers, found " + jsonKind(v)
		} else {
			*dst = make([]int, len(a))
			for i, e := range a {
				var m string
				if (*dst)[i], m = jsonInt(e); m != "" {
					msg = "key " + strconv.Quote(key) + "[" + strconv.Itoa(i) + "]: " + m
					break
				}
			}
		}
	}
	if msg != "" {
		d.bad(partition, part, msg)
	}
}

func (d *setDecoder) strKey(o jsonObject, key string, partition, part int, dst *string) {
	v, msg := field(o, key)
	if msg == "" {
		s, ok := v.(string)
		if !ok {
			msg = "key " + strconv.Quote(key) + ": want a string, found " + jsonKind(v)
		}
		*dst = s
	}
	if msg != "" {
		d.bad(partition, part, msg)
	}
}

// parts decodes the parts of a version-1 set file (partition 0) or of one
// partition of a catalogue.
func (d *setDecoder) parts(partition int, list []any) []SetPart {
	out := make([]SetPart, len(list))
	for i, p := range list {
		no := i + 1
		po, ok := p.(jsonObject)
		if !ok {
			d.bad(partition, no, "want an object, found "+jsonKind(p))
			continue
		}
		sp := &out[i]
		d.intsKey(po, "tiles", partition, no, &sp.Tiles)
		d.strKey(po, "table", partition, no, &sp.Table)
		d.intsKey(po, "table_tiles", partition, no, &sp.TableTiles)
		d.strKey(po, "symmetry", partition, no, &sp.Symmetry)
		d.intsKey(po, "tile_map", partition, no, &sp.TileMap)
		d.strKey(po, "table_raw_sha256", partition, no, &sp.RawSHA256)
	}
	return out
}

// hasLoneSurrogate reports whether the JSON text js holds a \u escape of
// a surrogate (D800 to DFFF) that is not a high one followed by a \u
// escape of a low one: SPEC.md section 2 refuses it in headers (rule 1),
// as section 10.1 in set files, since encoding/json would quietly turn
// it into U+FFFD.
func hasLoneSurrogate(js []byte) bool {
	p := &jsonParser{s: js}
	inString := false
	for i := 0; i < len(js); i++ {
		switch c := js[i]; {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(js):
			if js[i+1] != 'u' {
				i++
				continue
			}
			r, ok := p.hex4(i + 2)
			if !ok || r < 0xd800 || r > 0xdfff {
				i++
				continue
			}
			if r >= 0xdc00 || i+7 >= len(js) || js[i+6] != '\\' || js[i+7] != 'u' {
				return true
			}
			if r2, ok := p.hex4(i + 8); !ok || r2 < 0xdc00 || r2 > 0xdfff {
				return true
			}
			i += 11
		}
	}
	return false
}
