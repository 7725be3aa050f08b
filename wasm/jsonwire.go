package main

import (
	"encoding"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// This file is the page's JSON, without encoding/json: marshal writes the
// bytes json.Marshal writes, for the kinds of value the adapter answers
// with, and readObject reads the flat objects it is given. encoding/json
// is a fifth of the page's WebAssembly (its decoder alone 220 KB, 57 KB
// gzipped); the page needs a small part of it. jsonwire_test.go holds
// marshal to json.Marshal's bytes, for every answer, and the browser
// parity test holds shedsim.run to the native json.Marshal.

// marshal returns the JSON encoding of v, byte for byte json.Marshal's for
// what the adapter encodes: booleans, numbers, strings (escaped as
// json.Marshal escapes them, HTML characters included), structs (with json
// tags, omitempty and omitzero, embedded structs promoted by Go's rules),
// pointers, interfaces, slices, arrays and encoding.TextMarshaler values.
// A value json.Marshal would refuse (a NaN or an infinity), or one it
// would write but marshal does not (a map, a []byte, a json.Marshaler, a
// channel), is an error. (A map would need sorted keys, and the sorting
// costs more than the page's answers, which have none, are worth.)
func marshal(v any) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(wireError)
			if !ok {
				panic(r)
			}
			b, err = nil, e
		}
	}()
	return appendValue(nil, reflect.ValueOf(v)), nil
}

// wireError is what marshal's helpers panic with, and marshal returns.
type wireError string

func (e wireError) Error() string { return "json: " + string(e) }

var (
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	jsonMarshalerType = reflect.TypeFor[interface{ MarshalJSON() ([]byte, error) }]()
)

func appendValue(b []byte, v reflect.Value) []byte {
	if !v.IsValid() {
		return append(b, "null"...)
	}
	t := v.Type()
	if t.Implements(jsonMarshalerType) {
		panic(wireError("marshal does not call MarshalJSON, of " + t.String()))
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && t.Implements(textMarshalerType) {
		text, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			panic(wireError("error calling MarshalText for type " + t.String() + ": " + err.Error()))
		}
		return appendString(b, string(text))
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32:
		return appendFloat(b, v.Float(), 32)
	case reflect.Float64:
		return appendFloat(b, v.Float(), 64)
	case reflect.String:
		return appendString(b, v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...)
		}
		return appendValue(b, v.Elem())
	case reflect.Struct:
		return appendStruct(b, v)
	case reflect.Slice:
		if v.IsNil() {
			return append(b, "null"...)
		}
		if t.Elem().Kind() == reflect.Uint8 {
			panic(wireError("marshal does not write []byte (json.Marshal's base64)"))
		}
		fallthrough
	case reflect.Array:
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, v.Index(i))
		}
		return append(b, ']')
	}
	panic(wireError("unsupported type: " + t.String()))
}

// appendFloat writes f as json.Marshal does: the shortest form that reads
// back the same, in exponent form below 1e-6 and from 1e21, "e-07"
// written "e-7".
func appendFloat(b []byte, f float64, bits int) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		panic(wireError("unsupported value: " + strconv.FormatFloat(f, 'g', -1, bits)))
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendString writes s quoted as json.Marshal does: ", \ and control
// characters escaped, <, > and & as \u003c, \u003e and \u0026, invalid
// UTF-8 as \ufffd, and U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// wireField is one field a struct type writes: its JSON name, its path of
// field indexes (through embedded structs), and its options.
type wireField struct {
	name      string
	index     []int
	tagged    bool
	omitEmpty bool
	omitZero  bool
}

// fieldCache holds each struct type's fields.
var fieldCache struct {
	sync.Mutex
	m map[reflect.Type][]wireField
}

