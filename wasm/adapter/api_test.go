package adapter

import (
	"math"
	"sort"
	"strings"
	"unicode/utf16"
)

// The JS API's functions with a JSON string, as shedsim.view('{"workers":
// 8}') calls them.

func viewJSON(s string) string    { return ViewOf(ReadObject(s)) }
func clientsJSON(s string) string { return ClientsOf(ReadObject(s)) }
func runJSON(s string) string     { return RunOf(ReadObject(s)) }
func planJSON(s string) string    { return PlanOf(ReadObject(s)) }

// FakeJS is a JavaScript value for ReadJS, natively: nil is undefined,
// jsNull null, a float64 a Number, a string a String, a jsBigInt a BigInt,
// a bool a Boolean, a map an object (which may hold itself), a []any an
// array, a jsFunc a function, and a jsThrows a getter that throws.
type FakeJS struct{ v any }

type (
	jsNullType struct{}
	jsBigInt   string
	jsFunc     struct{}
	jsThrows   string
	JsObject   map[string]any
)

var jsNull = jsNullType{}

func (f FakeJS) Tag() string {
	switch f.v.(type) {
	case nil:
		return "Undefined"
	case jsNullType:
		return "Null"
	case float64:
		return "Number"
	case string, JsLong:
		return "String"
	case jsBigInt:
		return "BigInt"
	case bool:
		return "Boolean"
	case JsObject:
		return "Object"
	case []any:
		return "Array"
	case jsFunc:
		return "Function"
	}
	panic("fakeJS: no JavaScript type for this Go value")
}

func (f FakeJS) Number() float64 {
	switch v := f.v.(type) {
	case float64:
		return v
	case bool:
		if v {
			return 1
		}
		return 0
	}
	return math.NaN()
}

// length counts UTF-16 code units, as JavaScript does.
func (f FakeJS) Length() int {
	switch v := f.v.(type) {
	case string:
		return len(utf16.Encode([]rune(v)))
	case jsBigInt:
		return len(v)
	case JsLong:
		return int(v)
	}
	return 0
}

func (f FakeJS) Text(n int) string {
	var s string
	switch v := f.v.(type) {
	case string:
		s = v
	case jsBigInt:
		s = string(v)
	case JsLong:
		return strings.Repeat("x", min(n, int(v)))
	}
	if u := utf16.Encode([]rune(s)); len(u) > n {
		return string(utf16.Decode(u[:n]))
	}
	return s
}

func (f FakeJS) Keys(most int) ([]JsValue, int) {
	o := f.v.(JsObject)
	if len(o) > most {
		return nil, len(o)
	}
	var ks []string
	for k := range o {
		ks = append(ks, k)
	}
	sort.Strings(ks) // Object.keys's order is insertion's; any order will do
	out := make([]JsValue, len(ks))
	for i, k := range ks {
		out[i] = FakeJS{k}
	}
	return out, len(ks)
}

func (f FakeJS) Get(key string) JsValue {
	v := f.v.(JsObject)[key]
	if t, ok := v.(jsThrows); ok {
		panic(string(t))
	}
	return FakeJS{v}
}

// JsLong is a JavaScript string of n "x"s that holds none of them, so that
// a test can pass a 300 MB string without making one.
type JsLong int

func (l JsLong) String() string { return "" }
