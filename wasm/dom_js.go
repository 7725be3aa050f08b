//go:build js && wasm

package main

import (
	"fmt"
	"net/url"
	"runtime/debug"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file holds what every widget shares: a small element builder over
// dom/v2, listeners that are released on unmount and never let a panic
// kill the runtime, field and error marking, and the renderers of the
// results (bars, tables, the timeline chart, the lines, the advice).

// The window and its document, set by initDOM when main starts (not at
// package initialisation, so that the package's tests also run under Node,
// which has no document).
var (
	win   dom.Window
	doc   dom.Document
	docJS js.Value
)

func initDOM() {
	win = dom.GetWindow()
	doc = win.Document()
	docJS = doc.Underlying()
}

const svgNS = "http://www.w3.org/2000/svg"

// attr is one attribute for h and svg.
type attr struct{ k, v string }

func at(k, v string) attr { return attr{k, v} }
func cls(v string) attr   { return attr{"class", v} }

// wrapNew wraps a newly created element. dom.WrapElement finds the most
// specific Go type by comparing the element's constructor with some sixty
// globals, a call into JavaScript each; a chart has hundreds of elements,
// so new elements get the basic type, which has every method the page
// uses.
func wrapNew(v js.Value) dom.Element {
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}

// h creates an HTML element with the given attributes, text and children.
func h(tag string, kids ...any) dom.Element {
	return build(wrapNew(docJS.Call("createElement", tag)), kids...)
}

// svg creates an SVG element.
func svg(tag string, kids ...any) dom.Element {
	return build(wrapNew(docJS.Call("createElementNS", svgNS, tag)), kids...)
}

func build(e dom.Element, kids ...any) dom.Element {
	for _, k := range kids {
		switch v := k.(type) {
		case nil:
		case attr:
			e.SetAttribute(v.k, v.v)
		case []attr:
			for _, a := range v {
				e.SetAttribute(a.k, a.v)
			}
		case string:
			// One call, where createTextNode and appendChild are two.
			e.Underlying().Call("append", v)
		case dom.Element:
			if v != nil {
				e.AppendChild(v)
			}
		case []dom.Element:
			for _, c := range v {
				e.AppendChild(c)
			}
		default:
			panic(fmt.Sprintf("build: unexpected %T", k))
		}
	}
	return e
}

// clear removes every child of e.
func clear(e dom.Element) { e.SetTextContent("") }

// fill replaces e's children.
func fill(e dom.Element, kids ...any) { clear(e); build(e, kids...) }

func setHidden(e dom.Element, hidden bool) {
	if hidden {
		e.SetAttribute("hidden", "")
	} else {
		e.RemoveAttribute("hidden")
	}
}

func value(e dom.Element) string { return e.Underlying().Get("value").String() }

func setValue(e dom.Element, v string) { e.Underlying().Set("value", v) }

func checked(e dom.Element) bool { return e.Underlying().Get("checked").Bool() }

func setChecked(e dom.Element, v bool) { e.Underlying().Set("checked", v) }

func f1(x float64) string { return report.Number(x, 1) }

// listener is a registered event handler, removed on unmount.
type listener struct {
	target js.Value
	typ    string
	fn     js.Func
}

// widget is what every mounted widget shares: its host element, the id
// prefix that keeps several widgets on one page apart, its listeners and
// its error box.
type widget struct {
	host      dom.Element
	prefix    string
	listeners []listener
	errBox    dom.Element
	dead      bool
	// fixed is a problem that lasts, such as a misspelt attribute; it
	// is shown before any other message.
	fixed string
}

// id returns the element id for name in this widget.
func (w *widget) id(name string) string { return w.prefix + name }

// on adds a listener that recovers from a panic by showing it.
func (w *widget) on(target js.Value, typ string, fn func(ev js.Value)) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var ev js.Value
		if len(args) > 0 {
			ev = args[0]
		}
		w.safely(func() { fn(ev) })
		return nil
	})
	target.Call("addEventListener", typ, f)
	w.listeners = append(w.listeners, listener{target, typ, f})
}

// onEl is on for a dom element.
func (w *widget) onEl(e dom.Element, typ string, fn func(ev js.Value)) { w.on(e.Underlying(), typ, fn) }

