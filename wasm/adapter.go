package main

import (
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
)

// This file is the page's adapter: pure functions, JSON in and JSON out,
// that main_js.go hands to JavaScript and that adapter_test.go exercises
// natively. None of them touches the DOM, a clock or a global, and every
// exported-to-JS function recovers from a panic and returns
// {"error": "..."} instead.

// PageBudget is the most attempts one call from the page may simulate, over
// all the runs it makes: report.Build runs a Config once per policy, so a
// view costs Config.ExpectedAttempts() times the policies there are
// (len(sim.Policies)), a client comparison x 6, a single run x 1. It is
// pageRunBudget a policy: the engine runs in the page's workers, at about 2
// million attempts a second in Chromium, so an hour at the shop's rates,
// every policy side by side, takes a second or two rather than keeping the
// reader waiting. The command line, which has no such budget, runs
// anything sim.Config.Validate accepts.
var PageBudget = pageRunBudget * len(sim.Policies)

// pageRunBudget is the page's budget a policy: an hour at 92 people a
// second (the big link of TestWorkers) fits.
const pageRunBudget = 335_000

// PageMaxDurationS is the longest run the page draws, in seconds: its
// table has a row per 10 s window, and its chart a bar per window, or per
// few windows past report.MaxBars (an hour: 120 bars of 30 s). The page
// draws an hour a step at a time (sim_drawing_js.go), where a day's 8,640
// windows took 1.4 s to build in one task. PageBudget does not bound it: a day at one
// person a second is well inside the budget. The command line draws no
// chart, and runs anything sim.Config.Validate accepts (up to a day).
const PageMaxDurationS = 3600

// viewRuns is how many runs of a Config report.Build makes that the budget
// counts: one per policy (its advice adds at most a few more runs of the
// same size, which the budget's margin covers).
var viewRuns = len(sim.Policies)

// FieldMsg is one problem with one input: the JSON key of the field (the
// form's, the URL's) and what is wrong with it and how to fix it. Field is
// "" for a problem with the input as a whole.
type FieldMsg struct {
	Field string `json:"field"`
	Msg   string `json:"msg"`
}

// errorsJSON is the answer for input that a person can fix.
type errorsJSON struct {
	Errors []FieldMsg `json:"errors"`
}

// errorJSON is the answer for a failure that is not about one field: bad
// JSON, or a panic, which is a bug.
type errorJSON struct {
	Error string `json:"error"`
}

// mustJSON encodes v with json.Marshal; it panics only on a value that
// cannot be encoded, which is a bug that guard turns into {"error": ...}.
//
//go:noinline
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// fail is the {"error": msg} answer.
//
//go:noinline
func fail(msg string) string {
	b, _ := json.Marshal(errorJSON{msg})
	return string(b)
}

// invalid is the {"errors": [...]} answer.
func invalid(errs []FieldMsg) string { return mustJSON(errorsJSON{errs}) }

// guard turns a panic in the function whose result is *out into
// {"error": "..."}. Use as: defer guard(&out).
func guard(out *string) {
	if r := recover(); r != nil {
		*out = fail("internal error (a bug, please report it): " + panicText(r))
	}
}

// panicText is a recovered panic value as fmt's %v writes it: an error's
// Error(), a Stringer's String(), a string, bool or number as is. The
// page's WebAssembly does without fmt (it and the reflection it pulls in
// were most of the module), so a value of any other kind, which no panic
// in the page carries, is written as its type.
//
//go:noinline
func panicText(r any) string {
	switch v := r.(type) {
	case nil:
		return "<nil>"
	case error:
		return v.Error()
	case interface{ String() string }:
		return v.String()
	}
	v := reflect.ValueOf(r)
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	return "a panic of type " + v.Type().String()
}

// Field kinds, for decoding a value given as a JSON number or a string.
type kind uint8

const (
	kindFloat kind = iota // a real number
	kindInt               // a whole number (int)
	kindSeed              // a whole number from 0 (uint64)
	kindText              // a key such as a policy's, read by UnmarshalText
	kindShare             // a fraction, or a percentage written "5%"
)

// configField is one key of sim.Config as the page, the URL and the JSON
// API spell it: its setting (sim.Settings), and how the page reads it.
type configField struct {
	Key     string
	kind    kind
	setting sim.Setting
}

// configFields lists every setting of sim.Config, in the order of its
// fields, so that a setting added to the engine reaches the page without a
// change here. adapter_test.go checks it.
var configFields = func() []configField {
	var out []configField
	for _, s := range sim.Settings() {
		var k kind
		switch s.Kind {
		case sim.Choice:
			k = kindText
		case sim.Whole:
			k = kindInt
		case sim.Seed:
			k = kindSeed
		case sim.Real:
			k = kindFloat
			if s.Min == 0 && s.Max <= 1 { // shares: 0.2 or 20%, as the planner's target
				k = kindShare
			}
		}
		out = append(out, configField{s.Key, k, s})
	}
	return out
}()

