package adapter

import (
	"net/url"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// EncodeQuery writes vals in the order of keys, leaving out those equal
// to defaults, as a URL query: "?policy=bounded&retries=3", or "" when
// nothing differs, each key and value escaped by url.QueryEscape. A table
// (sim.Table) that reads is written in its compact form (CompactTable).
func EncodeQuery(keys []string, vals, defaults map[string]string) string {
	var b strings.Builder
	for _, k := range keys {
		v, ok := vals[k]
		if !ok || v == defaults[k] {
			continue
		}
		v = CompactTable(k, v)
		if b.Len() == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(v))
	}
	return b.String()
}

// lenientEscapes writes each % in q that starts no escape (two hex
// digits) as %25, so that url.ParseQuery reads it as the % it was, as the
// browser's URLSearchParams does: a link typed by hand with
// order_share=35% means 35%, where url.ParseQuery alone would drop the key.
func lenientEscapes(q string) string {
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		b.WriteByte(q[i])
		if q[i] == '%' && !(i+2 < len(q) && isHex(q[i+1]) && isHex(q[i+2])) {
			b.WriteString("25")
		}
	}
	return b.String()
}

// CanonicalChoice is a menu's value as its option spells it: a policy or a
// client given in another case or with spaces ("Bounded"), which the engine
// reads all the same, becomes its key ("bounded"); any other value is left
// as it is.
func CanonicalChoice(key, v string) string {
	s, _ := sim.SettingByKey(key)
	want := strings.ToLower(strings.TrimSpace(v))
	for _, c := range s.Choices() {
		if c[0] == want {
			return c[0]
		}
	}
	return v
}

// ParseQuery reads a URL query ("?a=1&b=2", the "?" optional) into the
// first value of each key, as url.ParseQuery reads it (skipping a key with
// a semicolon), except that a malformed escape stays as it was typed (see
// lenientEscapes). url.ParseQuery refuses a query of more than
// maxQueryPairs pairs whole, which would drop a long link's settings
// without a word; each pair is read, maxQueryPairs at a time, so that its
// unknown keys are named as any link's are.
func ParseQuery(q string) map[string]string {
	out := map[string]string{}
	q = strings.TrimPrefix(q, "?")
	for q != "" {
		var part string
		part, q = q, ""
		if i := nthIndex(part, '&', maxQueryPairs); i >= 0 {
			part, q = part[:i], part[i+1:]
		}
		vs, _ := url.ParseQuery(lenientEscapes(part)) // the error is a key it skipped
		for k, v := range vs {
			if _, seen := out[k]; !seen {
				out[k] = v[0]
			}
		}
	}
	return out
}

// maxQueryPairs is the most pairs url.ParseQuery reads in one query.
const maxQueryPairs = 10_000

// nthIndex is the index of the nth c in s, or -1 if s has fewer.
func nthIndex(s string, c byte, n int) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			if n--; n == 0 {
				return i
			}
		}
	}
	return -1
}

// CompactTable is v, key's value, in the compact form a table takes in an
// address ("0:70,60:150,120:70"), when key is a table's and v reads; v as
// it is otherwise. A table reads only within sim.MaxRateRows or
// sim.MaxBuckets rows, so an address holds at most that many.
func CompactTable(key, v string) string {
	switch key {
	case "arrivals":
		if rows, err := sim.ParseRates(v); err == nil {
			return sim.FormatRates(rows)
		}
	case "service_histogram":
		if bs, err := sim.ParseBuckets(v); err == nil {
			return sim.FormatBuckets(bs)
		}
	case "hops":
		if hs, err := sim.ParseHops(v); err == nil {
			return strings.ReplaceAll(sim.FormatHops(hs), "\n", "; ")
		}
	}
	return v
}
