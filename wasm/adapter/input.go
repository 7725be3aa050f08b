package adapter

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shedsim/shedsim/sim"
)

// This file reads what a page script passes the JS API: a JSON string
// (read by encoding/json) or a plain object (read key by key, through
// JsValue, never through JSON.stringify, which turns NaN into null, throws
// on a BigInt or a circular object, and calls toJSON). Every value is read
// as a scalar, a number's text or a string, or marked bad with why; what
// the keys mean is the adapter's business (configFrom, planFrom). A JSON
// text over maxInputChars, or a JavaScript string value over
// maxValueChars, is refused by its length before it is copied, and a
// message quotes at most a short prefix, so a huge input gets a short
// answer, quickly.

const (
	// maxInputChars is the longest JSON text the API reads, in UTF-16 code
	// units as JavaScript counts a string's length: a Config is a few
	// hundred bytes, and every key of it with long values under 10 KB.
	maxInputChars = 1 << 20
	// maxValueChars is the longest value the API reads as a scalar; a
	// longer one is refused by its length, without being read.
	maxValueChars = 200
	// QuoteChars is how much of a value or a key a message quotes.
	QuoteChars = 40
	// maxKeys is the most keys the API reads from a plain object, one call
	// into JavaScript at a time: a Config has about 50 settings. An object
	// with more is refused by its count before any is read, as a JSON text
	// over maxInputChars is by its length (80,000 keys took 31 s to read).
	maxKeys = 1000
)

// Scalar is one value as given: the text of a number, or a string (from a
// form field, a URL, an HTML attribute, a JSON string or a JS string), or
// why it cannot be read (bad).
type Scalar struct {
	text   string
	quoted bool
	// size is the value's length, in characters, when text holds only its
	// first QuoteChars (a value too long to read); 0 otherwise.
	size int
	// bad is why the value is neither a number nor a string ("an object
	// is not a number or a string: ..."); "" when it is one.
	bad string
}

// Show quotes a string value for a message, and leaves a number bare. A
// long value is cut to its first QuoteChars characters, with its length.
func (s Scalar) Show() string {
	if s.size > 0 {
		return strconv.Quote(s.text) + "… (" + countChars(s.size) + ")"
	}
	if len(s.text) > QuoteChars {
		return Scalar{text: Prefix(s.text, QuoteChars), quoted: s.quoted, size: utf8.RuneCountInString(s.text)}.Show()
	}
	if s.quoted {
		return strconv.Quote(s.text)
	}
	return s.text
}

// tooLong is the message for a value too long to be a setting's, or "".
func (s Scalar) tooLong() string {
	if s.size == 0 && len(s.text) <= maxValueChars {
		return ""
	}
	return s.Show() + " is too long to be a setting: give a number, such as 8, or a word, such as fifo"
}

func countChars(n int) string {
	if n == 1 {
		return "1 character"
	}
	return GroupDigits(strconv.Itoa(n)) + " characters"
}

// GroupDigits writes a count's digits in threes: 300,000,000.
func GroupDigits(s string) string {
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Prefix is s cut to at most n bytes, on a character boundary.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Input is a call's argument as read: its keys' values, or err when it is
// not an object at all.
type Input struct {
	Vals map[string]Scalar
	err  error
}

// notScalar is the bad of a value that is neither a number nor a string.
func notScalar(what string) string {
	return what + " is not a number or a string: give a number, such as 8, or a string"
}

// ReadObject reads a JSON object, the API's input, with json.Unmarshal:
// each value a number (its text, as given), a string, or null, which
// means "keep the default" and is left out; any other value (true, an
// array, an object) is read as bad. A key given twice keeps its last
// value, as json.Unmarshal into a map does. JSON that is not one object is
// an error.
func ReadObject(data string) Input {
	if len(data) > maxInputChars*3 { // a UTF-16 unit is at most 3 bytes of UTF-8
		return Input{err: errors.New("the input is " + countChars(utf8.RuneCountInString(data)) + " of JSON, more than any configuration needs: give at most " + countChars(maxInputChars))}
	}
	t := strings.TrimSpace(data)
	if !strings.HasPrefix(t, "{") {
		what := "it is empty"
		if t != "" {
			what = "it starts " + Scalar{text: t, quoted: true}.Show()
		}
		return Input{err: errors.New("the input is not a JSON object: " + what + "; give an object such as {\"workers\": 8}")}
	}
	// Each value stays raw, so that a number keeps its text (a huge one is
	// quoted as given, not as a float64 rounds it) and an array or an
	// object is named, not read.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(t), &raw); err != nil {
		return Input{err: errors.New("the input is not a JSON object: it is not valid JSON (" + Scalar{text: t, quoted: true}.Show() + "); give an object such as {\"workers\": 8}")}
	}
	vals := make(map[string]Scalar, len(raw))
	for k, v := range raw {
		switch v[0] {
		case 'n': // null keeps the default
		case '"':
			var s string
			_ = json.Unmarshal(v, &s) // a string json.Unmarshal has read once already
			vals[k] = Scalar{text: s, quoted: true}
		case 't', 'f':
			vals[k] = Scalar{bad: notScalar(string(v))}
		case '[':
			vals[k] = Scalar{bad: notScalar("an array")}
		case '{':
			vals[k] = Scalar{bad: notScalar("an object")}
		default:
			vals[k] = Scalar{text: string(v)}
		}
	}
	return Input{Vals: vals}
}

