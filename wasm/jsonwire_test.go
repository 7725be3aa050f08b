package main

import (
	"encoding/json"
	"math"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
)

// sameAsJSON requires marshal(v) to be json.Marshal(v), byte for byte.
func sameAsJSON(t *testing.T, v any, reason string) {
	t.Helper()
	want, err := json.Marshal(v)
	require.NoError(t, err, reason)
	got, err := marshal(v)
	require.NoError(t, err, reason)
	require.Equal(t, string(want), string(got), reason)
}

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	configs := []struct {
		reason string
		config func(c *sim.Config)
	}{
		{"the default sale", func(c *sim.Config) {}},
		{"stuck with retries: back_to_normal_s is null", func(c *sim.Config) { c.Retries = 3 }},
		{"a retry budget", func(c *sim.Config) { c.Retries = 3; c.Client = sim.Budget }},
		{"throttled", func(c *sim.Config) { c.Retries = 3; c.Client = sim.Throttle }},
		{"the bounded queue with a refusal cost", func(c *sim.Config) { c.Policy = sim.Bounded; c.RefusalCostMS = 20 }},
		{"nobody answered: null medians", func(c *sim.Config) { c.Workers = 1; c.ServiceMS = 5000 }},
		{"tiny and odd numbers", func(c *sim.Config) { c.ServiceMS = 80.0000000001; c.OrderShare = 1e-7; c.Seed = sim.MaxSeed }},
	}
	for _, tt := range configs {
		t.Run(tt.reason, func(t *testing.T) {
			c := sim.DefaultConfig()
			tt.config(&c)
			require.NoError(t, c.Validate(), "the case's config must be valid, or it tests nothing")
			v, err := report.Build(c)
			require.NoError(t, err)
			sameAsJSON(t, v, "a view")
			sameAsJSON(t, v.Chosen, "a result, as shedsim.run answers")
			cv, err := report.BuildClients(c)
			require.NoError(t, err)
			sameAsJSON(t, cv, "a client view")
		})
	}

	l, errs := RunLab(7)
	require.Empty(t, errs)
	sameAsJSON(t, l, "a lab run")
	for _, in := range []plan.Input{plan.DefaultInput(), {RateRPS: 150, ServiceMS: 80, Target: 0.05}, {RateRPS: 1, ServiceMS: 1, Target: 0.5, LimitMS: 10}} {
		a, errs := ComputePlan(in)
		require.Empty(t, errs)
		sameAsJSON(t, a, "a plan, with its chart's embedded rectangles")
	}
	sameAsJSON(t, sim.Samples(), "the samples")
	sameAsJSON(t, errorsJSON{[]FieldMsg{{"workers", `"<x>" & "y" is not a number`}}}, "HTML characters are escaped")
	sameAsJSON(t, errorsJSON{}, "a nil slice is null")

	strs := []string{"", "plain", "quote \" backslash \\ slash /", "\x00\x01\b\f\n\r\t\x1f\x7f", "<script>&amp;</script>",
		"caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff utf-8 \xe2\x82", "\u007f\u0080"}
	for _, s := range strs {
		sameAsJSON(t, s, "the string "+s)
	}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 1e20, 1e21, 123456789e13, math.MaxFloat64, math.SmallestNonzeroFloat64, 2.4999999999999996}
	for _, f := range floats {
		sameAsJSON(t, f, "a float")
	}
	sameAsJSON(t, float32(1e-7), "a float32")

	type inner struct {
		A int `json:"a"`
		B int
	}
	type Embedded struct {
		B int `json:"b"`
		C int
	}
	type odd struct {
		inner
		*Embedded
		D      *int   `json:"d,omitempty"`
		E      string `json:"e,omitempty"`
		F      string `json:"-"`
		G      []int  `json:"g,omitzero"`
		H      any    `json:"h"`
		hidden int
		Arr    [2]bool `json:"arr"`
		U      uint8   `json:"u"`
	}
	sameAsJSON(t, odd{inner: inner{1, 2}, Embedded: &Embedded{3, 4}, H: []string{"x"}, hidden: 5, Arr: [2]bool{true, false}, U: 7},
		"embedded structs promote their fields, a tagged one winning at the same depth; options")
	sameAsJSON(t, odd{}, "a nil embedded pointer lends nothing")
	sameAsJSON(t, []*int{nil}, "a nil pointer is null")

	for _, v := range []any{math.NaN(), math.Inf(1), map[string]int{"a": 1}, []byte("x"), json.RawMessage(`1`)} {
		_, err := marshal(v)
		assert.Error(t, err, "marshal refuses %T %v", v, v)
	}
}

