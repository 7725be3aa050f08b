//go:build js && wasm

package main

import (
	"reflect"
	"runtime"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/adapter"
)

// This file holds what every widget shares: a small element builder over
// dom/v2, tasks and listeners that are released on unmount and never let a
// panic kill the runtime, the error box, events and the address. The
// forms' fields are in fields_js.go, the bars and tables in bars_js.go,
// the charts over time in chart_js.go.

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

// showStale marks a page's results as standing for its last valid input
// (stale) or as the form's own: the results are classed "stale", their
// note saying so shows if there are results (has), and their body hides
// if there are none.
func showStale(results, note, body el, stale, has bool) {
	if stale {
		results.Class().Add("stale")
	} else {
		results.Class().Remove("stale")
	}
	setHidden(note, !(stale && has))
	setHidden(body, stale && !has)
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
			text := adapter.PanicText(r)
			msg := "The simulator hit a bug: " + text + ". Reload the page to start again."
			js.Global().Get("console").Call("error", "shedsim: panic:", text, string(stack()))
			w.showError(msg)
			// Fail writes JSON, which JSON.parse reads whatever the text
			// (strconv.Quote's Go escapes, \x01, \a or \U000e0001,
			// would make it throw here, where nothing catches it).
			w.dispatch("shedsim:error", adapter.Fail(text))
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
func currentQuery() map[string]string { return adapter.ParseQuery(locationSearch()) }

// loaderAttrs are the attributes the loader reads for every widget, which
// are not settings.
var loaderAttrs = []string{"base", "kind", "sample", "controls"}

// unknownAttrs lists the attributes in attrs that are neither known nor
// the loader's, sorted.
func unknownAttrs(attrs map[string]string, known func(string) bool) []string {
	return adapter.SortedUnknown(attrs, known, loaderAttrs...)
}

func console(args ...any) { js.Global().Get("console").Call("log", args...) }
