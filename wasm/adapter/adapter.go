package adapter

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

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

// ViewRuns is how many runs of a Config report.Build makes that the budget
// counts: one per policy (its advice adds at most a few more runs of the
// same size, which the budget's margin covers).
var ViewRuns = len(sim.Policies)

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

// MustJSON encodes v with json.Marshal; it panics only on a value that
// cannot be encoded, which is a bug that guard turns into {"error": ...}.
//
//go:noinline
func MustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// Fail is the {"error": msg} answer.
//
//go:noinline
func Fail(msg string) string {
	b, _ := json.Marshal(errorJSON{msg})
	return string(b)
}

// Invalid is the {"errors": [...]} answer.
func Invalid(errs []FieldMsg) string { return MustJSON(errorsJSON{errs}) }

// guard turns a panic in the function whose result is *out into
// {"error": "..."}. Use as: defer guard(&out).
func guard(out *string) {
	if r := recover(); r != nil {
		*out = Fail("internal error (a bug, please report it): " + PanicText(r))
	}
}

// PanicText is a recovered panic value as fmt's %v writes it: an error's
// Error(), a Stringer's String(), a string, bool or number as is. The
// page's WebAssembly does without fmt (it and the reflection it pulls in
// were most of the module), so a value of any other kind, which no panic
// in the page carries, is written as its type.
//
//go:noinline
func PanicText(r any) string {
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