// safely runs fn, and shows a panic in the widget instead of letting it
// end the Go runtime that every widget on the page shares.
func (w *widget) safely(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("The simulator hit a bug: %v. Reload the page to start again.", r)
			js.Global().Get("console").Call("error", "shedsim: panic:", fmt.Sprint(r), string(debug.Stack()))
			w.showError(msg)
			w.dispatch("shedsim:error", fmt.Sprintf(`{"error":%q}`, fmt.Sprint(r)))
		}
	}()
	if !w.dead {
		fn()
	}
}

// showError shows msg in the widget's alert box, after the lasting
// problem if any ("" hides the box when there is none).
func (w *widget) showError(msg string) {
	if w.fixed != "" {
		msg = strings.TrimSpace(w.fixed + " " + msg)
	}
	if w.errBox == nil && msg == "" {
		return
	}
	if w.errBox == nil {
		w.errBox = h("div", cls("shedsim-error"), at("role", "alert"), at("id", w.id("app-error")))
		w.host.Underlying().Call("prepend", w.errBox.Underlying())
	}
	w.errBox.SetTextContent(msg)
	setHidden(w.errBox, msg == "")
}

// dispatch fires a bubbling CustomEvent on the host with detail parsed
// from detailJSON.
func (w *widget) dispatch(typ, detailJSON string) {
	detail := js.Null()
	if detailJSON != "" {
		detail = js.Global().Get("JSON").Call("parse", detailJSON)
	}
	ev := js.Global().Get("CustomEvent").New(typ, map[string]any{"bubbles": true, "composed": true, "detail": detail})
	w.host.Underlying().Call("dispatchEvent", ev)
}

// release removes every listener and empties the host.
func (w *widget) release() {
	w.dead = true
	for _, l := range w.listeners {
		l.target.Call("removeEventListener", l.typ, l.fn)
		l.fn.Release()
	}
	w.listeners = nil
	clear(w.host)
}

// fieldSpec describes one input of a form.
type fieldSpec struct {
	Key   string
	Label string
	Unit  string // shown after the label, such as "ms"
	Mode  string // inputmode: "numeric" or "decimal"; "" for a select
}

// field is a rendered input: its element and its message.
type field struct {
	spec  fieldSpec
	input dom.Element
	msg   dom.Element
	hint  dom.Element // nil unless the field has one
	box   dom.Element
}

// textField renders a labelled text input with a message element.
func (w *widget) textField(s fieldSpec, val string, withHint bool) *field {
	f := &field{spec: s}
	inID := w.id("in-" + s.Key)
	label := h("label", at("for", inID), s.Label)
	if s.Unit != "" {
		build(label, " ", h("span", cls("unit"), s.Unit))
	}
	mode := s.Mode
	if mode == "" {
		mode = "decimal"
	}
	f.input = h("input", at("id", inID), at("name", s.Key), at("type", "text"), at("inputmode", mode),
		at("autocomplete", "off"), at("spellcheck", "false"), cls("num"))
	setValue(f.input, val)
	f.msg = h("p", cls("field-msg"), at("id", w.id("err-"+s.Key)), at("hidden", ""))
	f.box = h("div", cls("field"), at("data-key", s.Key), label, f.input)
	if withHint {
		f.hint = h("p", cls("field-hint"), at("id", w.id("hint-"+s.Key)))
		f.box.AppendChild(f.hint)
	}
	f.box.AppendChild(f.msg)
	f.describe(false)
	return f
}

// selectField renders a labelled select.
func (w *widget) selectField(s fieldSpec, options [][2]string, val string) *field {
	f := &field{spec: s}
	inID := w.id("in-" + s.Key)
	sel := h("select", at("id", inID), at("name", s.Key))
	for _, o := range options {
		sel.AppendChild(h("option", at("value", o[0]), o[1]))
	}
	setValue(sel, val)
	f.input = sel
	f.msg = h("p", cls("field-msg"), at("id", w.id("err-"+s.Key)), at("hidden", ""))
	f.box = h("div", cls("field"), at("data-key", s.Key), h("label", at("for", inID), s.Label), sel, f.msg)
	return f
}

