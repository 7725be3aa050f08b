package adapter

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// parseNumber reads s as kind k; the message says what to type instead,
// with example as a value that would do.
func parseNumber(s Scalar, k kind, example string) (f float64, i int64, u uint64, msg string) {
	if s.bad != "" {
		return 0, 0, 0, s.bad
	}
	if msg := s.tooLong(); msg != "" {
		return 0, 0, 0, msg
	}
	t := strings.TrimSpace(s.text)
	if t == "" {
		return 0, 0, 0, "is empty: type a number, such as " + example
	}
	// Text is read as every interface reads it (sim.ParseNumber); a JS
	// Number is read as it is, NaN and the infinities included, for
	// Validate to name.
	read := sim.ParseNumber
	switch k {
	case kindShare:
		read = sim.ParseShare
	case kindInt, kindSeed:
		read = sim.ParseWhole
	}
	x, err := read(t)
	if js, ok := jsNonFinite[t]; ok && !s.quoted {
		x, err = js, nil
	}
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		what := "a number"
		if k == kindInt || k == kindSeed {
			what = "a whole number"
		}
		return 0, 0, 0, s.Show() + " is not " + what + ": use " + what + " such as " + example
	}
	switch k {
	case kindInt, kindSeed:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, 0, 0, s.Show() + " is not a whole number: use a whole number such as " + example
		}
		if k == kindSeed {
			if x < 0 || x >= 1<<63 {
				return 0, 0, 0, s.Show() + " is out of range: use a whole number from 0 to " + strconv.FormatUint(sim.MaxSeed, 10)
			}
			if v, err := strconv.ParseUint(t, 10, 64); err == nil {
				return 0, 0, v, "" // exact, even above 2^53 (Validate names those)
			}
			return 0, 0, uint64(x), ""
		}
		// Clamp before converting (int64(x) of a huge x differs by
		// platform); Validate names the range, and configFrom the value
		// given.
		return x, int64(min(max(x, -MaxWhole), MaxWhole)), 0, ""
	}
	return x, 0, 0, ""
}

// jsNonFinite are the JS Numbers that are not finite, as jsNumber writes
// them.
var jsNonFinite = map[string]float64{"NaN": math.NaN(), "Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}

// SortedUnknown returns the keys of vals that are neither known nor one of
// extra, sorted, so that messages come in the same order every time.
func SortedUnknown[V any](vals map[string]V, known func(string) bool, extra ...string) []string {
	var out []string
	for k := range vals {
		if !known(k) && !slices.Contains(extra, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// maxUnknown is how many unknown keys the answer names one by one; the
// rest it counts.
const maxUnknown = 10

// unknownKeys are the messages for keys (sorted) that are not settings of
// what ("the simulator"), whose keys are known: the first maxUnknown by
// name, each quoted at most QuoteChars long, the list of settings once,
// and a count of the rest, so that the answer stays short whatever the
// input holds.
func unknownKeys(keys []string, what string, known []string) []FieldMsg {
	var out []FieldMsg
	for i, k := range keys {
		if i == maxUnknown {
			out = append(out, FieldMsg{"", "and " + GroupDigits(strconv.Itoa(len(keys)-maxUnknown)) + " more keys that are not settings of " + what})
			break
		}
		msg := "is not a setting of " + what + " either"
		if i == 0 {
			msg = "is not a setting of " + what + ": " + useInstead(k, known)
		}
		out = append(out, FieldMsg{Prefix(k, QuoteChars), msg})
	}
	return out
}

// useInstead says what to give for the unknown key k: the known keys
// when they are few; else the nearest, if one is within two edits, and
// where the whole list is.
func useInstead(k string, known []string) string {
	if len(known) <= 8 {
		return "use one of " + strings.Join(known, ", ")
	}
	near, best := "", 3
	for _, key := range known {
		if d := editDistance(strings.ReplaceAll(strings.ToLower(k), "-", "_"), key, best); d < best {
			near, best = key, d
		}
	}
	if near != "" {
		return "did you mean " + near + "? shedsim.defaults().keys lists every setting"
	}
	return "shedsim.defaults().keys lists every setting, such as " + strings.Join(known[:3], ", ")
}

// editDistance is the Levenshtein distance between a and b, or most when
// it is at least most (a long key is not compared in full).
func editDistance(a, b string, most int) int {
	if len(a)-len(b) >= most || len(b)-len(a) >= most {
		return most
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], most)
}

// applyConfig sets the fields named in vals on c. It returns a message per
// value that cannot be read and for the unknown keys (keys in ignore are
// skipped), in the order of configFields, then unknown keys sorted; and
// the keys whose whole number set held to MaxWhole.
func applyConfig(c *sim.Config, vals map[string]Scalar, ignore ...string) (errs []FieldMsg, clamped []string) {
	d := Defaults
	for _, f := range configFields {
		s, ok := vals[f.Key]
		if !ok {
			continue
		}
		msg, held := f.set(c, s, d[f.Key])
		if msg != "" {
			errs = append(errs, FieldMsg{f.Key, msg})
		}
		if held {
			clamped = append(clamped, f.Key)
		}
	}
	unknown := SortedUnknown(vals, func(k string) bool { _, ok := FieldByKey(k); return ok }, ignore...)
	return append(errs, unknownKeys(unknown, "the simulator", configKeys)...), clamped
}

// inPercent restates Validate's message about a share that was typed as a
// percentage in the units typed: "0.95 is too large: use a number from 0
// to 0.9" for "95%" becomes "\"95%\" is too large: use a share from 0% to 90%
// (0 to 0.9)". A message of another shape is kept as it is.
func inPercent(typed, msg string) string {
	_, rest, ok := strings.Cut(msg, " is ")
	verdict, use, ok2 := strings.Cut(rest, ": use a number from ")
	lo, hi, ok3 := strings.Cut(use, " to ")
	l, err1 := strconv.ParseFloat(lo, 64)
	h, err2 := strconv.ParseFloat(hi, 64)
	if !ok || !ok2 || !ok3 || err1 != nil || err2 != nil {
		return msg
	}
	pct := func(x float64) string { return strconv.FormatFloat(float64(x*100), 'f', -1, 64) + "%" }
	return typed + " is " + verdict + ": use a share from " + pct(l) + " to " + pct(h) + " (" + lo + " to " + hi + ")"
}

// SimErrors lists the field errors of Validate, leaving out fields that
// already have a message in have.
func SimErrors(err error, have []FieldMsg) []FieldMsg {
	var out []FieldMsg
	for _, fe := range sim.FieldErrors(err) {
		if !hasField(have, fe.Field) {
			out = append(out, FieldMsg{fe.Field, fe.Msg})
		}
	}
	if err != nil && len(out) == 0 && len(have) == 0 {
		out = append(out, FieldMsg{"", err.Error()})
	}
	return out
}

func hasField(errs []FieldMsg, field string) bool {
	for _, e := range errs {
		if e.Field == field {
			return true
		}
	}
	return false
}
