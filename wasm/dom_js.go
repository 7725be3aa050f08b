//go:build js && wasm

package main

import (
	"reflect"
	"runtime"
	"strconv"
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
//
// The window itself is syscall/js's: dom/v2's Window interface names,
// through its methods' types, dom.Event and so time.Time, whose formatting
// and parsing would then be linked in (130 KB of code), and the page needs
// only location, history and timers from it.
var (
	docJS js.Value
	perf  js.Value
)

func initDOM() {
	docJS = js.Global().Get("document")
	perf = js.Global().Get("performance")
}

// now is performance.now(): milliseconds, for the timings the page shows.
func now() float64 { return perf.Call("now").Float() }

const svgNS = "http://www.w3.org/2000/svg"

// el is the page's element type: dom/v2's basic HTML element, used as a
// concrete type. dom.WrapElement (and every dom/v2 method that returns an
// Element: QuerySelector, FirstChild, Closest, Body) finds the most
// specific of some seventy Go types by comparing the element's constructor
// with as many globals, a call into JavaScript each; and because it can
// return any of them as an interface, the linker keeps every method of
// every one, about 2,000 functions and a sixth of the module. The page
// needs only the basic type, which has every method it uses, so it wraps
// elements itself (wrap, closest, firstChild) and never calls those.
type el = *dom.BasicHTMLElement

// wrap wraps a JavaScript element; nil for null or undefined.
//
// The small helpers here marked go:noinline are called from dozens of
// places; inlined, each copy would be a few hundred bytes of WebAssembly,
// and together they were 60 KB.
//
//go:noinline
func wrap(v js.Value) el {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}

// closest is e.closest(sel), or nil.
func closest(e el, sel string) el { return wrap(e.Underlying().Call("closest", sel)) }

// firstChild is e's first child element, or nil.
func firstChild(e el) el { return wrap(e.Underlying().Get("firstElementChild")) }

// add appends child to parent. (dom/v2's AppendChild takes a dom.Node
// interface, whose method types lead, through dom.Event, to time.Time:
// any conversion to a dom/v2 interface links in time's formatting and
// parsing, 130 KB of code.)
//
//go:noinline
func add(parent, child el) { parent.Underlying().Call("appendChild", child.Underlying()) }

// h creates an HTML element with the given attributes, as name, value
// pairs, and text: an odd string at the end is the element's text. The
// page builds every element with h and svg, and adds children with add
// and build: strings here, not attr values in a ...any, because every
// value converted to an interface is a call in the WebAssembly, and the
// page's hundreds of such calls were a tenth of its own code.
func h(tag string, attrs ...string) el {
	return setAttrs(wrap(docJS.Call("createElement", tag)), attrs)
}

// svg creates an SVG element, with attributes and text as h takes them.
func svg(tag string, attrs ...string) el {
	return setAttrs(wrap(docJS.Call("createElementNS", svgNS, tag)), attrs)
}

func setAttrs(e el, attrs []string) el {
	n := len(attrs)
	for i := 0; i+1 < n; i += 2 {
		e.SetAttribute(attrs[i], attrs[i+1])
	}
	if n%2 == 1 {
		e.Underlying().Call("append", attrs[n-1])
	}
	return e
}

// build appends children to e: elements (nil ones skipped) and text.
func build(e el, kids ...any) el {
	for _, k := range kids {
		switch v := k.(type) {
		case nil:
		case string:
			// One call, where createTextNode and appendChild are two.
			e.Underlying().Call("append", v)
		case el:
			if v != nil {
				add(e, v)
			}
		case []el:
			for _, c := range v {
				add(e, c)
			}
		default:
			panic("build: unexpected " + reflect.TypeOf(k).String())
		}
	}
	return e
}

// clear removes every child of e.
//
//go:noinline
func clear(e el) { e.SetTextContent("") }

// fill replaces e's children.
func fill(e el, kids ...any) { clear(e); build(e, kids...) }

//go:noinline
func setHidden(e el, hidden bool) {
	if hidden {
		e.SetAttribute("hidden", "")
	} else {
		e.RemoveAttribute("hidden")
	}
}

//go:noinline
func value(e el) string { return e.Underlying().Get("value").String() }

//go:noinline
func setValue(e el, v string) { e.Underlying().Set("value", v) }

//go:noinline
func checked(e el) bool { return e.Underlying().Get("checked").Bool() }

//go:noinline
func setChecked(e el, v bool) { e.Underlying().Set("checked", v) }

//go:noinline
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
	host      el
	prefix    string
	listeners []listener
	tasks     []*task
	errBox    el
	dead      bool
	// fixed is a problem that lasts, such as a misspelt attribute; it
	// is shown before any other message.
	fixed string
	// committed is the query of the history entry last committed, on a
	// page (see syncURL).
	committed string
}