// describe sets aria-describedby to the hint and, when invalid, the
// message.
func (f *field) describe(invalid bool) {
	var ids []string
	if f.hint != nil {
		ids = append(ids, f.hint.ID())
	}
	if invalid {
		ids = append(ids, f.msg.ID())
	}
	if len(ids) == 0 {
		f.input.RemoveAttribute("aria-describedby")
	} else {
		f.input.SetAttribute("aria-describedby", strings.Join(ids, " "))
	}
}

// mark shows msg as the field's problem, or clears it when msg is "". It
// never touches the value the person typed.
func (f *field) mark(msg string) {
	if msg == "" {
		f.input.RemoveAttribute("aria-invalid")
		f.box.Class().Remove("invalid")
		f.msg.SetTextContent("")
		setHidden(f.msg, true)
		f.describe(false)
		return
	}
	f.input.SetAttribute("aria-invalid", "true")
	f.box.Class().Add("invalid")
	f.msg.SetTextContent(msg)
	setHidden(f.msg, false)
	f.describe(true)
	// A field inside a closed <details> would hide its own error.
	if d := f.box.Closest("details"); d != nil {
		d.Underlying().Set("open", true)
	}
}

// markAll marks each field with its message in errs and clears the rest;
// it returns the messages that belong to no field here, as "field: msg".
func markAll(fields []*field, errs []FieldMsg) []string {
	var rest []string
	for _, f := range fields {
		msg := ""
		for _, e := range errs {
			if e.Field == f.spec.Key {
				msg = e.Msg
				break
			}
		}
		f.mark(msg)
	}
	for _, e := range errs {
		found := false
		for _, f := range fields {
			if f.spec.Key == e.Field {
				found = true
			}
		}
		if !found {
			if e.Field == "" {
				rest = append(rest, e.Msg)
			} else {
				rest = append(rest, e.Field+": "+e.Msg)
			}
		}
	}
	return rest
}

