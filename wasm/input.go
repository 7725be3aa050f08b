package main

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file reads what a page script passes the JS API: a JSON string
// (checked by encoding/json, read by a walker that needs no error paths)
// or a plain object (read key by key, through
// jsValue, never through JSON.stringify, which turns NaN into null, throws
// on a BigInt or a circular object, and calls toJSON). Every value is read
// as a scalar, a number's text or a string, or marked bad with why; what
// the keys mean is the adapter's business (configFrom, planFrom). Nothing
// here copies or quotes more of the input than a short prefix, so a huge
// input gets a short answer, quickly.

const (
	// maxInputChars is the longest JSON text the API reads, in UTF-16 code
	// units as JavaScript counts a string's length: a Config is a few
	// hundred bytes, and every key of it with long values under 10 KB.
	maxInputChars = 1 << 20
	// maxValueChars is the longest value the API reads as a scalar; a
	// longer one is refused by its length, without being read.
	maxValueChars = 200
	// quoteChars is how much of a value or a key a message quotes.
	quoteChars = 40
)

// scalar is one value as given: the text of a number, or a string (from a
// form field, a URL, an HTML attribute, a JSON string or a JS string), or
// why it cannot be read (bad).
type scalar struct {
	text   string
	quoted bool
	// size is the value's length, in characters, when text holds only its
	// first quoteChars (a value too long to read); 0 otherwise.
	size int
	// bad is why the value is neither a number nor a string ("an object
	// is not a number or a string: ..."); "" when it is one.
	bad string
}

// show quotes a string value for a message, and leaves a number bare. A
// long value is cut to its first quoteChars characters, with its length.
func (s scalar) show() string {
	if s.size > 0 {
		return strconv.Quote(s.text) + "… (" + countChars(s.size) + ")"
	}
	if len(s.text) > quoteChars {
		return scalar{text: prefix(s.text, quoteChars), quoted: s.quoted, size: utf8.RuneCountInString(s.text)}.show()
	}
	if s.quoted {
		return strconv.Quote(s.text)
	}
	return s.text
}

// tooLong is the message for a value too long to be a setting's, or "".
func (s scalar) tooLong() string {
	if s.size == 0 && len(s.text) <= maxValueChars {
		return ""
	}
	return s.show() + " is too long to be a setting: give a number, such as 8, or a word, such as fifo"
}

func countChars(n int) string {
	if n == 1 {
		return "1 character"
	}
	return groupDigits(strconv.Itoa(n)) + " characters"
}