// syncURL keeps a page's address in step with its inputs, whose query is q:
// replaceState while typing, and a history entry of its own when a change
// is committed (a choice, leaving a field, Enter, a button), so that Back
// returns to the last committed state.
func (w *widget) syncURL(q string, commit bool) {
	if !commit || q == w.committed {
		if q != locationSearch() {
			history("replaceState", q)
		}
		return
	}
	// Put back the entry typing changed, then add the new one.
	history("replaceState", w.committed)
	history("pushState", q)
	w.committed = q
}

// open empties w's host and marks it as shedsim's (and, when it is not the
// whole page, as a widget), and returns the settings to start from: a page's
// URL query, or a widget's attributes.
func (w *widget) open(page bool, attrs map[string]string) map[string]string {
	clear(w.host)
	w.host.Class().Add("shedsim")
	if page {
		w.committed = locationSearch()
		return currentQuery()
	}
	w.host.Class().Add("shedsim-widget")
	return attrs
}

// id returns the element id for name in this widget.
//
//go:noinline
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

// valuesKey is a form's values for keys as one string, to tell whether
// they changed since the last compute.
func valuesKey(keys []string, vals map[string]string) string {
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + vals[k] + "\x00")
	}
	return b.String()
}

// task is a function a widget runs later, once: after a delay, or after
// the browser has painted what the page just drew. Its js.Funcs live as
// long as the widget and are released with it, so rescheduling it, as
// every keystroke does, creates nothing new in JavaScript.
type task struct {
	run, frameFn js.Func
	timeout, rAF js.Value // the pending timer's and frame's ids, or undefined
}

// task returns a task that runs fn (through safely).
func (w *widget) task(fn func()) *task {
	t := &task{}
	t.run = js.FuncOf(func(js.Value, []js.Value) any {
		t.timeout = js.Undefined()
		if !t.rAF.IsUndefined() { // afterPaint's fallback came first
			js.Global().Call("cancelAnimationFrame", t.rAF)
			t.rAF = js.Undefined()
		}
		w.safely(fn)
		return nil
	})
	t.frameFn = js.FuncOf(func(js.Value, []js.Value) any {
		t.rAF = js.Undefined()
		if !t.timeout.IsUndefined() {
			js.Global().Call("clearTimeout", t.timeout)
		}
		t.timeout = js.Global().Call("setTimeout", t.run, 0)
		return nil
	})
	w.tasks = append(w.tasks, t)
	return t
}

// after runs the task ms milliseconds from now, and not when it was due
// before.
func (t *task) after(ms int) {
	t.stop()
	t.timeout = js.Global().Call("setTimeout", t.run, ms)
}

// paintFallbackMS is how long afterPaint waits for a frame: a page that
// is hidden, or in a cross-origin iframe out of view, may paint none.
const paintFallbackMS = 100

// afterPaint runs the task as soon as the browser has painted: a frame
// callback runs just before the paint, and a timeout set from it runs
// after. A hidden page paints no frames, so there it is a plain timeout;
// so is it if no frame comes within paintFallbackMS.
func (t *task) afterPaint() {
	t.stop()
	if docJS.Get("hidden").Truthy() {
		t.after(0)
		return
	}
	t.rAF = js.Global().Call("requestAnimationFrame", t.frameFn)
	t.timeout = js.Global().Call("setTimeout", t.run, paintFallbackMS)
}

