//go:build js && wasm

package main

import (
	"maps"
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

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
	return &simForm{w: w, startVals: adapter.ConfigStrings(start), byKey: map[string]*field{}}
}

// add renders one field of the form and records it.
func (f *simForm) add(s markup.FieldSpec, val string) *field {
	return f.keep(f.w.formField(s, val, markup.HasHint(s.Key)))
}

// keep records a field of the form.
func (f *simForm) keep(fd *field) *field {
	f.fields = append(f.fields, fd)
	f.byKey[fd.spec.Key] = fd
	return fd
}

// buildWidget builds a widget's controls, specs (see widgetControls);
// none is no form.
func (f *simForm) buildWidget(specs []markup.FieldSpec, vals map[string]string) {
	if len(specs) == 0 {
		return
	}
	f.el = h("form", "class", "widget-controls", "novalidate", "", "aria-label", "The numbers of this run")
	row := h("div", "class", "field-row")
	for _, s := range specs {
		add(row, f.add(s, vals[s.Key]).box)
	}
	add(f.el, row)
	f.dropTables()
}

// buildPage builds the simulator page's whole form, as WritePageForm
// writes it.
func (f *simForm) buildPage(vals map[string]string) {
	var m markup.Markup
	markup.WritePageForm(&m, vals, nil, false)
	f.el = fromMarkup(&m)
	for _, g := range markup.SimGroups {
		for _, s := range g.Fields {
			f.keep(adoptField(s, query(f.el, `[data-key="`+s.Key+`"]`)))
		}
	}
	f.dropTables()
	f.sample = query(f.el, "#in-sample")
	f.sampleAbout = query(f.el, "#sample-about")
	f.reset = query(f.el, "#reset")
}

// values reads the form: every Config key, from the start Config and the
// fields.
func (f *simForm) values() map[string]string {
	vals := maps.Clone(f.startVals)
	for _, fd := range f.fields {
		if fd.spec.Mode == markup.TableMode { // a paste past the limit is refused by its length, not copied whole
			u := fd.input.Underlying()
			v := u.Get("value")
			if u.Get("textLength").Int() > sim.MaxTableBytes { // syscall/js calls no method of a string primitive: box it
				v = js.Global().Get("String").New(v).Call("slice", 0, sim.MaxTableBytes+1)
			}
			vals[fd.spec.Key] = v.String()
			continue
		}
		vals[fd.spec.Key] = value(fd.input)
	}
	return vals
}

// setValues writes vals into the fields (all of them: a value missing
// from vals is the start Config's).
func (f *simForm) setValues(vals map[string]string) {
	for _, fd := range f.fields {
		v, ok := vals[fd.spec.Key]
		if !ok && fd.spec.Key == adapter.SeedsKey {
			continue // a sample or an advice leaves the seeds as they are
		}
		if !ok {
			v = f.startVals[fd.spec.Key]
		}
		keepChoice(fd.input, adapter.CanonicalChoice(fd.spec.Key, v))
	}
	f.previewTables()
}

// show writes what the form says about a view's inputs: the queue's hint
// (its automatic bound in seconds of work), the service's median, mean and
// p99, and which sample they are.
func (f *simForm) show(v report.View) {
	if fd := f.byKey["queue"]; fd != nil && fd.hint != nil {
		fd.hint.SetTextContent(adapter.QueueHint(v))
	}
	// The service's three numbers and the capacity they give (rule 3a).
	if fd := f.byKey["service_p99_ms"]; fd != nil && fd.hint != nil {
		fd.hint.SetTextContent(report.ServiceNumbers(v.Config))
	}
	f.previewTables()
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
