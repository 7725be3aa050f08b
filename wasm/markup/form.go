package markup

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/adapter"
)

// This file writes the forms as markup: the simulator page's whole form
// (WritePageForm) and any one field (WriteField). sim_form_js.go and
// fields_js.go put them into the page and read them; prerender.go writes
// the page's form, with the default run's hints, into site/index.html.

// FieldSpec describes one input of a form.
type FieldSpec struct {
	Key   string
	Label string
	Unit  string // shown after the label, such as "ms"
	Mode  string // inputmode: "numeric" or "decimal"; "" for a select
}

// simGroup is one fieldset of the simulator's form.
type simGroup struct {
	legend   string
	advanced bool // inside the "Advanced" <details>
	Fields   []FieldSpec
}

// SimGroups is the simulator page's form: every setting (sim.Settings) in
// its group (sim.Groups), in the Config's order, with the page's own
// choice of seeds in the run's group.
var SimGroups = func() []simGroup {
	var out []simGroup
	for _, g := range sim.Groups {
		sg := simGroup{legend: string(g), advanced: g == sim.GroupAdvanced}
		for _, s := range sim.Settings() {
			if s.Group == g {
				sg.Fields = append(sg.Fields, FieldSpec{s.Key, s.Label, s.Unit, inputMode(s.Kind)})
			}
		}
		if g == sim.GroupRun {
			sg.Fields = append(sg.Fields, FieldSpec{adapter.SeedsKey, "Seeds", "", ""})
		}
		out = append(out, sg)
	}
	return out
}()

// inputMode is the inputmode of a setting's field: "numeric" for a whole
// number, "decimal" for a number, "" for a choice (a select).
func inputMode(k sim.Kind) string {
	switch k {
	case sim.Whole, sim.Seed:
		return "numeric"
	case sim.Real:
		return "decimal"
	case sim.Table:
		return TableMode
	}
	return ""
}

// TableMode is the Mode of a table's field (sim.Table): a <textarea> to
// paste into or drop a file on, with a preview under it.
const TableMode = "table"

// CompactFields are the controls of the <shed-sim> simulator widget
// when its controls attribute names none.
var CompactFields = []FieldSpec{{"policy", "Policy", "", ""}, {"sale_rps", "Sale traffic", "per s", "decimal"}, {"retries", "Retries", "", "numeric"}}

// ChoicesOf are the options of a menu's key, nil for a key typed in: a
// Choice setting's values (sim.Setting.Choices), and the seeds control's.
func ChoicesOf(key string) [][2]string {
	if key == adapter.SeedsKey {
		return adapter.SeedsOptions()
	}
	s, _ := sim.SettingByKey(key)
	return s.Choices()
}

// HasHint reports whether a key's field has a hint under it: the queue's
// bound in seconds of work, the service's median, mean and p99.
func HasHint(key string) bool {
	return key == "queue" || key == "service_p99_ms" || key == "arrivals" || key == "service_histogram" || key == "hops"
}

// WriteField writes one labelled field with its (hidden) message: a menu
// for a key with choices (ChoicesOf), else a text input, with a hint
// under it when withHint, whose text is hint. ids are prefixed with
// prefix, as a widget's are. A menu's value that is none of its options,
// such as a link's policy=nope, gets an option of its own, marked, as
// keepChoice does. (The markup's constant parts are written as they are:
// every call is code the reader downloads.)
func WriteField(m *Markup, prefix string, s FieldSpec, val string, withHint bool, hint string) {
	writeFieldOf(m, prefix, s, ChoicesOf(s.Key), val, withHint, hint)
}

// writeFieldOf is WriteField with the menu's choices given: nil for a
// text input. The sweep page's own fields take theirs from tipsChoices.
func writeFieldOf(m *Markup, prefix string, s FieldSpec, choices [][2]string, val string, withHint bool, hint string) {
	id := prefix + "in-" + s.Key
	m.Raw(`<div class="field" data-key="`)
	m.Text(s.Key)
	m.Raw(`"><label for="`)
	m.Text(id)
	m.Raw(`">`)
	m.Text(s.Label)
	if s.Mode == TableMode {
		writeTableField(m, prefix, s, val, hint)
	} else if choices != nil {
		m.Raw(`</label><select id="`)
		m.Text(id)
		m.Raw(`" name="`)
		m.Text(s.Key)
		m.Raw(`">`)
		writeOptions(m, choices, adapter.CanonicalChoice(s.Key, val))
		m.Raw(`</select>`)
	} else {
		if s.Unit != "" {
			m.Raw(` <span class="unit">`)
			m.Text(s.Unit)
			m.Raw(`</span>`)
		}
		mode := s.Mode
		if mode == "" {
			mode = "decimal"
		}
		m.Raw(`</label><input id="`)
		m.Text(id)
		m.Raw(`" name="`)
		m.Text(s.Key)
		m.Raw(`" type="text" inputmode="`)
		m.Text(mode)
		m.Raw(`" autocomplete="off" spellcheck="false" class="num" value="`)
		m.Text(val)
		if withHint {
			m.Raw(`" aria-describedby="`)
			m.Text(prefix + "hint-" + s.Key)
			m.Raw(`"><p class="field-hint" id="`)
			m.Text(prefix + "hint-" + s.Key)
			m.Raw(`">`)
			m.Text(hint)
			m.Raw(`</p>`)
		} else {
			m.Raw(`">`)
		}
	}
	m.Raw(`<p class="field-msg" id="`)
	m.Text(prefix + "err-" + s.Key)
	m.Raw(`" hidden=""></p></div>`)
}