func appendStruct(b []byte, v reflect.Value) []byte {
	fieldCache.Lock()
	fields, ok := fieldCache.m[v.Type()]
	if !ok {
		fields = structFields(v.Type())
		if fieldCache.m == nil {
			fieldCache.m = map[reflect.Type][]wireField{}
		}
		fieldCache.m[v.Type()] = fields
	}
	fieldCache.Unlock()
	b = append(b, '{')
	first := true
next:
	for _, f := range fields {
		fv := v
		for _, i := range f.index {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue next
				}
				fv = fv.Elem()
			}
			fv = fv.Field(i)
		}
		if f.omitEmpty && isEmpty(fv) || f.omitZero && isZero(fv) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, f.name)
		b = append(b, ':')
		b = appendValue(b, fv)
	}
	return append(b, '}')
}

// structFields lists t's JSON fields in json.Marshal's order, with its
// rules: an embedded struct without a name in its tag lends its fields,
// a shallower field hides a deeper one of the same name, and of two at the
// same depth the tagged one wins, or neither if both are (or neither is).
func structFields(t reflect.Type) []wireField {
	var all []wireField
	var walk func(t reflect.Type, index []int, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, seen map[reflect.Type]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			sf := t.Field(i)
			ft := sf.Type
			if sf.Anonymous {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if !validTagName(name) {
				name = ""
			}
			idx := append(slices.Clone(index), i)
			if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
				walk(ft, idx, seen)
				continue
			}
			f := wireField{name: name, index: idx, tagged: name != ""}
			if f.name == "" {
				f.name = sf.Name
			}
			for opts != "" {
				var o string
				o, opts, _ = strings.Cut(opts, ",")
				switch o {
				case "omitempty":
					f.omitEmpty = true
				case "omitzero":
					f.omitZero = true
				case "string":
					panic(wireError("marshal does not write the string option, of " + t.String() + "." + sf.Name))
				}
			}
			all = append(all, f)
		}
		delete(seen, t)
	}
	walk(t, nil, map[reflect.Type]bool{})

	// Dominance: for each name, the shallowest fields; of those, the one
	// tagged field, or the one field.
	var out []wireField
	for i, f := range all {
		keep := true
		for j, g := range all {
			if i == j || g.name != f.name {
				continue
			}
			switch {
			case len(g.index) < len(f.index):
				keep = false
			case len(g.index) == len(f.index) && (g.tagged == f.tagged || g.tagged):
				keep = false
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

// validTagName is encoding/json's test of a tag's name.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c > 127 && (c != utf8.RuneError)):
			return false
		}
	}
	return true
}

// isEmpty is omitempty's test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZero is omitzero's test: the value's IsZero method if it has one, else
// the zero value.
func isZero(v reflect.Value) bool {
	if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return true
		}
		return z.IsZero()
	}
	return v.IsZero()
}

// readObject reads a flat JSON object, the adapter's input, into its keys'
// values, in the order given: a number as its text, a string unquoted. A
// key given twice keeps its last value, as json.Unmarshal does. null means
// "keep the default" and is left out; any other value (true, an array, an
// object) is a field error. JSON that is not one object is an error.
func readObject(data string) (vals map[string]scalar, errs []FieldMsg, err error) {
	p := objectReader{s: data}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(readError)
			if !ok {
				panic(r)
			}
			vals, errs, err = nil, nil, errors.New(string(e))
		}
	}()
	p.space()
	if p.i < len(p.s) && p.s[p.i] != '{' {
		start := p.i
		p.skipValue()
		p.fail(p.s[start:p.i])
	}
	p.expect('{')
	vals = map[string]scalar{}
	p.space()
	if p.peek() == '}' {
		p.i++
	} else {
		for {
			p.space()
			k := p.str()
			p.space()
			p.expect(':')
			p.space()
			start := p.i
			// A key given twice keeps its last value, as json.Unmarshal
			// into a map does.
			errs = slices.DeleteFunc(errs, func(e FieldMsg) bool { return e.Field == k })
			delete(vals, k)
			switch c := p.peek(); {
			case c == '"':
				vals[k] = scalar{p.str(), true}
			case c == '-' || '0' <= c && c <= '9':
				vals[k] = scalar{p.number(), false}
			case c == 'n' && strings.HasPrefix(p.s[p.i:], "null"):
				p.i += 4
			case c == 0:
				p.fail("it ends early")
			default:
				p.skipValue()
				errs = append(errs, FieldMsg{k, p.s[start:p.i] + " is not a number or a string: give a number, such as 8, or a string"})
			}
			p.space()
			if p.peek() == ',' {
				p.i++
				continue
			}
			p.expect('}')
			break
		}
	}
	p.space()
	if p.i < len(p.s) {
		return nil, nil, errors.New("the input is not one JSON object: something follows it")
	}
	return vals, errs, nil
}