func fnum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// get returns the field's value in c as the form writes it.
func (f configField) get(c sim.Config) string {
	v := f.setting.Of(&c)
	switch f.kind {
	case kindText:
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return strconv.FormatInt(v.Int(), 10)
		}
		return string(b)
	case kindInt:
		return strconv.FormatInt(v.Int(), 10)
	case kindSeed:
		return strconv.FormatUint(v.Uint(), 10)
	}
	return fnum(v.Float())
}

// set reads s into the field of c, or returns what is wrong with it.
// clamped is true when s is a whole number too large for any field, which
// set holds to 1e15 for Validate to refuse: its message then names that
// number, and configFrom restores the one given.
func (f configField) set(c *sim.Config, s scalar, example string) (msg string, clamped bool) {
	if s.bad != "" {
		return s.bad, false
	}
	if msg := s.tooLong(); msg != "" {
		return msg, false
	}
	v := f.setting.Of(c)
	if f.kind == kindText {
		if err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(strings.TrimSpace(s.text))); err != nil {
			msg := err.Error()
			// "unknown policy "x": use one of ..." becomes ""x" is not a
			// policy: use one of ...".
			if _, rest, ok := strings.Cut(msg, ": "); ok {
				msg = rest
			}
			return s.show() + " is not a " + strings.ReplaceAll(f.Key, "_", " ") + ": " + msg, false
		}
		return "", false
	}
	x, i, u, msg := parseNumber(s, f.kind, example)
	if msg != "" {
		return msg, false
	}
	switch f.kind {
	case kindInt:
		v.SetInt(i)
		return "", math.Abs(x) > maxWhole
	case kindSeed:
		v.SetUint(u)
	default:
		v.SetFloat(x)
	}
	return "", false
}

// maxWhole is the largest whole number parseNumber reads as it is; a
// larger one is held to it (int64 of a huge float differs by platform),
// far outside every field's range.
const maxWhole = 1e15

// ConfigKeys returns every Config key, in order.
func ConfigKeys() []string { return slices.Clone(configKeys) }

// configKeys are the Config's keys, made once: the form reads them at
// every keystroke.
var configKeys = func() []string {
	out := make([]string, len(configFields))
	for i, f := range configFields {
		out[i] = f.Key
	}
	return out
}()

func fieldByKey(key string) (configField, bool) {
	for _, f := range configFields {
		if f.Key == key {
			return f, true
		}
	}
	return configField{}, false
}

// defaults is sim.DefaultConfig as strings, made once; read it, or take a
// copy to change with defaultStrings.
var defaults = ConfigStrings(sim.DefaultConfig())

// ConfigStrings returns c as the form and the URL write it: each key's
// value as a string, such as "80" or "bounded".
//
//go:noinline
func ConfigStrings(c sim.Config) map[string]string {
	out := make(map[string]string, len(configFields))
	for _, f := range configFields {
		out[f.Key] = f.get(c)
	}
	return out
}

// parseNumber reads s as kind k; the message says what to type instead,
// with example as a value that would do.
func parseNumber(s scalar, k kind, example string) (f float64, i int64, u uint64, msg string) {
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
		return 0, 0, 0, s.show() + " is not " + what + ": use " + what + " such as " + example
	}
	switch k {
	case kindInt, kindSeed:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, 0, 0, s.show() + " is not a whole number: use a whole number such as " + example
		}
		if k == kindSeed {
			if x < 0 || x >= 1<<63 {
				return 0, 0, 0, s.show() + " is out of range: use a whole number from 0 to " + strconv.FormatUint(sim.MaxSeed, 10)
			}
			if v, err := strconv.ParseUint(t, 10, 64); err == nil {
				return 0, 0, v, "" // exact, even above 2^53 (Validate names those)
			}
			return 0, 0, uint64(x), ""
		}
		// Clamp before converting (int64(x) of a huge x differs by
		// platform); Validate names the range, and configFrom the value
		// given.
		return x, int64(min(max(x, -maxWhole), maxWhole)), 0, ""
	}
	return x, 0, 0, ""
}