// writeOptions writes a menu's options, the one whose value is val
// selected.
func writeOptions(m *Markup, options [][2]string, val string) {
	found := false
	for _, o := range options {
		m.Raw(`<option value="`)
		m.Text(o[0])
		if o[0] == val {
			found = true
			m.Raw(`" selected="`)
		}
		m.Raw(`">`)
		m.Text(o[1])
		m.Raw(`</option>`)
	}
	if !found {
		m.Raw(`<option value="`)
		m.Text(val)
		m.Raw(`" data-not-a-choice="" selected="">`)
		m.Text(val + " (not a choice)")
		m.Raw(`</option>`)
	}
}

// WritePageForm writes the simulator page's form (whose ids have no
// prefix), with values vals, and, when v is not nil, the hints and the
// sample that v's inputs give (as simForm.show writes them). static is the
// page as site/index.html holds it before the engine arrives: its buttons
// are disabled, which the loader undoes, and without JavaScript a note
// says that the numbers are not run again.
func WritePageForm(m *Markup, vals map[string]string, v *report.View, static bool) {
	m.Raw(`<form id="sim-form" class="controls" novalidate="" aria-labelledby="form-title"><h2 id="form-title">Your numbers</h2>` +
		`<div class="field sample-field"><label for="in-sample">Start from a sample</label><select id="in-sample" name="sample" aria-describedby="sample-about">`)
	sample, about := "custom", ""
	if v != nil {
		sample, about = report.SampleOf(v.Config)
	}
	samples := [][2]string{{"custom", "Your own numbers"}}
	for _, s := range sim.Samples() {
		samples = append(samples, [2]string{s.Key, s.Name})
	}
	writeOptions(m, samples, sample)
	m.Raw(`</select><p class="field-hint" id="sample-about">`)
	m.Text(about)
	m.Raw(`</p></div>`)
	for _, g := range SimGroups {
		if g.advanced {
			// The <summary> says it already; the legend stays for screen readers.
			m.Raw(`<details class="advanced" id="advanced"><summary>Advanced: the queue timeout, jitter and the rest</summary><fieldset class="group"><legend class="visually-hidden">`)
		} else {
			m.Raw(`<fieldset class="group"><legend>`)
		}
		m.Text(g.legend)
		m.Raw(`</legend>`)
		for _, s := range g.Fields {
			hint := ""
			if v != nil {
				hint = fieldHint(s.Key, *v)
			}
			WriteField(m, "", s, vals[s.Key], HasHint(s.Key), hint)
		}
		m.Raw(`</fieldset>`)
		if g.advanced {
			m.Raw(`</details>`)
		}
	}
	if static {
		m.Raw(`<div class="form-actions"><button type="submit" id="run" disabled="">Run</button><button type="button" id="reset" class="secondary" disabled="">Back to the shop's numbers</button>` +
			`<noscript><p class="field-hint">The simulator runs your numbers in the browser, with JavaScript and WebAssembly, which are turned off here: ` +
			`what this page shows is the shop's sale with the numbers above. The command line, shedsim, runs any numbers with the same model.</p></noscript></div></form>`)
		return
	}
	m.Raw(`<div class="form-actions"><button type="submit" id="run">Run</button><button type="button" id="reset" class="secondary">Back to the shop's numbers</button></div></form>`)
}

// fieldHint is the hint a field shows for v's inputs: the queue's bound in
// seconds of work, the service's three numbers and the capacity they give
// (rule 3a); "" for the other fields.
func fieldHint(key string, v report.View) string {
	switch key {
	case "queue":
		return adapter.QueueHint(v)
	case "service_p99_ms":
		return report.ServiceNumbers(v.Config)
	case "arrivals", "service_histogram", "hops":
		return TableHint(key, v.Config)
	}
	return ""
}

// SpecOf is the field of a Config key, as the page's form has it.
func SpecOf(key string) FieldSpec {
	for _, g := range SimGroups {
		for _, s := range g.Fields {
			if s.Key == key {
				return s
			}
		}
	}
	return FieldSpec{Key: key, Label: key}
}

// knobName names a sweep's knob, a Config key, for a label where a reader
// looks for words: its form field's label and unit, "Sale traffic (people
// per s)", rather than its key, "sale_rps".
func knobName(key string) string {
	s := SpecOf(key)
	if s.Unit != "" {
		return s.Label + " (" + s.Unit + ")"
	}
	return s.Label
}