// stop cancels the task if it is due.
func (t *task) stop() {
	if !t.timeout.IsUndefined() {
		js.Global().Call("clearTimeout", t.timeout)
		t.timeout = js.Undefined()
	}
	if !t.rAF.IsUndefined() {
		js.Global().Call("cancelAnimationFrame", t.rAF)
		t.rAF = js.Undefined()
	}
}

// onEl is on for a dom element.
//
//go:noinline
func (w *widget) onEl(e el, typ string, fn func(ev js.Value)) { w.on(e.Underlying(), typ, fn) }

// safely runs fn, and shows a panic in the widget instead of letting it
// end the Go runtime that every widget on the page shares.
func (w *widget) safely(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			text := panicText(r)
			msg := "The simulator hit a bug: " + text + ". Reload the page to start again."
			js.Global().Get("console").Call("error", "shedsim: panic:", text, string(stack()))
			w.showError(msg)
			// fail writes JSON, which JSON.parse reads whatever the text
			// (strconv.Quote's Go escapes, \x01, \a or \U000e0001,
			// would make it throw here, where nothing catches it).
			w.dispatch("shedsim:error", fail(text))
		}
	}()
	if !w.dead {
		fn()
	}
}

// stack is the calling goroutine's stack, as runtime/debug.Stack returns
// it; runtime/debug itself imports fmt, which the page does without.
func stack() []byte {
	buf := make([]byte, 1024)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
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
		w.errBox = h("div", "class", "shedsim-error", "role", "alert", "id", w.id("app-error"))
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
	for _, t := range w.tasks {
		t.stop()
		t.run.Release()
		t.frameFn.Release()
	}
	w.tasks = nil
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
	input el
	msg   el
	hint  el // nil unless the field has one
	box   el
}

// textField renders a labelled text input with a message element.
func (w *widget) textField(s fieldSpec, val string, withHint bool) *field {
	f := &field{spec: s}
	inID := w.id("in-" + s.Key)
	label := h("label", "for", inID, s.Label)
	if s.Unit != "" {
		build(label, " ", h("span", "class", "unit", s.Unit))
	}
	mode := s.Mode
	if mode == "" {
		mode = "decimal"
	}
	f.input = h("input", "id", inID, "name", s.Key, "type", "text", "inputmode", mode, "autocomplete", "off", "spellcheck", "false", "class", "num")
	setValue(f.input, val)
	f.msg = h("p", "class", "field-msg", "id", w.id("err-"+s.Key), "hidden", "")
	f.box = build(h("div", "class", "field", "data-key", s.Key), label, f.input)
	if withHint {
		f.hint = h("p", "class", "field-hint", "id", w.id("hint-"+s.Key))
		add(f.box, f.hint)
	}
	add(f.box, f.msg)
	f.describe(false)
	return f
}

// selectField renders a labelled select.
func (w *widget) selectField(s fieldSpec, options [][2]string, val string) *field {
	f := &field{spec: s}
	inID := w.id("in-" + s.Key)
	sel := h("select", "id", inID, "name", s.Key)
	for _, o := range options {
		add(sel, h("option", "value", o[0], o[1]))
	}
	keepChoice(sel, val)
	f.input = sel
	f.msg = h("p", "class", "field-msg", "id", w.id("err-"+s.Key), "hidden", "")
	f.box = build(h("div", "class", "field", "data-key", s.Key), h("label", "for", inID, s.Label), sel, f.msg)
	return f
}

