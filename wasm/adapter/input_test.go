package adapter

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// TestErrorAnswerIsValidJSON holds fail, which writes the {"error": ...}
// answers and the shedsim:error event's detail, to JSON that JSON.parse
// reads, whatever the text: a panic's message may hold control characters
// or invalid UTF-8, which Go's quoting writes as escapes JSON does not have
// (\x01, \a, \U000e0001).
func TestErrorAnswerIsValidJSON(t *testing.T) {
	for _, s := range []string{"", "index out of range [3] with length 0", "\x00\x01\a\b\f\n\r\t\v\x1b\x1f\x7f",
		"bad \xff utf-8 \xe2\x82 \xc0\x80", "\u2028 \u2029 \U0001F600 \U000E0001 <script>\"&\\</script>", "a surrogate half, U+D800, as WTF-8: \xed\xa0\x80"} {
		out := Fail(s)
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
		vals   map[string]Scalar
		err    string // a part of the error; "" for none
	}{
		{reason: "numbers keep their text, strings are unquoted", in: ` {"a": 1.5e3, "b":"x\"y\\u00e9\n", "c":-0} `,
			vals: map[string]Scalar{"a": {text: "1.5e3"}, "b": {text: "x\"y\\u00e9\n", quoted: true}, "c": {text: "-0"}}},
		{reason: "escapes", in: `{"s":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x"}`,
			vals: map[string]Scalar{"s": {text: "\"\\/\b\f\n\r\t\u00e9\U0001F600\ufffdx", quoted: true}}},
		{reason: "a lone surrogate and a byte that is not UTF-8 read as U+FFFD", in: "{\"lone\":\"\\ud800x\",\"utf8\":\"caf\xc3\xa9 \xff\"}",
			vals: map[string]Scalar{"lone": {text: "\ufffdx", quoted: true}, "utf8": {text: "caf\u00e9 \ufffd", quoted: true}}},
		{reason: "a number too big for a float64 keeps its text, to be quoted as given", in: `{"big":1e400,"tiny":-1E-400,"long":123456789012345678901234567890}`,
			vals: map[string]Scalar{"big": {text: "1e400"}, "tiny": {text: "-1E-400"}, "long": {text: "123456789012345678901234567890"}}},
		{reason: "null keeps the default", in: `{"a":null}`, vals: map[string]Scalar{}},
		{reason: "the empty object", in: `{}`, vals: map[string]Scalar{}},
		{reason: "other values are bad, saying what they are, not echoing them", in: `{"a":true,"b":[1,{"c":"]"}],"c":{"d":1},"e":false}`,
			vals: map[string]Scalar{"a": {bad: notScalar("true")}, "b": {bad: notScalar("an array")}, "c": {bad: notScalar("an object")}, "e": {bad: notScalar("false")}}},
		{reason: "a key given twice keeps its last value", in: `{"a":[1],"a":2,"b":1,"b":null}`,
			vals: map[string]Scalar{"a": {text: "2"}}},
		{reason: "broken JSON", in: `{"workers":`, err: "not a JSON object"},
		{reason: "no value", in: `{"workers"}`, err: "not a JSON object"},
		{reason: "a trailing comma", in: `{"a":1,}`, err: "not a JSON object"},
		{reason: "an array", in: `[1,2]`, err: "not a JSON object: it starts \"[1,2]\""},
		{reason: "null", in: `null`, err: "not a JSON object: it starts \"null\""},
		{reason: "a string", in: `"rate"`, err: "not a JSON object"},
		{reason: "nothing", in: ``, err: "not a JSON object: it is empty"},
		{reason: "two objects", in: `{} {}`, err: "not a JSON object"},
		{reason: "a bad number", in: `{"a":01}`, err: "not a JSON object"},
		{reason: "a bare word", in: `{"a":nope}`, err: "not a JSON object"},
		{reason: "a control character in a string", in: "{\"a\":\"x\ny\"}", err: "not a JSON object"},
		{reason: "a long non-object is quoted short", in: "[" + strings.Repeat("1,", 1000) + "1]", err: `it starts "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"… (2,003 characters)`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			in := ReadObject(tt.in)
			if tt.err != "" {
				require.Error(t, in.err, tt.reason)
				assert.Contains(t, in.err.Error(), tt.err, tt.reason)
				assert.Less(t, len(in.err.Error()), 200, "the error quotes a prefix at most")
				return
			}
			require.NoError(t, in.err, tt.reason)
			assert.Equal(t, tt.vals, in.Vals, tt.reason)
		})
	}
}

func TestQuery(t *testing.T) {
	// ParseQuery reads what url.ParseQuery reads, and more (below).
	for _, q := range []string{"", "?", "?policy=bounded&retries=3", "a=1&a=2&b", "x=a+b%20c&z=%41", "k;=1&ok=1", "=v&&e=", "sale_rps=150%25"} {
		want := map[string]string{}
		vs, _ := url.ParseQuery(trimQ(q))
		for k, v := range vs {
			want[k] = v[0]
		}
		assert.Equal(t, want, ParseQuery(q), "parseQuery(%q)", q)
	}
	// Where net/url drops a key with a malformed escape, the page keeps what
	// was typed, as the browser's URLSearchParams does: a link written by
	// hand with a percentage means the percentage.
	assert.Equal(t, map[string]string{"order_share": "35%", "y": "%zz", "z": "A%4", "w": "%"}, ParseQuery("?order_share=35%&y=%zz&z=%41%4&w=%"))
	d := ConfigStrings(sim.DefaultConfig())
	vals := ConfigStrings(sim.DefaultConfig())
	vals["policy"], vals["retries"] = "bounded", "3"
	assert.Equal(t, "?policy=bounded&retries=3", EncodeQuery(ConfigKeys(), vals, d))
	assert.Equal(t, "", EncodeQuery(ConfigKeys(), d, d), "the defaults make no query")
	vals["policy"] = "a b&c=d%"
	q := EncodeQuery(ConfigKeys(), vals, d)
	assert.Equal(t, "?policy=a+b%26c%3Dd%25&retries=3", q, "each value escaped")
	assert.Equal(t, "a b&c=d%", ParseQuery(q)["policy"], "and read back as it was")
	// url.ParseQuery refuses more than 10,000 pairs whole; the page reads
	// them all, so that the unknown ones are named and the known ones set.
	long := "?" + strings.Repeat("x=1&", 25_000) + "policy=bounded&x=2"
	assert.Equal(t, map[string]string{"x": "1", "policy": "bounded"}, ParseQuery(long))
}

func trimQ(q string) string {
	if len(q) > 0 && q[0] == '?' {
		return q[1:]
	}
	return q
}