// groupDigits writes a count's digits in threes: 300,000,000.
func groupDigits(s string) string {
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// prefix is s cut to at most n bytes, on a character boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// input is a call's argument as read: its keys' values, or err when it is
// not an object at all.
type input struct {
	vals map[string]scalar
	err  error
}

// notScalar is the bad of a value that is neither a number nor a string.
func notScalar(what string) string {
	return what + " is not a number or a string: give a number, such as 8, or a string"
}

// readObject reads a JSON object, the API's input, checked by
// encoding/json: each value a number (its text), a string, or null, which means "keep
// the default" and is left out; any other value (true, an array, an
// object) is read as bad. A key given twice keeps its last value, as
// json.Unmarshal does. JSON that is not one object is an error.
func readObject(data string) input {
	if len(data) > maxInputChars*3 { // a UTF-16 unit is at most 3 bytes of UTF-8
		return input{err: errors.New("the input is " + countChars(utf8.RuneCountInString(data)) + " of JSON, more than any configuration needs: give at most " + countChars(maxInputChars))}
	}
	t := strings.TrimSpace(data)
	if !strings.HasPrefix(t, "{") {
		what := "it is empty"
		if t != "" {
			what = "it starts " + scalar{text: t, quoted: true}.show()
		}
		return input{err: errors.New("the input is not a JSON object: " + what + "; give an object such as {\"workers\": 8}")}
	}
	// encoding/json checks the syntax; objectWalker reads the object it
	// passed. (json.Unmarshal would read it too, but its decoder is 175 KB
	// of the page's WebAssembly, which the 4.5 MB raw budget no longer
	// holds; json.Valid is 3 KB. TestReadObjectIsUnmarshal holds the two
	// to the same values.)
	if !json.Valid([]byte(t)) {
		return input{err: errors.New("the input is not a JSON object: it is not valid JSON (" + scalar{text: t, quoted: true}.show() + "); give an object such as {\"workers\": 8}")}
	}
	w := objectWalker{s: t}
	return input{vals: w.object()}
}

// objectWalker reads a JSON object that json.Valid accepted, so it needs
// no error paths: each value a number (its text), a string, null (left
// out), or anything else, marked bad; a key given twice keeps its last
// value, as json.Unmarshal into a map does.
type objectWalker struct {
	s string
	i int
}

func (w *objectWalker) space() {
	for w.i < len(w.s) && (w.s[w.i] == ' ' || w.s[w.i] == '\t' || w.s[w.i] == '\n' || w.s[w.i] == '\r') {
		w.i++
	}
}

func (w *objectWalker) object() map[string]scalar {
	vals := map[string]scalar{}
	w.i++ // {
	for {
		w.space()
		if w.s[w.i] == '}' {
			return vals
		}
		if w.s[w.i] == ',' {
			w.i++
			w.space()
		}
		k := w.str()
		w.space()
		w.i++ // :
		w.space()
		delete(vals, k)
		switch c := w.s[w.i]; {
		case c == '"':
			vals[k] = scalar{text: w.str(), quoted: true}
		case c == 'n':
			w.i += 4 // null keeps the default
		case c == 't' || c == 'f':
			vals[k] = scalar{bad: notScalar(w.word())}
		case c == '[':
			w.skip()
			vals[k] = scalar{bad: notScalar("an array")}
		case c == '{':
			w.skip()
			vals[k] = scalar{bad: notScalar("an object")}
		default:
			vals[k] = scalar{text: w.word()}
		}
	}
}

// word reads a number, true or false, and returns its text.
func (w *objectWalker) word() string {
	start := w.i
	for w.i < len(w.s) && strings.IndexByte(",}] \t\n\r", w.s[w.i]) < 0 {
		w.i++
	}
	return w.s[start:w.i]
}

// skip passes over an array or an object, strings and all.
func (w *objectWalker) skip() {
	depth := 0
	for {
		switch w.s[w.i] {
		case '"':
			w.str()
			continue
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		}
		w.i++
		if depth == 0 {
			return
		}
	}
}

// str reads a string as json.Unmarshal does: escapes decoded, a surrogate
// pair joined, and a lone surrogate or a byte that is not UTF-8 read as
// U+FFFD.
func (w *objectWalker) str() string {
	w.i++ // "
	var b strings.Builder
	for {
		c := w.s[w.i]
		switch {
		case c == '"':
			w.i++
			return b.String()
		case c == '\\':
			e := w.s[w.i+1]
			w.i += 2
			switch e {
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
				r := w.hex4()
				if utf16.IsSurrogate(r) {
					// A high surrogate and a low one are one character;
					// anything else is U+FFFD, and what follows is read
					// on its own.
					pair := utf8.RuneError
					if strings.HasPrefix(w.s[w.i:], `\u`) {
						pair = utf16.DecodeRune(r, w.hexAt(w.i+2))
					}
					if pair != utf8.RuneError {
						w.i += 6
					}
					r = pair
				}
				b.WriteRune(r)
			default: // " \ /
				b.WriteByte(e)
			}
		default:
			r, size := utf8.DecodeRuneInString(w.s[w.i:])
			b.WriteRune(r) // RuneError for a byte that is not UTF-8
			w.i += size
		}
	}
}

// hex4 reads the four hex digits of a \u escape.
func (w *objectWalker) hex4() rune {
	r := w.hexAt(w.i)
	w.i += 4
	return r
}

// hexAt is the four hex digits at i, which json.Valid checked.
func (w *objectWalker) hexAt(i int) rune {
	n, _ := strconv.ParseUint(w.s[i:i+4], 16, 32)
	return rune(n)
}

// jsValue is one JavaScript value, as the API reads its argument:
// main_js.go wraps a js.Value, the tests a Go value. Its methods panic
// only as JavaScript throws (a getter, a Proxy); readJS catches that.
type jsValue interface {
	// tag is the value's type as Object.prototype.toString names it:
	// "Undefined", "Null", "Boolean", "Number", "String", "BigInt",
	// "Symbol", "Function", "Array", "Object", "Date", ...
	tag() string
	// number is a Number's value; a Boolean's as 1 or 0.
	number() float64
	// length is a String's length, in UTF-16 code units, or the number of
	// a BigInt's digits.
	length() int
	// text is a String's first n code units (all of it if shorter), or
	// a BigInt's decimal digits.
	text(n int) string
	// keys are an object's own enumerable keys, as Object.keys gives them.
	keys() []jsValue
	// get is an object's property key.
	get(key string) jsValue
}

// readJS reads the API's argument: undefined or null is the empty object
// (every default), a string is JSON text, and a plain object is read key
// by key. Anything else is an error that says what it is.
func readJS(v jsValue) (in input) {
	defer func() {
		if r := recover(); r != nil {
			in = input{err: errors.New("reading the input threw " + shortText(panicText(r)) + ": give a plain object, or a JSON string")}
		}
	}()
	switch tag := v.tag(); tag {
	case "Undefined", "Null":
		return input{vals: map[string]scalar{}}
	case "String":
		if n := v.length(); n > maxInputChars {
			return input{err: errors.New("the input is " + countChars(n) + " of JSON, more than any configuration needs: give at most " + countChars(maxInputChars))}
		}
		return readObject(v.text(maxInputChars))
	case "Object":
		keys := v.keys()
		vals := make(map[string]scalar, len(keys))
		for _, kv := range keys {
			n := kv.length()
			k := kv.text(maxValueChars)
			if n > maxValueChars {
				// A key nobody could mean: named by its first characters.
				vals[scalar{text: prefix(k, quoteChars), quoted: true, size: n}.show()] = scalar{}
				continue
			}
			if s := readJSValue(v, k); s != (scalar{}) { // undefined and null keep the default
				vals[k] = s
			}
		}
		return input{vals: vals}
	default:
		return input{err: errors.New("the input is " + article(tag) + ": give an object, such as {workers: 8}, or a JSON string of one")}
	}
}

// readJSValue reads o[k] as a scalar, or marks it bad.
func readJSValue(o jsValue, k string) (s scalar) {
	defer func() {
		if r := recover(); r != nil {
			s = scalar{bad: "reading it threw " + shortText(panicText(r)) + ": give a number or a string"}
		}
	}()
	return jsScalar(o.get(k))
}

// jsScalar reads v as a scalar: a number, a BigInt or a string, or the
// empty scalar for undefined and null; anything else is marked bad.
func jsScalar(v jsValue) scalar {
	switch tag := v.tag(); tag {
	case "Undefined", "Null":
		return scalar{} // as in JSON: keep the default; readJS drops it
	case "Number":
		return scalar{text: jsNumber(v.number())}
	case "BigInt", "String":
		quoted := tag == "String"
		if n := v.length(); n > maxValueChars {
			return scalar{text: v.text(quoteChars), quoted: quoted, size: n}
		}
		return scalar{text: v.text(maxValueChars), quoted: quoted}
	case "Boolean":
		return scalar{bad: notScalar(strconv.FormatBool(v.number() != 0))}
	default:
		return scalar{bad: notScalar(article(tag))}
	}
}

// jsNumber writes x as JavaScript's String(x) does: NaN, Infinity,
// -Infinity, and plain digits from 1e-6 to 1e21.
func jsNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	if ax := math.Abs(x); ax != 0 && (ax < 1e-6 || ax >= 1e21) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// article is a JavaScript type's tag with "a" or "an": "an array".
func article(tag string) string {
	switch tag {
	case "Undefined", "Null":
		return strings.ToLower(tag)
	case "Object", "Array":
		return "an " + strings.ToLower(tag)
	case "BigInt":
		return "a BigInt"
	}
	return "a " + strings.ToLower(tag)
}

// shortText is s cut to a message's length.
func shortText(s string) string {
	if len(s) <= 2*quoteChars {
		return s
	}
	return prefix(s, 2*quoteChars) + "…"
}