// objectReader reads JSON text; its methods panic with a readError.
type objectReader struct {
	s string
	i int
}

type readError string

// fail panics with "the input is not a JSON object: " + why.
func (p *objectReader) fail(why string) {
	panic(readError("the input is not a JSON object: " + why))
}

// atOffset is " at offset i", for a message of fail.
func atOffset(i int) string { return " at offset " + strconv.Itoa(i) }

// peek is the next byte, 0 at the end.
func (p *objectReader) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *objectReader) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *objectReader) expect(c byte) {
	if p.peek() != c {
		if p.i >= len(p.s) {
			p.fail("it ends early, where " + strconv.QuoteRune(rune(c)) + " belongs")
		}
		p.fail(strconv.QuoteRune(rune(p.s[p.i])) + atOffset(p.i) + ", where " + strconv.QuoteRune(rune(c)) + " belongs")
	}
	p.i++
}

// str reads a JSON string.
func (p *objectReader) str() string {
	p.expect('"')
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			p.fail("a string does not end")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String()
		case c < 0x20:
			p.fail("a control character in a string" + atOffset(p.i))
		case c == '\\':
			if p.i+1 >= len(p.s) {
				p.fail("a string does not end")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r := p.hex4()
				if 0xD800 <= r && r < 0xDC00 && strings.HasPrefix(p.s[p.i:], `\u`) {
					save := p.i
					p.i += 2
					if r2 := p.hex4(); 0xDC00 <= r2 && r2 < 0xE000 {
						r = (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000
					} else {
						p.i = save
					}
				}
				if 0xD800 <= r && r < 0xE000 {
					r = utf8.RuneError
				}
				b.WriteRune(r)
			default:
				p.fail("a bad escape in a string" + atOffset(p.i-2))
			}
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteRune(r)
			p.i += size
		}
	}
}

func (p *objectReader) hex4() rune {
	if p.i+4 > len(p.s) {
		p.fail("a bad \\u escape")
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		p.fail("a bad \\u escape")
	}
	p.i += 4
	return rune(n)
}

// number reads a JSON number and returns its text.
func (p *objectReader) number() string {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.peek() == '-' {
		p.i++
	}
	if p.peek() == '0' {
		p.i++
	} else if digits() == 0 {
		p.fail("a bad number" + atOffset(start))
	}
	if p.peek() == '.' {
		p.i++
		if digits() == 0 {
			p.fail("a bad number" + atOffset(start))
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if digits() == 0 {
			p.fail("a bad number" + atOffset(start))
		}
	}
	return p.s[start:p.i]
}

// skipValue skips any JSON value, checking only that brackets and strings
// close.
func (p *objectReader) skipValue() {
	switch c := p.peek(); {
	case c == '"':
		p.str()
	case c == '{' || c == '[':
		depth := 0
		for p.i < len(p.s) {
			switch p.s[p.i] {
			case '"':
				p.str()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			p.i++
			if depth == 0 {
				return
			}
		}
		p.fail("it ends early")
	case c == '-' || '0' <= c && c <= '9':
		p.number()
	default:
		for _, w := range []string{"true", "false", "null"} {
			if strings.HasPrefix(p.s[p.i:], w) {
				p.i += len(w)
				return
			}
		}
		if p.i >= len(p.s) {
			p.fail("it is empty")
		}
		p.fail(strconv.QuoteRune(rune(p.s[p.i])) + atOffset(p.i) + " is not JSON")
	}
}
