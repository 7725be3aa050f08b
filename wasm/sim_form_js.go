//go:build js && wasm

package main

import (
	"maps"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// simGroup is one fieldset of the simulator's form.
type simGroup struct {
	legend   string
	advanced bool // inside the "Advanced" <details>
	fields   []fieldSpec
}

// simGroups is the simulator page's form. Config keys not listed here
// (fields the engine grows later) are added to the advanced group.
var simGroups = []simGroup{
	{"Service", false, []fieldSpec{{"policy", "Policy", "", ""}, {"workers", "Workers", "", "numeric"}, {"service_ms", "Service time", "ms, mean", "decimal"}}},
	{"Traffic", false, []fieldSpec{{"normal_rps", "Normal traffic", "people per s", "decimal"}, {"sale_rps", "Sale traffic", "people per s", "decimal"},
		{"sale_start_s", "Sale starts at", "s", "decimal"}, {"sale_s", "Sale lasts", "s", "decimal"},
		{"sale_ramp_s", "Ramps up and down over", "s, 0 = none", "decimal"}, {"sale_waves", "Waves", "0 = one", "numeric"}, {"sale_every_s", "Waves every", "s", "decimal"}, {"duration_s", "Run length", "s", "decimal"}}},
	{"Clients", false, []fieldSpec{{"timeout_ms", "Client timeout", "ms", "decimal"}, {"retries", "Retries", "per person", "numeric"}, {"retry_delay_ms", "Retry delay", "ms", "decimal"},
		{"client", "Retry strategy", "", ""}}},
	{"Your service", false, []fieldSpec{{"service", "Service times", "", ""}, {"service_p99_ms", "Service p99", "ms, log-normal only; 0 for the others", "decimal"},
		{"patience", "People give up", "", ""}, {"patience_ms", "Mean patience", "ms, 0 with none", "decimal"}}},
	{"Queue and refusals", false, []fieldSpec{{"queue", "Queue size", "0 = automatic", "numeric"}, {"refusal_cost_ms", "Refusal cost", "ms", "decimal"}, {"order_share", "Order share", "0 to 1", "decimal"}}},
	{"Incidents", false, []fieldSpec{{"loss_workers", "Workers lost", "0 = none", "numeric"}, {"loss_start_s", "Lost from", "s", "decimal"},
		{"loss_s", "Lost for", "s, 0 = to the end", "decimal"}, {"slow_factor", "Service slower by", "times, 0 = none", "decimal"},
		{"slow_start_s", "Slower from", "s", "decimal"}, {"slow_s", "Slower for", "s, 0 = to the end", "decimal"},
		{"heap_requests", "Memory holds", "waiting requests, 0 = latency does not grow", "numeric"}}},
	{"Run", false, []fieldSpec{{"seed", "Seed", "", "numeric"}}},
	{"Advanced", true, []fieldSpec{{"codel_target_ms", "Queue timeout target (M)", "ms", "decimal"}, {"codel_interval_ms", "Queue timeout interval (N)", "ms", "decimal"},
		{"retry_jitter_ms", "Retry jitter", "ms", "decimal"}}},
}

// compactFields are the controls of the <shed-sim> simulator widget
// when its controls attribute names none.
var compactFields = []fieldSpec{{"policy", "Policy", "", ""}, {"sale_rps", "Sale traffic", "per s", "decimal"}, {"retries", "Retries", "", "numeric"}}

// simForm is the simulator's inputs: the page's whole form, a widget's
// controls (widgetControls), or none; the values of the keys it has no
// field for come from the start Config.
type simForm struct {
	w *widget
	// el is the <form>, nil when there is none.
	el el
	// startVals is the start Config as strings: the values of the keys
	// the form has no field for, and of any a new set of values leaves
	// out.
	startVals           map[string]string
	fields              []*field
	byKey               map[string]*field
	sample, sampleAbout el // the samples menu and the line under it (the page)
	reset               el // "Back to the shop's numbers" (the page)
}

func newSimForm(w *widget, start sim.Config) *simForm {
	return &simForm{w: w, startVals: ConfigStrings(start), byKey: map[string]*field{}}
}

// add renders one field of the form and records it.
func (f *simForm) add(s fieldSpec, val string) *field {
	var fd *field
	switch s.Key {
	case "policy":
		fd = f.w.selectField(s, policyOptions(), canonicalChoice(s.Key, val))
	case "client":
		fd = f.w.selectField(s, clientOptions(), canonicalChoice(s.Key, val))
	case "service":
		fd = f.w.selectField(s, serviceOptions(), canonicalChoice(s.Key, val))
	case "patience":
		fd = f.w.selectField(s, patienceOptions(), canonicalChoice(s.Key, val))
	default:
		fd = f.w.textField(s, val, s.Key == "queue" || s.Key == "service_p99_ms")
	}
	f.fields = append(f.fields, fd)
	f.byKey[s.Key] = fd
	return fd
}

// buildWidget builds a widget's controls, specs (see widgetControls);
// none is no form.
func (f *simForm) buildWidget(specs []fieldSpec, vals map[string]string) {
	if len(specs) == 0 {
		return
	}
	f.el = h("form", "class", "widget-controls", "novalidate", "", "aria-label", "The numbers of this run")
	row := h("div", "class", "field-row")
	for _, s := range specs {
		add(row, f.add(s, vals[s.Key]).box)
	}
	add(f.el, row)
}

// buildPage builds the simulator page's whole form.
func (f *simForm) buildPage(vals map[string]string) {
	w := f.w
	form := build(h("form", "id", w.id("sim-form"), "class", "controls", "novalidate", "", "aria-labelledby", w.id("form-title")),
		h("h2", "id", w.id("form-title"), "Your numbers"))

	// The samples.
	sel := h("select", "id", w.id("in-sample"), "name", "sample")
	add(sel, h("option", "value", "custom", "Your own numbers"))
	for _, s := range sim.Samples() {
		add(sel, h("option", "value", s.Key, s.Name))
	}
	f.sample = sel
	f.sampleAbout = h("p", "class", "field-hint", "id", w.id("sample-about"))
	add(form, build(h("div", "class", "field sample-field"), h("label", "for", w.id("in-sample"), "Start from a sample"), sel, f.sampleAbout))
	sel.SetAttribute("aria-describedby", w.id("sample-about"))

	for _, g := range simGroups {
		specs := g.fields
		if g.advanced {
			specs = append(specs, unlistedFields()...)
		}
		fs := build(h("fieldset", "class", "group"), h("legend", g.legend))
		if g.advanced {
			// The <summary> says it already; the legend stays for screen readers.
			fs = build(h("fieldset", "class", "group"), h("legend", "class", "visually-hidden", g.legend))
		}
		for _, s := range specs {
			if _, ok := fieldByKey(s.Key); !ok {
				continue // a key the engine no longer has
			}
			add(fs, f.add(s, vals[s.Key]).box)
		}
		if g.advanced {
			add(form, build(h("details", "class", "advanced", "id", w.id("advanced")), h("summary", "Advanced: the queue timeout, jitter and the rest"), fs))
		} else {
			add(form, fs)
		}
	}
	f.reset = h("button", "type", "button", "id", w.id("reset"), "class", "secondary", "Back to the shop's numbers")
	add(form, build(h("div", "class", "form-actions"), h("button", "type", "submit", "id", w.id("run"), "Run"), f.reset))
	f.el = form
}

// values reads the form: every Config key, from the start Config and the
// fields.
func (f *simForm) values() map[string]string {
	vals := maps.Clone(f.startVals)
	for _, fd := range f.fields {
		vals[fd.spec.Key] = value(fd.input)
	}
	return vals
}

// setValues writes vals into the fields (all of them: a value missing
// from vals is the start Config's).
func (f *simForm) setValues(vals map[string]string) {
	for _, fd := range f.fields {
		v, ok := vals[fd.spec.Key]
		if !ok {
			v = f.startVals[fd.spec.Key]
		}
		keepChoice(fd.input, canonicalChoice(fd.spec.Key, v))
	}
}

// show writes what the form says about a view's inputs: the queue's hint
// (its automatic bound in seconds of work), the service's median, mean and
// p99, and which sample they are.
func (f *simForm) show(v report.View) {
	if fd := f.byKey["queue"]; fd != nil && fd.hint != nil {
		fd.hint.SetTextContent(QueueHint(v))
	}
	// The service's three numbers and the capacity they give (rule 3a).
	if fd := f.byKey["service_p99_ms"]; fd != nil && fd.hint != nil {
		fd.hint.SetTextContent(report.ServiceNumbers(v.Config))
	}
	if f.sample != nil {
		key, about := report.SampleOf(v.Config)
		setValue(f.sample, key)
		f.sampleAbout.SetTextContent(about)
	}
}

// isSample reports whether target is the samples menu.
func (f *simForm) isSample(target el) bool {
	return f.sample != nil && target != nil && target.Underlying().Equal(f.sample.Underlying())
}

func clientOptions() [][2]string {
	var out [][2]string
	for _, c := range sim.Clients {
		out = append(out, [2]string{c.String(), c.Title()})
	}
	return out
}

func serviceOptions() [][2]string {
	var out [][2]string
	for _, s := range sim.ServiceShapes {
		out = append(out, [2]string{s.String(), s.Title()})
	}
	return out
}

func patienceOptions() [][2]string {
	var out [][2]string
	for _, p := range sim.PatienceShapes {
		out = append(out, [2]string{p.String(), p.Title()})
	}
	return out
}

func policyOptions() [][2]string {
	var out [][2]string
	for _, p := range sim.Policies {
		out = append(out, [2]string{p.String(), p.Title()})
	}
	return out
}

// humanize turns a key such as "backoff_base_ms" into a label, "Backoff
// base", and its unit, "ms".
func humanize(key string) (label, unit string) {
	words := strings.Split(key, "_")
	if last := words[len(words)-1]; len(words) > 1 && (last == "ms" || last == "s") {
		unit, words = last, words[:len(words)-1]
	}
	label = strings.Join(words, " ")
	return strings.ToUpper(label[:1]) + label[1:], unit
}

// queryValues is the page's values for a URL query: its sample's Config,
// or the default, with each Config key the query gives.
func queryValues(q map[string]string) map[string]string {
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
	return vals
}