// TestErrorAnswerIsValidJSON holds fail, which writes the {"error": ...}
// answers and the shedsim:error event's detail, to JSON that JSON.parse
// reads, whatever the text: a panic's message may hold control characters
// or invalid UTF-8, which Go's quoting writes as escapes JSON does not have
// (\x01, \a, \U000e0001).
func TestErrorAnswerIsValidJSON(t *testing.T) {
	for _, s := range []string{"", "index out of range [3] with length 0", "\x00\x01\a\b\f\n\r\t\v\x1b\x1f\x7f",
		"bad \xff utf-8 \xe2\x82 \xc0\x80", "\u2028 \u2029 \U0001F600 \U000E0001 <script>\"&\\</script>", "a surrogate half, U+D800, as WTF-8: \xed\xa0\x80"} {
		out := fail(s)
		require.True(t, json.Valid([]byte(out)), "fail(%q) = %s is not JSON", s, out)
		var got errorJSON
		require.NoError(t, json.Unmarshal([]byte(out), &got))
		// Each byte that is not UTF-8 reads back as U+FFFD, as in
		// json.Marshal; everything else as it was.
		assert.Equal(t, string([]rune(s)), got.Error, "fail(%q) reads back", s)
		want, err := json.Marshal(errorJSON{s})
		require.NoError(t, err)
		assert.Equal(t, string(want), out, "fail(%q) is json.Marshal's", s)
	}
	assert.False(t, json.Valid([]byte(`{"error":`+strconv.Quote("\x01\a\U000E0001")+`}`)), "strconv.Quote is not JSON")
}

func TestReadObject(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		vals   map[string]scalar
		fields []string // the field errors, in order
		err    string   // a part of the error; "" for none
	}{
		{reason: "numbers keep their text, strings are unquoted", in: ` {"a": 1.5e3, "b":"x\"y\\u00e9\n", "c":-0} `,
			vals: map[string]scalar{"a": {"1.5e3", false}, "b": {"x\"y\\u00e9\n", true}, "c": {"-0", false}}},
		{reason: "escapes", in: `{"s":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x"}`,
			vals: map[string]scalar{"s": {"\"\\/\b\f\n\r\t\u00e9\U0001F600\ufffdx", true}}},
		{reason: "null keeps the default", in: `{"a":null}`, vals: map[string]scalar{}},
		{reason: "the empty object", in: `{}`, vals: map[string]scalar{}},
		{reason: "other values are field errors, in order", in: `{"a":true,"b":[1,{"c":"]"}],"c":{"d":1},"e":false}`,
			vals: map[string]scalar{}, fields: []string{"a", "b", "c", "e"}},
		{reason: "a key given twice keeps its last value", in: `{"a":[1],"a":2,"b":1,"b":null}`,
			vals: map[string]scalar{"a": {"2", false}}},
		{reason: "broken JSON", in: `{"workers":`, err: "not a JSON object"},
		{reason: "no value", in: `{"workers"}`, err: "not a JSON object"},
		{reason: "a trailing comma", in: `{"a":1,}`, err: "not a JSON object"},
		{reason: "an array", in: `[1,2]`, err: "not a JSON object: [1,2]"},
		{reason: "null", in: `null`, err: "not a JSON object: null"},
		{reason: "a string", in: `"rate"`, err: "not a JSON object"},
		{reason: "nothing", in: ``, err: "not a JSON object"},
		{reason: "two objects", in: `{} {}`, err: "not one JSON object"},
		{reason: "a bad number", in: `{"a":01}`, err: "not a JSON object"},
		{reason: "a bare word", in: `{"a":nope}`, err: "not a JSON object"},
		{reason: "a control character in a string", in: "{\"a\":\"x\ny\"}", err: "control character"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			vals, errs, err := readObject(tt.in)
			if tt.err != "" {
				require.Error(t, err, tt.reason)
				assert.Contains(t, err.Error(), tt.err, tt.reason)
				return
			}
			require.NoError(t, err, tt.reason)
			assert.Equal(t, tt.vals, vals, tt.reason)
			assert.Equal(t, tt.fields, nilIfEmpty(fields(errs)), tt.reason)
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestQueryMatchesNetURL(t *testing.T) {
	for _, s := range []string{"", "bounded", "retry-after", "a b", "1e3", "5%", "x&y=z", "é", "~._-", "a+b", "/?#"} {
		assert.Equal(t, url.QueryEscape(s), queryEscape(s), "queryEscape(%q)", s)
	}
	for _, q := range []string{"", "?", "?policy=bounded&retries=3", "a=1&a=2&b", "x=a+b%20c&z=%41", "k;=1&ok=1", "=v&&e=", "sale_rps=150%25"} {
		want := map[string]string{}
		vs, _ := url.ParseQuery(trimQ(q))
		for k, v := range vs {
			want[k] = v[0]
		}
		assert.Equal(t, want, parseQuery(q), "parseQuery(%q)", q)
	}
	// Where net/url drops a key with a malformed escape, the page keeps what
	// was typed, as the browser's URLSearchParams does: a link written by
	// hand with a percentage means the percentage.
	assert.Equal(t, map[string]string{"order_share": "35%", "y": "%zz", "z": "A%4"}, parseQuery("?order_share=35%&y=%zz&z=%41%4"))
	d := ConfigStrings(sim.DefaultConfig())
	vals := ConfigStrings(sim.DefaultConfig())
	vals["policy"], vals["retries"] = "bounded", "3"
	assert.Equal(t, "?policy=bounded&retries=3", encodeQuery(ConfigKeys(), vals, d))
	assert.Equal(t, "", encodeQuery(ConfigKeys(), d, d), "the defaults make no query")
}

func trimQ(q string) string {
	if len(q) > 0 && q[0] == '?' {
		return q[1:]
	}
	return q
}