// keepChoice sets a field to v. A menu (a <select>) cannot show a value
// that is none of its options, such as a link's policy=nope: it gets an
// option of its own, marked, so that the menu shows what the link said
// beside the field's error instead of a blank; the next setValues takes it
// away again.
func keepChoice(input el, v string) {
	u := input.Underlying()
	if u.Get("tagName").String() != "SELECT" {
		setValue(input, v)
		return
	}
	if old := u.Call("querySelector", "option[data-not-a-choice]"); !old.IsNull() {
		old.Call("remove")
	}
	setValue(input, v)
	if u.Get("value").String() != v {
		add(input, h("option", "value", v, "data-not-a-choice", "", v+" (not a choice)"))
		setValue(input, v)
	}
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
	if d := closest(f.box, "details"); d != nil {
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

// firstProblem is the first field's error, by its label, and how many more
// fields are marked, for the status line.
func firstProblem(fields []*field, errs []FieldMsg) string {
	if len(errs) == 0 {
		return ""
	}
	e := errs[0]
	first := e.Field + ": " + e.Msg
	if e.Field == "" {
		first = e.Msg
	}
	for _, f := range fields {
		if f.spec.Key == e.Field {
			first = f.spec.Label + ": " + e.Msg
		}
	}
	n := 0 // other fields of this form that are marked
	for _, other := range errs[1:] {
		for _, f := range fields {
			if f.spec.Key == other.Field && other.Field != e.Field {
				n++
				break
			}
		}
	}
	switch n {
	case 0:
		return first
	case 1:
		return first + " (and 1 more field is marked)"
	default:
		return first + " (and " + strconv.Itoa(n) + " more fields are marked)"
	}
}

// Outcome kinds, bottom up, with their words, and the kinds of the
// client comparison's bars.
var outcomes = [][2]string{{"answered", "answered"}, {"refused", "refused"}, {"timed_out", "timed out"}, {"unfinished", "still waiting"},
	{"first_try", "first attempts"}, {"retry", "retries"}}

// legend renders the colour key of the outcomes.
func legend(kinds ...string) el {
	ul := h("ul", "class", "legend", "aria-hidden", "true")
	for _, k := range kinds {
		for _, o := range outcomes {
			if o[0] == k {
				add(ul, build(h("li"), h("span", "class", "swatch "+k), o[1]))
			}
		}
	}
	return ul
}

// shareBar renders answered, refused and timed out as one stacked bar, 100
// units wide; its text is beside it, so the SVG is hidden from screen
// readers.
func shareBar(answered, refused, timedOut float64) el {
	return stackBar([]string{"answered", "refused", "timed_out"}, answered, refused, timedOut)
}

// stackBar renders shares (fractions of the width) side by side, each of
// the class its kind names, 100 units wide.
func stackBar(kinds []string, shares ...float64) el {
	s := svg("svg", "class", "share-bar", "viewBox", "0 0 100 10", "preserveAspectRatio", "none", "aria-hidden", "true", "focusable", "false")
	x := 0.0
	for i, v := range shares {
		w := min(v*100, 100-x)
		if w <= 0 {
			continue
		}
		add(s, svg("rect", "class", kinds[i], "x", num(x), "y", "0", "width", num(w), "height", "10"))
		x += w
	}
	return s
}

//go:noinline
func num(x float64) string { return report.Number(x, 3) }

// svgNum formats a coordinate for an SVG attribute (no thousands
// separators).
//
//go:noinline
func svgNum(x float64) string { return fnum(float64(int64(float64(x*100)+0.5)) / 100) }

// renderBars renders every policy's sale shares as stacked bars;
// placeholder bars are empty, for policies still being run.
func renderBars(rows []report.Row, chosen sim.Policy, placeholder bool) el {
	ul := h("ul", "class", "policy-bars")
	for _, r := range rows {
		text := r.Shares()
		if placeholder {
			text = "…"
		}
		add(ul, shareRow("data-policy", r.Policy.String(), r.Title, r.Policy == chosen, shareBar(r.Answered, r.Refused, r.TimedOut), text))
	}
	return ul
}

// loadBar renders a client's attempts per person as a bar out of most,
// the first attempt apart from the retries.
func loadBar(attempts, most float64) el {
	first := min(attempts, 1)
	return stackBar([]string{"first_try", "retry"}, first/most, max(attempts-first, 0)/most)
}

// shareRow is one named bar of a list such as renderBars': its key in
// attribute keyAttr, marked "(yours)" when chosen, with text under the
// bar.
func shareRow(keyAttr, key, title string, chosen bool, bar el, text string) el {
	li := h("li", "class", "policy-bar", keyAttr, key)
	name := h("span", "class", "bar-name", title)
	if chosen {
		li.Class().Add("chosen")
		build(name, " ", h("span", "class", "chosen-tag", "(yours)"))
	}
	return build(li, name, bar, h("span", "class", "bar-text", text))
}

// tableWrap puts a table in a scrolling region that a keyboard can reach.
func tableWrap(label string, table el) el {
	return build(h("div", "class", "table-wrap", "role", "region", "aria-label", label, "tabindex", "0"), table)
}

// renderTable renders a comparison from report's text table, the same
// headers and cells the command line prints: the first cell of each row is
// a row header, keys[i] is row i's data-KIND attribute, and the row whose key
// is chosen is marked as the reader's. With placeholder, only the first
// column is filled, for a table still being computed.
func renderTable(tableID, class, caption, label, kind string, tab report.Table, keys []string, chosen string, placeholder bool) el {
	var m markup
	m.open("table", "id", tableID, "class", class)
	m.elem("caption", caption)
	m.open("thead")
	m.open("tr")
	for _, c := range tab.Header {
		m.elem("th", "scope", "col", c)
	}
	m.close("tr")
	m.close("thead")
	m.open("tbody")
	for i, row := range tab.Rows {
		if keys[i] == chosen {
			m.open("tr", "data-"+kind, keys[i], "class", "chosen", "aria-current", "true")
		} else {
			m.open("tr", "data-"+kind, keys[i])
		}
		m.elem("th", "scope", "row", "class", kind+"-name", row[0])
		for _, c := range row[1:] {
			if placeholder {
				c = "…"
			}
			m.elem("td", c)
		}
		m.close("tr")
	}
	m.close("tbody")
	m.close("table")
	return tableWrap(label, fromMarkup(&m))
}

// renderPolicyTable renders the comparison of every policy for c;
// placeholder rows show only the names.
func renderPolicyTable(tableID string, rows []report.Row, c sim.Config, placeholder bool) el {
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.Policy.String()
	}
	return renderTable(tableID, "compare", "Every policy, for the people who first arrived "+report.SaleArrivals(c)+" (wasted work over the whole run)",
		"Comparison of every policy", "policy", report.ComparisonTable(rows), keys, c.Policy.String(), placeholder)
}

// renderChart renders a timeline chart from report.Chart geometry, with a
// table of its windows as the text alternative. The SVG and the table,
// hundreds of elements, are written as markup (see markup).
func renderChart(chartID string, ch report.Chart, r sim.Result, caption string) el {
	var m markup
	m.open("svg", "id", chartID, "class", "timeline", "viewBox", "0 0 "+svgNum(ch.Width)+" "+svgNum(ch.Height),
		"role", "img", "aria-label", ch.Summary, "preserveAspectRatio", "xMidYMid meet")
	p := ch.Plot
	m.elem("rect", "class", "plot-bg", "x", svgNum(p.X), "y", svgNum(p.Y), "width", svgNum(p.W), "height", svgNum(p.H))
	if ch.Sale.W > 0 {
		// The band runs from the top of the chart, above the bars (which
		// may fill the plot), to the axis, and the sale is named under
		// the axis, between the ticks.
		m.elem("rect", "class", "sale", "x", svgNum(ch.Sale.X), "y", "0", "width", svgNum(ch.Sale.W), "height", svgNum(ch.Sale.Y+ch.Sale.H))
	}
	for _, t := range ch.YTicks {
		m.elem("line", "class", "grid", "x1", svgNum(p.X), "x2", svgNum(p.X+p.W), "y1", svgNum(t.At), "y2", svgNum(t.At))
		m.elem("text", "class", "tick y", "x", svgNum(p.X-6), "y", svgNum(t.At+4), "text-anchor", "end", t.Label)
	}
	for _, b := range ch.Bars {
		m.open("g", "class", "bar")
		m.elem("title", b.Label)
		for _, part := range b.Parts {
			m.elem("rect", "class", part.Kind, "x", svgNum(part.X), "y", svgNum(part.Y), "width", svgNum(part.W), "height", svgNum(part.H))
		}
		m.close("g")
	}
	for i, t := range ch.XTicks {
		// The first and last labels start and end at their ticks, so that
		// they stay clear of the share axis's labels and inside the chart.
		anchor := "middle"
		switch i {
		case 0:
			anchor = "start"
		case len(ch.XTicks) - 1:
			anchor = "end"
		}
		m.elem("text", "class", "tick x", "x", svgNum(t.At), "y", svgNum(p.Y+p.H+18), "text-anchor", anchor, t.Label)
	}
	m.elem("line", "class", "axis", "x1", svgNum(p.X), "x2", svgNum(p.X+p.W), "y1", svgNum(p.Y+p.H), "y2", svgNum(p.Y+p.H))
	if ch.Sale.W > 0 {
		y := p.Y + p.H + 3
		m.elem("rect", "class", "sale-mark", "x", svgNum(ch.Sale.X), "y", svgNum(y), "width", svgNum(ch.Sale.W), "height", "4")
		if ch.Sale.W >= 30 {
			m.elem("text", "class", "sale-label", "x", svgNum(ch.Sale.X+ch.Sale.W/2), "y", svgNum(p.Y+p.H+18), "text-anchor", "middle", "sale")
		}
	}
	m.close("svg")
	chart := fromMarkup(&m)

	// The text alternative: every window as a table.
	c := r.Config
	var t markup
	t.open("table", "id", chartID+"-table", "class", "windows")
	t.elem("caption", "Answered per 10 s of arrivals; sale windows are marked")
	t.open("thead")
	t.open("tr")
	for _, col := range []string{"Window", "People", "Answered", "Refused", "Timed out", "Still waiting", "Attempts"} {
		t.elem("th", "scope", "col", col)
	}
	t.close("tr")
	t.close("thead")
	t.open("tbody")
	for _, wdw := range r.Windows {
		label := report.Seconds(wdw.StartS) + " to " + report.Seconds(min(wdw.StartS+10, c.DurationS))
		if !report.NoSale(c) && wdw.StartS >= c.SaleStartS && wdw.StartS < c.SaleEndS() {
			t.open("tr", "class", "in-sale")
			label += " (sale)"
		} else {
			t.open("tr")
		}
		t.elem("th", "scope", "row", label)
		t.elem("td", report.Count(wdw.People))
		t.elem("td", report.WindowAnswered(wdw))
		t.elem("td", report.Count(wdw.Refused))
		t.elem("td", report.Count(wdw.TimedOut))
		t.elem("td", report.Count(wdw.Unfinished))
		t.elem("td", report.Count(wdw.Attempts))
		t.close("tr")
	}
	t.close("tbody")
	t.close("table")
	return build(h("figure", "class", "chart"), chart,
		h("figcaption", caption), legend("answered", "refused", "timed_out", "unfinished"),
		build(h("details", "class", "chart-table"), h("summary", "The chart as a table"), tableWrap("The chart's windows", fromMarkup(&t))))
}

// fromMarkup parses m, which holds one element (and what is inside it),
// into an element not yet in the document: with one call into JavaScript,
// through a <template>, whose parser makes an <svg> and what it holds SVG
// elements, as the page's own parser would.
func fromMarkup(m *markup) el {
	t := docJS.Call("createElement", "template")
	t.Set("innerHTML", m.String())
	return wrap(t.Get("content").Get("firstElementChild"))
}

// renderLine renders a labelled line under the chart.
func renderLine(id string, l report.Line) el {
	return build(h("p", "class", "line", "id", id), h("strong", l.Label+":"), " "+l.Text)
}

// history wraps window.history, which dom/v2 does not implement. Under
// file:// some browsers refuse to change the URL; that only loses the
// link, so errors are ignored.
func history(method, query string) {
	defer func() { _ = recover() }()
	loc := js.Global().Get("location")
	js.Global().Get("history").Call(method, js.Null(), "", loc.Get("pathname").String()+query+loc.Get("hash").String())
}

// locationSearch is location.search: "" or "?policy=bounded...".
func locationSearch() string { return js.Global().Get("location").Get("search").String() }

// currentQuery is location.search parsed, the first value of each key.
func currentQuery() map[string]string { return parseQuery(locationSearch()) }

// loaderAttrs are the attributes the loader reads for every widget, which
// are not settings.
var loaderAttrs = []string{"base", "kind", "sample"}

// unknownAttrs lists the attributes in attrs that are neither known nor
// the loader's, sorted.
func unknownAttrs(attrs map[string]string, known func(string) bool) []string {
	return sortedUnknown(attrs, known, loaderAttrs...)
}

func console(args ...any) { js.Global().Get("console").Call("log", args...) }