// firstLabel is the label of the first field with an error, for the
// status line.
func firstProblem(fields []*field, errs []FieldMsg) string {
	if len(errs) == 0 {
		return ""
	}
	e := errs[0]
	for _, f := range fields {
		if f.spec.Key == e.Field {
			return f.spec.Label + ": " + e.Msg
		}
	}
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// Outcome kinds, bottom up, with their words.
var outcomes = [][2]string{{"answered", "answered"}, {"refused", "refused"}, {"timed_out", "timed out"}, {"unfinished", "still waiting"}}

// legend renders the colour key of the outcomes.
func legend(kinds ...string) dom.Element {
	ul := h("ul", cls("legend"), at("aria-hidden", "true"))
	for _, k := range kinds {
		for _, o := range outcomes {
			if o[0] == k {
				ul.AppendChild(h("li", h("span", cls("swatch "+k)), o[1]))
			}
		}
	}
	return ul
}

// shareBar renders answered, refused and timed out as one stacked bar, 100
// units wide; its text is beside it, so the SVG is hidden from screen
// readers.
func shareBar(answered, refused, timedOut float64) dom.Element {
	s := svg("svg", cls("share-bar"), at("viewBox", "0 0 100 10"), at("preserveAspectRatio", "none"), at("aria-hidden", "true"), at("focusable", "false"))
	x := 0.0
	for _, p := range []struct {
		k string
		v float64
	}{{"answered", answered}, {"refused", refused}, {"timed_out", timedOut}} {
		w := p.v * 100
		if w <= 0 {
			continue
		}
		s.AppendChild(svg("rect", cls(p.k), at("x", num(x)), at("y", "0"), at("width", num(w)), at("height", "10")))
		x += w
	}
	return s
}

func num(x float64) string { return report.Number(x, 3) }

// svgNum formats a coordinate for an SVG attribute (no thousands
// separators).
func svgNum(x float64) string { return fnum(float64(int64(x*100+0.5)) / 100) }

// renderBars renders every policy's sale shares as stacked bars.
func renderBars(rows []report.Row, chosen sim.Policy) dom.Element {
	ul := h("ul", cls("policy-bars"))
	for _, r := range rows {
		li := h("li", cls("policy-bar"), at("data-policy", r.Policy.String()))
		name := h("span", cls("bar-name"), r.Title)
		if r.Policy == chosen {
			li.Class().Add("chosen")
			build(name, " ", h("span", cls("chosen-tag"), "(yours)"))
		}
		build(li, name, shareBar(r.Answered, r.Refused, r.TimedOut),
			h("span", cls("bar-text"), fmt.Sprintf("%s answered, %s refused, %s timed out", report.Percent(r.Answered), report.Percent(r.Refused), report.Percent(r.TimedOut))))
		ul.AppendChild(li)
	}
	return ul
}

// tableWrap puts a table in a scrolling region that a keyboard can reach.
func tableWrap(label string, table dom.Element) dom.Element {
	return h("div", cls("table-wrap"), at("role", "region"), at("aria-label", label), at("tabindex", "0"), table)
}

// renderTable renders the comparison of every policy.
func renderTable(tableID string, rows []report.Row, chosen sim.Policy) dom.Element {
	t := h("table", at("id", tableID), cls("compare"),
		h("caption", "Every policy, for the people who first arrived during the sale (wasted work over the whole run)"))
	head := h("tr")
	for _, c := range []string{"Policy", "Answered", "Refused", "Timed out", "Orders answered", "Median wait", "p99 wait", "Wasted", "Back to normal"} {
		head.AppendChild(h("th", at("scope", "col"), c))
	}
	t.AppendChild(h("thead", head))
	body := h("tbody")
	for _, r := range rows {
		tr := h("tr", at("data-policy", r.Policy.String()))
		if r.Policy == chosen {
			tr.SetAttribute("class", "chosen")
			tr.SetAttribute("aria-current", "true")
		}
		tr.AppendChild(h("th", at("scope", "row"), r.Title))
		for _, c := range []string{report.Percent(r.Answered), report.Percent(r.Refused), report.Percent(r.TimedOut), report.Percent(r.OrdersAnswered),
			report.Millis(r.MedianWaitMS), report.Millis(r.P99WaitMS), report.Count(r.Wasted), report.BackCell(r)} {
			tr.AppendChild(h("td", c))
		}
		body.AppendChild(tr)
	}
	t.AppendChild(body)
	return tableWrap("Comparison of every policy", t)
}

// renderChart renders a timeline chart from report.Chart geometry, with a
// table of its windows as the text alternative.
func renderChart(chartID string, ch report.Chart, r sim.Result, caption string) dom.Element {
	s := svg("svg", at("id", chartID), cls("timeline"), at("viewBox", "0 0 "+svgNum(ch.Width)+" "+svgNum(ch.Height)),
		at("role", "img"), at("aria-label", ch.Summary), at("preserveAspectRatio", "xMidYMid meet"))
	p := ch.Plot
	s.AppendChild(svg("rect", cls("plot-bg"), at("x", svgNum(p.X)), at("y", svgNum(p.Y)), at("width", svgNum(p.W)), at("height", svgNum(p.H))))
	if ch.Sale.W > 0 {
		// The band runs from the top of the chart, above the bars (which
		// may fill the plot), to the axis, and the sale is named under
		// the axis, between the ticks.
		s.AppendChild(svg("rect", cls("sale"), at("x", svgNum(ch.Sale.X)), at("y", "0"), at("width", svgNum(ch.Sale.W)), at("height", svgNum(ch.Sale.Y+ch.Sale.H))))
	}
	for _, t := range ch.YTicks {
		s.AppendChild(svg("line", cls("grid"), at("x1", svgNum(p.X)), at("x2", svgNum(p.X+p.W)), at("y1", svgNum(t.At)), at("y2", svgNum(t.At))))
		s.AppendChild(svg("text", cls("tick y"), at("x", svgNum(p.X-6)), at("y", svgNum(t.At+4)), at("text-anchor", "end"), t.Label))
	}
	for _, b := range ch.Bars {
		g := svg("g", cls("bar"), svg("title", b.Label))
		for _, part := range b.Parts {
			g.AppendChild(svg("rect", cls(part.Kind), at("x", svgNum(part.X)), at("y", svgNum(part.Y)), at("width", svgNum(part.W)), at("height", svgNum(part.H))))
		}
		s.AppendChild(g)
	}
	for _, t := range ch.XTicks {
		s.AppendChild(svg("text", cls("tick x"), at("x", svgNum(t.At)), at("y", svgNum(p.Y+p.H+18)), at("text-anchor", "middle"), t.Label))
	}
	s.AppendChild(svg("line", cls("axis"), at("x1", svgNum(p.X)), at("x2", svgNum(p.X+p.W)), at("y1", svgNum(p.Y+p.H)), at("y2", svgNum(p.Y+p.H))))
	if ch.Sale.W > 0 {
		y := p.Y + p.H + 3
		s.AppendChild(svg("rect", cls("sale-mark"), at("x", svgNum(ch.Sale.X)), at("y", svgNum(y)), at("width", svgNum(ch.Sale.W)), at("height", "4")))
		if ch.Sale.W >= 30 {
			s.AppendChild(svg("text", cls("sale-label"), at("x", svgNum(ch.Sale.X+ch.Sale.W/2)), at("y", svgNum(p.Y+p.H+18)), at("text-anchor", "middle"), "sale"))
		}
	}

	// The text alternative: every window as a table.
	c := r.Config
	t := h("table", at("id", chartID+"-table"), cls("windows"),
		h("caption", "Answered per 10 s of arrivals; sale windows are marked"))
	head := h("tr")
	for _, col := range []string{"Window", "People", "Answered", "Refused", "Timed out", "Attempts"} {
		head.AppendChild(h("th", at("scope", "col"), col))
	}
	t.AppendChild(h("thead", head))
	body := h("tbody")
	for _, wdw := range r.Windows {
		label := report.Seconds(wdw.StartS) + " to " + report.Seconds(min(wdw.StartS+10, c.DurationS))
		tr := h("tr")
		if wdw.StartS >= c.SaleStartS && wdw.StartS < c.SaleEndS() {
			tr.SetAttribute("class", "in-sale")
			label += " (sale)"
		}
		build(tr, h("th", at("scope", "row"), label), h("td", report.Count(wdw.People)), h("td", report.Percent(wdw.AnsweredShare)),
			h("td", report.Count(wdw.Refused)), h("td", report.Count(wdw.TimedOut)), h("td", report.Count(wdw.Attempts)))
		body.AppendChild(tr)
	}
	t.AppendChild(body)
	return h("figure", cls("chart"), s,
		h("figcaption", caption), legend("answered", "refused", "timed_out", "unfinished"),
		h("details", cls("chart-table"), h("summary", "The chart as a table"), tableWrap("The chart's windows", t)))
}

// renderLine renders a labelled line under the chart.
func renderLine(id string, l report.Line) dom.Element {
	return h("p", cls("line"), at("id", id), h("strong", l.Label+":"), " "+l.Text)
}

// capital starts s with a capital letter.
func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// history wraps window.history, which dom/v2 does not implement. Under
// file:// some browsers refuse to change the URL; that only loses the
// link, so errors are ignored.
func history(method, query string) {
	defer func() { _ = recover() }()
	loc := win.Location()
	js.Global().Get("history").Call(method, js.Null(), "", loc.Pathname()+query+loc.Hash())
}

// currentQuery is location.search parsed, the first value of each key.
func currentQuery() map[string]string {
	q, _ := url.ParseQuery(strings.TrimPrefix(win.Location().Search(), "?"))
	out := map[string]string{}
	for k, v := range q {
		if len(v) > 0 {
			out[k] = v[0]
		}
	}
	return out
}

// encodeQuery writes vals in the order of keys, leaving out those equal
// to defaults; "" when nothing differs.
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

// unknownAttrs lists the attributes in attrs that are neither known nor
// one of the loader's (base, kind, sample), sorted.
func unknownAttrs(attrs map[string]string, known func(string) bool) []string {
	var out []string
	for k := range attrs {
		if k != "base" && k != "kind" && k != "sample" && !known(k) {
			out = append(out, k)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func console(args ...any) { js.Global().Get("console").Call("log", args...) }