// JsValue is one JavaScript value, as the API reads its argument:
// main_js.go wraps a js.Value, the tests a Go value. Its methods panic
// only as JavaScript throws (a getter, a Proxy); ReadJS catches that.
type JsValue interface {
	// Tag is the value's type as Object.prototype.toString names it:
	// "Undefined", "Null", "Boolean", "Number", "String", "BigInt",
	// "Symbol", "Function", "Array", "Object", "Date", ...
	Tag() string
	// Number is a Number's value; a Boolean's as 1 or 0.
	Number() float64
	// Length is a String's length, in UTF-16 code units.
	Length() int
	// Text is a String's first n code units (all of it if shorter).
	Text(n int) string
	// Keys are an object's own enumerable keys, as Object.keys gives them,
	// and how many there are; none when there are more than most.
	Keys(most int) ([]JsValue, int)
	// Get is an object's property key.
	Get(key string) JsValue
}

// ReadJS reads the API's argument: undefined or null is the empty object
// (every default), a string is JSON text, and a plain object is read key
// by key. Anything else is an error that says what it is.
func ReadJS(v JsValue) (in Input) {
	defer func() {
		if r := recover(); r != nil {
			in = Input{err: errors.New("reading the input threw " + shortText(PanicText(r)) + ": give a plain object, or a JSON string")}
		}
	}()
	switch tag := v.Tag(); tag {
	case "Undefined", "Null":
		return Input{Vals: map[string]Scalar{}}
	case "String":
		if n := v.Length(); n > maxInputChars {
			return Input{err: errors.New("the input is " + countChars(n) + " of JSON, more than any configuration needs: give at most " + countChars(maxInputChars))}
		}
		return ReadObject(v.Text(maxInputChars))
	case "Object":
		keys, n := v.Keys(maxKeys)
		if n > maxKeys {
			return Input{err: errors.New("the input has " + GroupDigits(strconv.Itoa(n)) + " keys, more than any configuration needs: give at most " + strconv.Itoa(maxKeys))}
		}
		vals := make(map[string]Scalar, len(keys))
		for _, kv := range keys {
			n := kv.Length()
			k := kv.Text(maxValueChars)
			if n > maxValueChars {
				// A key nobody could mean: named by its first characters.
				vals[Scalar{text: Prefix(k, QuoteChars), quoted: true, size: n}.Show()] = Scalar{}
				continue
			}
			if s := readJSValue(v, k, valueLimit(k)); s != (Scalar{}) { // undefined and null keep the default
				vals[k] = s
			}
		}
		return Input{Vals: vals}
	default:
		return Input{err: errors.New("the input is " + Article(tag) + ": give an object, such as {workers: 8}, or a JSON string of one")}
	}
}

// readJSValue reads o[k] as a scalar of at most most characters, or marks
// it bad.
func readJSValue(o JsValue, k string, most int) (s Scalar) {
	defer func() {
		if r := recover(); r != nil {
			s = Scalar{bad: "reading it threw " + shortText(PanicText(r)) + ": give a number or a string"}
		}
	}()
	return jsScalar(o.Get(k), most)
}

// valueLimit is the longest value key's setting reads: a table's
// (sim.MaxTableBytes), or maxValueChars.
func valueLimit(key string) int {
	if f, ok := FieldByKey(key); ok && f.kind == kindTable {
		return sim.MaxTableBytes
	}
	return maxValueChars
}

// JsScalar reads v as a scalar: a number or a string, or the
// empty scalar for undefined and null; anything else is marked bad.
func JsScalar(v JsValue) Scalar { return jsScalar(v, maxValueChars) }

// jsScalar is JsScalar for a string of at most most characters: a longer
// one is not read, but its length kept.
func jsScalar(v JsValue, most int) Scalar {
	switch tag := v.Tag(); tag {
	case "Undefined", "Null":
		return Scalar{} // as in JSON: keep the default; ReadJS drops it
	case "Number":
		return Scalar{text: jsNumber(v.Number())}
	case "String":
		if n := v.Length(); n > most {
			return Scalar{text: v.Text(QuoteChars), quoted: true, size: n}
		}
		return Scalar{text: v.Text(most), quoted: true}
	case "BigInt":
		// Refused as the package's doc promises (numbers as numbers or
		// strings): a BigInt is neither, and 10n is as easily 10.
		return Scalar{bad: "a BigInt is not a number or a string: give a Number, such as 8 rather than 8n, or a string"}
	case "Boolean":
		return Scalar{bad: notScalar(strconv.FormatBool(v.Number() != 0))}
	default:
		return Scalar{bad: notScalar(Article(tag))}
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

// Article is a JavaScript type's tag with "a" or "an": "an array".
func Article(tag string) string {
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
	if len(s) <= 2*QuoteChars {
		return s
	}
	return Prefix(s, 2*QuoteChars) + "…"
}