// jsNonFinite are the JS Numbers that are not finite, as jsNumber writes
// them.
var jsNonFinite = map[string]float64{"NaN": math.NaN(), "Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}

// sortedUnknown returns the keys of vals that are neither known nor one of
// extra, sorted, so that messages come in the same order every time.
func sortedUnknown[V any](vals map[string]V, known func(string) bool, extra ...string) []string {
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
// name, each quoted at most quoteChars long, the list of settings once,
// and a count of the rest, so that the answer stays short whatever the
// input holds.
func unknownKeys(keys []string, what string, known []string) []FieldMsg {
	var out []FieldMsg
	for i, k := range keys {
		if i == maxUnknown {
			out = append(out, FieldMsg{"", "and " + groupDigits(strconv.Itoa(len(keys)-maxUnknown)) + " more keys that are not settings of " + what})
			break
		}
		msg := "is not a setting of " + what + " either"
		if i == 0 {
			msg = "is not a setting of " + what + ": " + useInstead(k, known)
		}
		out = append(out, FieldMsg{prefix(k, quoteChars), msg})
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
// the keys whose whole number set held to maxWhole.
func applyConfig(c *sim.Config, vals map[string]scalar, ignore ...string) (errs []FieldMsg, clamped []string) {
	d := defaults
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
	unknown := sortedUnknown(vals, func(k string) bool { _, ok := fieldByKey(k); return ok }, ignore...)
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

// simErrors lists the field errors of Validate, leaving out fields that
// already have a message in have.
func simErrors(err error, have []FieldMsg) []FieldMsg {
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

// ConfigFromStrings is a Config from the form: base with each value in
// vals set, each read as its field wants it (a number, a whole number, a
// policy key), then validated, and checked against the page budget for
// runs runs. Keys in ignore are not Config keys but are expected (such as
// "sample"). It returns every problem it finds, in the order of the
// fields. The form holds every setting, so none is refused for counting
// for nothing; for values given one by one, use ConfigFromGiven.
func ConfigFromStrings(base sim.Config, vals map[string]string, runs int, ignore ...string) (sim.Config, []FieldMsg) {
	return configFrom(base, stringValues(vals), runs, nil, ignore...)
}

// ConfigFromGiven is ConfigFromStrings for settings given explicitly, one
// by one (a URL's keys, an element's attributes): a setting given a value
// other than base's that would count for nothing in the runs of scope is
// refused too, naming the setting that would make it count
// (sim.Config.Unused).
func ConfigFromGiven(base sim.Config, vals map[string]string, runs int, scope sim.Scope, ignore ...string) (sim.Config, []FieldMsg) {
	return configFrom(base, stringValues(vals), runs, &scope, ignore...)
}

// UnusedGiven is what ConfigFromGiven adds to ConfigFromStrings: the
// settings in vals (given one by one, such as a URL's keys) that would
// count for nothing in the runs of scope on base, each with the setting
// that would make it count. It is nil when every one counts, and when a
// value cannot be read or is out of range, which the form reports itself.
func UnusedGiven(base sim.Config, vals map[string]string, scope sim.Scope) []FieldMsg {
	q := map[string]string{}
	for k, v := range vals {
		if _, ok := fieldByKey(k); ok {
			q[k] = v
		}
	}
	c, errs := configFrom(base, stringValues(q), 1, nil)
	if len(errs) > 0 {
		return nil
	}
	return simErrors(c.Unused(changed(base, c, stringValues(q)), scope), nil)
}

// PageStart is what the simulator page starts from, given its address's
// query q (parseQuery): the form's values (pageValues) and the link's own
// problems, each named by its key: a sample that is none, and the
// settings it gives that count for nothing in the page's runs. A value
// the form cannot read is not among them: the form marks it, as it marks
// one typed.
func PageStart(q map[string]string) (vals map[string]string, problems []FieldMsg) {
	base := sim.DefaultConfig()
	if s, ok := sim.SampleByKey(q["sample"]); ok {
		base = s.Config
	}
	problems = append(sampleProblem(q["sample"]), UnusedGiven(base, q, sim.Scope{EveryPolicy: true, Series: true})...)
	return pageValues(q), problems
}

// sampleProblem is the problem of a sample's key given (by an address, an
// attribute) that is no sample's, read as sim.SampleByKey reads one; none
// for a sample's key or for none at all.
func sampleProblem(key string) []FieldMsg {
	if _, ok := sim.SampleByKey(key); ok || key == "" {
		return nil
	}
	return []FieldMsg{{"sample", scalar{text: key, quoted: true}.show() + " is not a sample: use one of " + strings.Join(sim.SampleKeys(), ", ") +
		", or leave it out for the shop's numbers"}}
}

// pageValues is the page's form for a URL query: its sample's Config, or
// the default, with each Config key the query gives, and the seeds.
func pageValues(q map[string]string) map[string]string {
	c := sim.DefaultConfig()
	if s, ok := sim.SampleByKey(q["sample"]); ok {
		c = s.Config
	}
	vals := ConfigStrings(c)
	for k, v := range q {
		if _, ok := fieldByKey(k); ok {
			vals[k] = v
		}
	}
	return withSeeds(vals, q)
}

// changed are the keys of vals whose value in c differs from base's: the
// settings given explicitly. A key given its base value is not counted as
// given, so that a whole Config (a Result's config, passed back to
// shedsim.run) reads back, every setting in it, counted or not.
func changed[V any](base, c sim.Config, vals map[string]V) []string {
	var out []string
	for _, f := range configFields {
		if _, ok := vals[f.Key]; ok && f.get(c) != f.get(base) {
			out = append(out, f.Key)
		}
	}
	return out
}

func stringValues(vals map[string]string) map[string]scalar {
	sv := make(map[string]scalar, len(vals))
	for k, v := range vals {
		sv[k] = scalar{text: v, quoted: true}
	}
	return sv
}

// configFrom is base with vals set, validated and held to the page's
// budget for runs runs; with a scope, the settings given that would count
// for nothing in it are refused as well.
func configFrom(base sim.Config, vals map[string]scalar, runs int, scope *sim.Scope, ignore ...string) (sim.Config, []FieldMsg) {
	c := base
	errs, clamped := applyConfig(&c, vals, ignore...)
	for _, e := range simErrors(c.Validate(), errs) {
		s, ok := vals[e.Field]
		switch {
		case ok && slices.Contains(clamped, e.Field):
			// Validate names the number set held the value to; name the
			// one given: "1e308 is out of range", not "1,000,000,000,...".
			if _, rest, cut := strings.Cut(e.Msg, " is "); cut {
				e.Msg = s.show() + " is " + rest
			}
		case ok && strings.HasSuffix(strings.TrimSpace(s.text), "%"):
			e.Msg = inPercent(s.show(), e.Msg)
		}
		errs = append(errs, e)
	}
	if len(errs) == 0 && scope != nil {
		errs = simErrors(c.Unused(changed(base, c, vals), *scope), nil)
	}
	if len(errs) == 0 {
		if e := budget(c, runs); e != nil {
			errs = append(errs, *e)
		}
	}
	return c, errs
}

// decodeConfig reads a Config from the API's argument, starting from
// sim.DefaultConfig so that a missing key keeps its default; numbers may be
// given as numbers or as strings. A setting it gives a value other than
// the default's is given explicitly, so if it would count for nothing in
// scope it is refused.
func decodeConfig(in input, runs int, scope sim.Scope) (sim.Config, []FieldMsg, error) {
	if in.err != nil {
		return sim.Config{}, nil, in.err
	}
	c, errs := configFrom(sim.DefaultConfig(), in.vals, runs, &scope)
	return c, errs, nil
}

// budget checks that c is no longer than PageMaxDurationS and that runs
// runs of it fit in PageBudget, and if not names the field to change: for
// the budget, the one that contributes most, the one of sale_rps,
// normal_rps, duration_s and retries whose return to its default would
// cut the run the most.
func budget(c sim.Config, runs int) *FieldMsg {
	if c.DurationS > PageMaxDurationS {
		return &FieldMsg{"duration_s", "a run of " + report.Seconds(c.DurationS) + " is longer than the page draws, at most " +
			report.Seconds(PageMaxDurationS) + " (" + report.Count(PageMaxDurationS/10) + " windows of 10 s), which keeps the page from freezing: " +
			"shorten it, or run it with the command line, shedsim --duration-s, which has no such limit"}
	}
	total := c.ExpectedAttempts() * float64(runs)
	if total <= float64(PageBudget) {
		return nil
	}
	d := sim.DefaultConfig()
	type option struct {
		field string
		alt   sim.Config
	}
	alts := []option{{"sale_rps", c}, {"normal_rps", c}, {"duration_s", c}, {"retries", c}}
	alts[0].alt.SaleRPS = min(c.SaleRPS, d.SaleRPS)
	alts[1].alt.NormalRPS = min(c.NormalRPS, d.NormalRPS)
	alts[2].alt.DurationS = max(min(c.DurationS, d.DurationS), c.SaleEndS()+10)
	alts[3].alt.Retries = min(c.Retries, d.Retries)
	best, bestN := alts[0].field, math.Inf(1)
	for _, a := range alts {
		if n := a.alt.ExpectedAttempts(); n < bestN {
			best, bestN = a.field, n
		}
	}
	what := "run"
	if runs > 1 {
		what = "comparison of " + strconv.Itoa(runs) + " runs"
	}
	return &FieldMsg{best, "this " + what + " would simulate about " + report.Count(int(total)) + " attempts, over the page's budget of " +
		report.Count(PageBudget) + ", which keeps the page from freezing: lower " + best +
		" (the biggest contributor), or run it with the command line, shedsim --" + strings.ReplaceAll(best, "_", "-") + ", which allows " +
		report.Count(sim.MaxAttempts) + " attempts a run"}
}

// viewAnswer is the answer of viewJSON and clientsJSON: {"view": ...}.
type viewAnswer[V any] struct {
	View V `json:"view"`
}

// clientRuns is how many runs of a Config report.BuildClients makes: one
// per client strategy.
var clientRuns = len(sim.Clients)

// ClientRun runs c with client cl, or reuses chosen, the Result of c
// itself, when cl is c's own client: report.ClientRowOf of each, in the
// order of sim.Clients, is report.BuildClients(c) with one run fewer.
func ClientRun(c sim.Config, chosen sim.Result, cl sim.Client) (sim.Result, error) {
	if cl == c.Client {
		return chosen, nil
	}
	c.Client = cl
	return sim.Run(c)
}

// clientsOf compares every client strategy for a Config's policy: a
// Config as for viewOf in, {"view": report.ClientView} out, or
// {"errors": [...]}, or {"error": "..."}.
func clientsOf(in input) string {
	return answerView(in, clientRuns, sim.Scope{EveryClient: true}, report.BuildClients)
}

// viewOf is the simulator page's computation: a Config (any subset of
// its keys; numbers as numbers or strings) in, {"view": report.View} out,
// or {"errors": [{"field", "msg"}]} for input a person can fix, or
// {"error": "..."}.
func viewOf(in input) string {
	return answerView(in, viewRuns, sim.Scope{EveryPolicy: true, Series: true}, report.Build)
}

// answerView decodes in, which decodeConfig validates, checks for
// settings that count for nothing in scope and holds to the page budget
// for runs, and answers {"view": build(c)}.
func answerView[V any](in input, runs int, scope sim.Scope, build func(sim.Config) (V, error)) (out string) {
	defer guard(&out)
	c, errs, err := decodeConfig(in, runs, scope)
	if err != nil {
		return fail(err.Error())
	}
	if len(errs) > 0 {
		return invalid(errs)
	}
	v, err := build(c)
	if err != nil {
		return invalid(simErrors(err, nil))
	}
	return mustJSON(viewAnswer[V]{v})
}

// runOf runs one Config and returns its sim.Result as JSON, exactly the
// bytes json.Marshal gives natively (the browser parity test compares
// them), or {"errors": [...]} or {"error": "..."}.
func runOf(in input) (out string) {
	defer guard(&out)
	c, errs, err := decodeConfig(in, 1, sim.Scope{Series: true, Orders: true}) // the Result, its series and its orders
	if err != nil {
		return fail(err.Error())
	}
	if len(errs) > 0 {
		return invalid(errs)
	}
	r, err := sim.Run(c)
	if err != nil {
		return invalid(simErrors(err, nil))
	}
	return mustJSON(r)
}

// PolicyInfo names a policy for a menu.
type PolicyInfo struct {
	Key   string `json:"key"`
	Title string `json:"title"`
}

// Policies lists every policy's key and title, in the post's order.
func Policies() []PolicyInfo {
	out := make([]PolicyInfo, len(sim.Policies))
	for i, p := range sim.Policies {
		out[i] = PolicyInfo{p.String(), p.Title()}
	}
	return out
}

// defaultsJSON is what the page starts from: the default Config, the
// planner's default input, the page budget, the Config keys and the
// policies.
func defaultsJSON() (out string) {
	defer guard(&out)
	return mustJSON(struct {
		Config     sim.Config   `json:"config"`
		PlanInput  plan.Input   `json:"plan_input"`
		PageBudget int          `json:"page_budget"`
		Keys       []string     `json:"keys"`
		Policies   []PolicyInfo `json:"policies"`
	}{sim.DefaultConfig(), plan.DefaultInput(), PageBudget, ConfigKeys(), Policies()})
}

// samplesJSON is {"samples": [sim.Sample, ...]}, the default first.
func samplesJSON() (out string) {
	defer guard(&out)
	return mustJSON(struct {
		Samples []sim.Sample `json:"samples"`
	}{sim.Samples()})
}

// LabEntry is one of the lab's recorded combinations.
type LabEntry struct {
	Index  int        `json:"index"`
	Config sim.Config `json:"config"`
}

// labListJSON is the lab's 162 Configs with their index, and its
// dimensions: {"dimensions": {...}, "lab": [{"index", "config"}]}.
func labListJSON() (out string) {
	defer guard(&out)
	lab := sim.Lab()
	entries := make([]LabEntry, len(lab))
	for i, c := range lab {
		entries[i] = LabEntry{i, c}
	}
	type dims struct {
		Policies  []PolicyInfo `json:"policies"`
		Retries   []int        `json:"retries"`
		SaleRPS   []float64    `json:"sale_rps"`
		TimeoutMS []float64    `json:"timeout_ms"`
	}
	return mustJSON(struct {
		Dimensions dims       `json:"dimensions"`
		Lab        []LabEntry `json:"lab"`
	}{dims{Policies(), sim.LabRetries, sim.LabSaleRPS, sim.LabTimeoutMS}, entries})
}

// LabRun is one lab combination, run: the Result, its chart, and the
// words for how it ended.
type LabRun struct {
	Index  int          `json:"index"`
	Config sim.Config   `json:"config"`
	Result sim.Result   `json:"result"`
	Chart  report.Chart `json:"chart"`
	// Recovered is report.Recovered: "back to normal 90 s after the sale".
	Recovered string      `json:"recovered"`
	Outlook   report.Line `json:"outlook"`
	ThisRun   report.Line `json:"this_run"`
}

// LabIndex is the index in sim.Lab of a combination, or -1 when a value is
// not one of the lab's.
func LabIndex(p sim.Policy, retries int, saleRPS, timeoutMS float64) int {
	pi, ri := slices.Index(sim.Policies, p), slices.Index(sim.LabRetries, retries)
	si, ti := slices.Index(sim.LabSaleRPS, saleRPS), slices.Index(sim.LabTimeoutMS, timeoutMS)
	if pi < 0 || ri < 0 || si < 0 || ti < 0 {
		return -1
	}
	return ((pi*len(sim.LabRetries)+ri)*len(sim.LabSaleRPS)+si)*len(sim.LabTimeoutMS) + ti
}

// RunLab runs the lab's combination index.
func RunLab(index int) (LabRun, []FieldMsg) {
	lab := sim.Lab()
	if index < 0 || index >= len(lab) {
		return LabRun{}, []FieldMsg{{"index", strconv.Itoa(index) + " is out of range: use a whole number from 0 to " + strconv.Itoa(len(lab)-1)}}
	}
	c := lab[index]
	r, err := sim.Run(c)
	if err != nil {
		return LabRun{}, simErrors(err, nil)
	}
	return LabRun{index, c, r, report.Timeline(r), report.Recovered(r), report.Outlook(r), report.ThisRun(r)}, nil
}

// labOf is shedsim.lab(index): the index a whole number (a number or a
// string of one, from 0 to 161); anything else, NaN and 1.5 included, is
// {"errors": [...]}, never a run of an index nobody gave.
func labOf(v jsValue) (out string) {
	defer guard(&out)
	s := jsScalar(v)
	if s == (scalar{}) {
		s = scalar{bad: "is missing: give the index of a lab run, a whole number from 0 to " + strconv.Itoa(len(sim.Lab())-1)}
	}
	x, i, _, msg := parseNumber(s, kindInt, "0")
	if msg == "" && math.Abs(x) > maxWhole {
		msg = s.show() + " is out of range: use a whole number from 0 to " + strconv.Itoa(len(sim.Lab())-1)
	}
	if msg != "" {
		return invalid([]FieldMsg{{"index", msg}})
	}
	return labJSON(int(i))
}

// labJSON runs the lab's combination index (0 to 161, in the order of
// sim.Lab) and returns a LabRun, or {"errors": [...]} for an index out of
// range.
func labJSON(index int) (out string) {
	defer guard(&out)
	l, errs := RunLab(index)
	if len(errs) > 0 {
		return invalid(errs)
	}
	return mustJSON(l)
}

// waits is what the planner counts, after "requests that": "wait", or
// "wait longer than 100 ms" with a limit.
func waits(in plan.Input) string {
	if in.LimitMS > 0 {
		return "wait longer than " + report.Duration(in.LimitMS)
	}
	return "wait"
}

// planDefaults are plan.DefaultInput as the planner's form writes it, the
// target as a percentage (its own example: 120/s, 45 ms, 5%).
var planDefaults = func() map[string]string {
	in := plan.DefaultInput()
	return map[string]string{"rate_rps": fnum(in.RateRPS), "service_ms": fnum(in.ServiceMS),
		"target": fnum(float64(in.Target*100)) + "%", "limit_ms": fnum(in.LimitMS),
		"patience_ms": fnum(in.PatienceMS), "abandon_target": fnum(in.AbandonTarget)}
}()

// planKeys are the planner's keys, in the order of its form.
var planKeys = func() []string {
	var keys []string
	for _, f := range planFields {
		keys = append(keys, f.Key)
	}
	return keys
}()

var planFields = []struct {
	Key  string
	kind kind
	set  func(in *plan.Input, x float64)
}{
	{"rate_rps", kindFloat, func(in *plan.Input, x float64) { in.RateRPS = x }},
	{"service_ms", kindFloat, func(in *plan.Input, x float64) { in.ServiceMS = x }},
	{"target", kindShare, func(in *plan.Input, x float64) { in.Target = x }},
	{"limit_ms", kindFloat, func(in *plan.Input, x float64) { in.LimitMS = x }},
	{"patience_ms", kindFloat, func(in *plan.Input, x float64) { in.PatienceMS = x }},
	{"abandon_target", kindShare, func(in *plan.Input, x float64) { in.AbandonTarget = x }},
}

// PlanFromStrings is a planner Input from the form or the URL: the
// default input with each value in vals set (target may be a fraction,
// 0.05, or a percentage, "5%"), validated.
func PlanFromStrings(vals map[string]string) (plan.Input, []FieldMsg) {
	return planFrom(stringValues(vals))
}

func planFrom(vals map[string]scalar) (plan.Input, []FieldMsg) {
	in := plan.DefaultInput()
	d := planDefaults
	var errs []FieldMsg
	for _, f := range planFields {
		s, ok := vals[f.Key]
		if !ok {
			continue
		}
		x, _, _, msg := parseNumber(s, f.kind, d[f.Key])
		if msg != "" {
			errs = append(errs, FieldMsg{f.Key, msg})
			continue
		}
		f.set(&in, x)
	}
	errs = append(errs, unknownKeys(sortedUnknown(vals, func(k string) bool { _, ok := d[k]; return ok }), "the planner", planKeys)...)
	errs = append(errs, simErrors(in.Validate(), errs)...)
	return in, errs
}

// PlanAnswer is the planner page's answer: the plan and its chart.
type PlanAnswer struct {
	Plan  plan.Plan `json:"plan"`
	Chart PlanChart `json:"chart"`
}

// ComputePlan validates in and computes its plan and chart.
func ComputePlan(in plan.Input) (PlanAnswer, []FieldMsg) {
	p, err := plan.Compute(in) // it validates in, with the same field errors
	if err != nil {
		return PlanAnswer{}, simErrors(err, nil)
	}
	return PlanAnswer{p, LayoutPlan(p)}, nil
}

// planOf is the planner: {"rate_rps", "service_ms", "target", "limit_ms"}
// in (any subset; numbers or strings; target also as "5%"), {"plan":
// plan.Plan, "chart": PlanChart} out, or {"errors": [...]}, or
// {"error": "..."}.
func planOf(arg input) (out string) {
	defer guard(&out)
	if arg.err != nil {
		return fail(arg.err.Error())
	}
	in, errs := planFrom(arg.vals)
	if len(errs) > 0 {
		return invalid(errs)
	}
	a, errs := ComputePlan(in)
	if len(errs) > 0 {
		return invalid(errs)
	}
	return mustJSON(a)
}

// PlanChart is the geometry of the planner's chart, in the units of an SVG
// viewBox of Width x Height: one column per server count of the Plan's
// Curve, its height the share of requests that wait (or wait longer than
// the limit), with the target as a horizontal line.
type PlanChart struct {
	Width  float64       `json:"width"`
	Height float64       `json:"height"`
	Plot   report.Rect   `json:"plot"`
	Bars   []PlanBar     `json:"bars"`
	Target float64       `json:"target_y"`
	XTicks []report.Tick `json:"x_ticks"`
	YTicks []report.Tick `json:"y_ticks"`
	// Summary describes the chart in a sentence, for screen readers.
	Summary string `json:"summary"`
}

// PlanBar is one server count's column.
type PlanBar struct {
	Servers int `json:"servers"`
	report.Rect
	// Kind is "answer", "one_fewer", "meets" (meets the target) or
	// "misses".
	Kind  string `json:"kind"`
	Label string `json:"label"`
}

// PlanPercent formats a share for the planner, which needs two decimals
// (7.56%), and tiny shares with their first two significant digits, as
// decimals a reader reads ("0.000029%", not "2.9e-05%").
func PlanPercent(x float64) string {
	p := x * 100
	switch {
	case p == 0:
		return "0%"
	case p < 0.01:
		prec := 1
		for v := p; v < 1 && prec < 20; v *= 10 {
			prec++
		}
		return strconv.FormatFloat(p, 'f', prec, 64) + "%"
	}
	return strconv.FormatFloat(p, 'f', 2, 64) + "%"
}

// LayoutPlan lays out p's curve as a column chart.
func LayoutPlan(p plan.Plan) PlanChart {
	// The left margin holds "100%" at a phone's 22 units (widget.css): at
	// 44 it ran off the screen's left edge.
	const w, h, ml, mr, mt, mb = 600.0, 220.0, 68.0, 8.0, 8.0, 28.0
	pw, ph := w-ml-mr, h-mt-mb
	ch := PlanChart{Width: w, Height: h, Plot: report.Rect{X: ml, Y: mt, W: pw, H: ph}}
	ch.Target = mt + ph - float64(p.Input.Target*ph)
	n := len(p.Curve)
	what := waits(p.Input)
	if n == 0 {
		ch.Summary = "No stable server count to chart."
		return ch
	}
	slot := pw / float64(n)
	step := 1
	for n/step > 12 {
		step++
	}
	for i, r := range p.Curve {
		k := "misses"
		switch {
		case r.Servers == p.Servers:
			k = "answer"
		case r.Servers == p.Servers-1:
			k = "one_fewer"
		case r.MeetsTarget:
			k = "meets"
		}
		bh := float64(r.Wait * ph)
		x := ml + float64(slot*float64(i))
		ch.Bars = append(ch.Bars, PlanBar{r.Servers, report.Rect{X: x + float64(slot*0.1), Y: mt + ph - bh, W: slot * 0.8, H: bh}, k,
			strconv.Itoa(r.Servers) + " servers: " + PlanPercent(r.Wait) + " of requests " + what})
		if (r.Servers-p.Servers)%step == 0 {
			ch.XTicks = append(ch.XTicks, report.Tick{At: x + slot/2, Label: strconv.Itoa(r.Servers)})
		}
	}
	for _, f := range []float64{0, 0.5, 1} {
		ch.YTicks = append(ch.YTicks, report.Tick{At: mt + ph - float64(f*ph), Label: strconv.Itoa(int(f*100)) + "%"})
	}
	first, last := p.Curve[0], p.Curve[n-1]
	s := "Share of requests that " + what + ", by servers, from " + strconv.Itoa(first.Servers) + " to " + strconv.Itoa(last.Servers) + ": " +
		PlanPercent(first.Wait) + " with " + strconv.Itoa(first.Servers) + ", "
	if p.OneFewer != nil && p.OneFewer.Stable {
		s += PlanPercent(p.OneFewer.Wait) + " with " + strconv.Itoa(p.Servers-1) + ", "
	}
	s += PlanPercent(p.Answer.Wait) + " with " + strconv.Itoa(p.Servers) + " (the answer, target " + PlanPercent(p.Input.Target) + "), " +
		PlanPercent(last.Wait) + " with " + strconv.Itoa(last.Servers) + "."
	ch.Summary = s
	return ch
}

// ViewCSV is the simulator's results as CSV: the comparison of every
// policy, a blank line, then the chosen policy's 10 s windows. Shares are
// fractions, times in milliseconds or seconds as the headers say, and an
// empty cell stands for "none" (no median when nobody was answered, no
// return to normal, no share of nobody).
func ViewCSV(v report.View) string {
	var b strings.Builder
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	opt := func(x *float64) string {
		if x == nil {
			return ""
		}
		return g(*x)
	}
	of := func(share float64, n int) string { // a share of n people or orders
		if n == 0 {
			return ""
		}
		return g(share)
	}
	b.WriteString("policy,title,answered,refused,timed_out,orders_answered,median_wait_ms,p99_wait_ms,wasted,back_to_normal_s,recovery,attempts_per_person\n")
	for _, r := range v.Rows {
		for i, cell := range [...]string{r.Policy.String(), csvQuote(r.Title), of(r.Answered, r.People), of(r.Refused, r.People), of(r.TimedOut, r.People),
			of(r.OrdersAnswered, r.Orders), opt(r.MedianWaitMS), opt(r.P99WaitMS), strconv.Itoa(r.Wasted), opt(r.BackToNormalS), string(r.Recovery), of(r.AttemptsPerPerson, r.People)} {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(cell)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\nwindow_start_s,in_sale,people,answered,refused,timed_out,unfinished,answered_share,attempts\n")
	c := v.Config
	for _, w := range v.Chosen.Windows {
		sale := c.MeasuredAt(w.StartS) // a wave of the sale, or an incident with no sale
		for i, cell := range [...]string{g(w.StartS), strconv.FormatBool(sale), strconv.Itoa(w.People), strconv.Itoa(w.Answered), strconv.Itoa(w.Refused),
			strconv.Itoa(w.TimedOut), strconv.Itoa(w.Unfinished), of(w.AnsweredShare, w.People-w.Unfinished), strconv.Itoa(w.Attempts)} {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(cell)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func csvQuote(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// QueueHint describes the queue size in force next to the queue field:
// "automatic: 50, 0.5 s of work" when queue is 0, else "1,024 requests,
// 10.2 s of work".
func QueueHint(v report.View) string {
	if v.Config.Queue == 0 {
		return "automatic: " + report.Count(v.QueueBound) + ", " + report.Seconds(v.QueueSeconds) + " of work"
	}
	return report.Count(v.QueueBound) + " requests, " + report.Seconds(v.QueueSeconds) + " of work"
}

// encodeQuery writes vals in the order of keys, leaving out those equal
// to defaults, as a URL query: "?policy=bounded&retries=3", or "" when
// nothing differs, each key and value escaped by url.QueryEscape.
func encodeQuery(keys []string, vals, defaults map[string]string) string {
	var b strings.Builder
	for _, k := range keys {
		v, ok := vals[k]
		if !ok || v == defaults[k] {
			continue
		}
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

// canonicalChoice is a menu's value as its option spells it: a policy or a
// client given in another case or with spaces ("Bounded"), which the engine
// reads all the same, becomes its key ("bounded"); any other value is left
// as it is.
func canonicalChoice(key, v string) string {
	s, _ := sim.SettingByKey(key)
	want := strings.ToLower(strings.TrimSpace(v))
	for _, c := range s.Choices() {
		if c[0] == want {
			return c[0]
		}
	}
	return v
}

// parseQuery reads a URL query ("?a=1&b=2", the "?" optional) into the
// first value of each key, as url.ParseQuery reads it (skipping a key with
// a semicolon), except that a malformed escape stays as it was typed (see
// lenientEscapes). url.ParseQuery refuses a query of more than
// maxQueryPairs pairs whole, which would drop a long link's settings
// without a word; each pair is read, maxQueryPairs at a time, so that its
// unknown keys are named as any link's are.
func parseQuery(q string) map[string]string {
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
