//go:build js && wasm

// Command wasm is the simulator's page, compiled to WebAssembly. It
// registers one global JavaScript object, shedsim, and then waits forever
// for calls. site/loader.js starts it once per page; every widget on the
// page shares it.
//
// The object (every function returns a JSON string unless noted; a
// configuration may be passed as a JSON string or as a plain object, and
// numbers in it as numbers or strings; NaN, Infinity, a value that is not
// a number or a string, a setting that counts for nothing and an unknown
// key are {"errors"}, named by key, never quietly the default):
//
//	shedsim.version                  the module's version string
//	shedsim.defaults()               {"config", "plan_input", "page_budget", "keys", "policies"}
//	shedsim.samples()                {"samples": [{"key", "name", "about", "config"}]}
//	shedsim.view(config)             {"view": report.View} | {"errors": [{"field", "msg"}]} | {"error"}
//	shedsim.clients(config)          {"view": report.ClientView} | {"errors"} | {"error"}: every client strategy for config's policy
//	shedsim.run(config)              sim.Result, byte for byte json.Marshal's | {"errors"} | {"error"}
//	shedsim.runTotals(config)        for the page's workers (site/workers.js): a whole sim.Config's run, without its windows
//	shedsim.runParts(config)         the same, {"totals": runTotals', "windows": a Uint8Array of float64s (results.go)}
//	shedsim.runOutcome(config, seeds)  for the workers: one setting of a sweep or a map, sweep.Outcome (tips.go)
//	                                 (these three take only a Config as the page writes it, every key as json.Marshal writes them: else {"error"})
//	shedsim.labList()                {"dimensions", "lab": [{"index", "config"}]}
//	shedsim.lab(index)               {"index", "config", "result", "chart", "recovered", "outlook", "this_run"} | {"errors"}
//	shedsim.labIndex(policy, retries, sale_rps, timeout_ms)  a number, -1 if not in the lab
//	shedsim.plan(input)              {"plan": plan.Plan, "chart"} | {"errors"} | {"error"}
//	shedsim.mount(element, kind, attrs)  a widget id (number > 0), or 0 on failure (shown in element)
//	shedsim.unmount(id)              removes a widget's listeners and empties its element
//	shedsim.page(element, kind)      a page ("simulator", "lab", "planner", "tips"): ids without prefix, URL state
//
// Widgets (kind "simulator", "full", "compare", "chart", "lab", "planner", "sweep", "map") dispatch bubbling
// CustomEvents on their element: shedsim:result (detail {"view",
// "first_ms", "build_ms", "advice_ms"}, once every policy and, on the page
// and kind "full", which show it, the advice are measured: the other
// kinds measure no advice, and their view's is null; an input that is not
// valid while they are leaves them to
// finish for the last valid one, so shedsim:invalid can come before the
// shedsim:result of the input before it),
// shedsim:clients (the simulator page only: detail {"view":
// report.ClientView, "clients_ms"}, after shedsim:result), shedsim:lab
// (detail a lab run), shedsim:plan (detail {"plan", "chart"}),
// shedsim:sweep and shedsim:map (detail {"sweep": sweep.Sweep} or {"map":
// sweep.Map, "ms"}, once every step is measured),
// shedsim:invalid (detail {"errors"}) and shedsim:error (detail
// {"error"}), for a bug.
package main

import (
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
)

// version names this build of the page's module.
const version = "shedsim-wasm 1"

// mounted are the live widgets by id.
var (
	mounted = map[int]releaser{}
	nextID  = 1
)

type releaser interface{ release() }

// arg reads argument i of a call for the adapter: a JSON string, a plain
// object read key by key (see readJS), or nothing, which is every default.
func arg(args []js.Value, i int) input {
	if i >= len(args) {
		return input{vals: map[string]scalar{}}
	}
	return readJS(jsVal{args[i]})
}

// jsVal is a js.Value as readJS reads it.
type jsVal struct{ v js.Value }

var (
	objectToString = js.Global().Get("Object").Get("prototype").Get("toString")
	objectKeys     = js.Global().Get("Object").Get("keys")
	objectOf       = js.Global().Get("Object")
	reflectGet     = js.Global().Get("Reflect").Get("get")
	jsString       = js.Global().Get("String")
)

// tag is Object.prototype.toString.call(v) without "[object " and "]".
// It is asked first, because js.Value.Type panics on a BigInt.
func (j jsVal) tag() string {
	t := objectToString.Call("call", j.v).String()
	return strings.TrimSuffix(strings.TrimPrefix(t, "[object "), "]")
}

// prim is v, or a wrapper object's primitive (new Number(8) is 8).
func (j jsVal) prim() js.Value {
	if j.v.Type() == js.TypeObject {
		return j.v.Call("valueOf")
	}
	return j.v
}

func (j jsVal) number() float64 {
	p := j.prim()
	if p.Type() == js.TypeBoolean {
		if p.Bool() {
			return 1
		}
		return 0
	}
	return p.Float()
}

// str is String(v) as a String object: js.Value's Length, Get and Call
// panic on a primitive string.
func (j jsVal) str() js.Value { return objectOf.Invoke(jsString.Invoke(j.v)) }

func (j jsVal) length() int { return j.str().Length() }

func (j jsVal) text(n int) string {
	s := j.str()
	if s.Length() > n {
		return s.Call("slice", 0, n).String()
	}
	return s.Call("toString").String()
}

func (j jsVal) keys() []jsValue {
	ks := objectKeys.Invoke(j.v)
	out := make([]jsValue, ks.Length())
	for i := range out {
		out[i] = jsVal{ks.Index(i)}
	}
	return out
}

// get is Reflect.get(v, key): through Invoke, so that a getter that
// throws is a Go panic readJSValue recovers from, where Value.Get would let
// the exception through the Go stack.
func (j jsVal) get(key string) jsValue { return jsVal{reflectGet.Invoke(j.v, key)} }

// fn wraps an adapter function of one argument for JavaScript.
func fn(f func(input) string) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				out = fail("internal error (a bug, please report it): " + panicText(r))
			}
		}()
		return f(arg(args, 0))
	})
}

// fn0 wraps an adapter function of no arguments.
func fn0(f func() string) js.Func {
	return js.FuncOf(func(js.Value, []js.Value) any { return f() })
}

// attrsOf reads a JavaScript object of attribute strings.
func attrsOf(v js.Value) map[string]string {
	out := map[string]string{}
	if v.Type() != js.TypeObject {
		return out
	}
	keys := js.Global().Get("Object").Call("keys", v)
	for i := range keys.Length() {
		k := keys.Index(i).String()
		x := v.Get(k)
		if x.Type() == js.TypeString || x.Type() == js.TypeNumber || x.Type() == js.TypeBoolean {
			out[k] = x.String()
			if x.Type() != js.TypeString {
				out[k] = js.Global().Get("String").Invoke(x).String()
			}
		}
	}
	return out
}

// isElement reports whether v is a DOM element (nodeType 1).
func isElement(v js.Value) bool {
	if v.Type() != js.TypeObject {
		return false
	}
	n := v.Get("nodeType")
	return n.Type() == js.TypeNumber && n.Int() == 1
}

// mount builds a widget of kind in element; page mode uses ids without a
// prefix and keeps the state in the URL.
func mount(element js.Value, kind string, attrs map[string]string, page bool) (id int) {
	if !isElement(element) {
		js.Global().Get("console").Call("error", "shedsim: mount needs an element to draw into, not", element)
		return 0
	}
	host := wrap(element)
	defer func() {
		if r := recover(); r != nil {
			js.Global().Get("console").Call("error", "shedsim: mount panicked:", panicText(r))
			func() {
				defer func() { _ = recover() }() // the runtime every widget shares must live on
				fill(host, h("p", "class", "shedsim-error", "role", "alert", "The simulator hit a bug while starting: "+panicText(r)))
			}()
			id = 0
		}
	}()
	prefix := ""
	if !page {
		prefix = "shed" + strconv.Itoa(nextID) + "-"
	}
	var w releaser
	switch kind {
	case "", "simulator", "full", "compare", "chart":
		if kind == "" {
			kind = "simulator"
		}
		w = mountSimulator(host, prefix, page, kind, attrs)
	case "lab":
		w = mountLab(host, prefix, page, attrs)
	case "planner":
		w = mountPlanner(host, prefix, page, attrs)
	case "tips", tipsSweep, tipsMap:
		w = mountTips(host, prefix, page, kind, attrs)
	default:
		fill(host, h("p", "class", "shedsim-error", "role", "alert", "Unknown kind "+strconv.Quote(kind)+": use simulator, full, compare, chart, lab, planner, sweep or map."))
		return 0
	}
	id = nextID
	nextID++
	mounted[id] = w
	return id
}

func main() {
	initDOM()
	api := map[string]any{
		"version":  version,
		"defaults": fn0(defaultsJSON),
		"samples":  fn0(samplesJSON),
		"view":     fn(viewOf),
		"clients":  fn(clientsOf),
		"run":      fn(runOf),
		"runTotals": js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			defer func() {
				if r := recover(); r != nil {
					out = fail("internal error (a bug, please report it): " + panicText(r))
				}
			}()
			return runTotals(args[0].String())
		}),
		"runParts": js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			defer func() {
				if r := recover(); r != nil {
					out = map[string]any{"totals": fail("internal error (a bug, please report it): " + panicText(r))}
				}
			}()
			totals, windows := runParts(args[0].String())
			if windows == nil {
				return map[string]any{"totals": totals}
			}
			u8 := js.Global().Get("Uint8Array").New(len(windows))
			js.CopyBytesToJS(u8, windows)
			return map[string]any{"totals": totals, "windows": u8}
		}),
		"runOutcome": js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			defer func() {
				if r := recover(); r != nil {
					out = fail("internal error (a bug, please report it): " + panicText(r))
				}
			}()
			return runOutcome(args[0].String(), args[1].Int())
		}),
		"labList": fn0(labListJSON),
		"lab": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) == 0 {
				return labOf(jsVal{js.Undefined()})
			}
			return labOf(jsVal{args[0]})
		}),
		"labIndex": js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			defer func() {
				if recover() != nil {
					out = -1
				}
			}()
			if len(args) < 4 {
				return -1
			}
			p, err := sim.ParsePolicy(args[0].String())
			if err != nil {
				return -1
			}
			// A number only, and retries a whole one: 1.5 retries is in
			// no lab run, not the run of 1.
			for _, a := range args[1:4] {
				if a.Type() != js.TypeNumber {
					return -1
				}
			}
			r := args[1].Float()
			if r != math.Trunc(r) || math.Abs(r) > 1000 {
				return -1
			}
			return LabIndex(p, int(r), args[2].Float(), args[3].Float())
		}),
		"plan": fn(planOf),
		"mount": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) < 1 {
				return 0
			}
			kind := ""
			if len(args) > 1 && args[1].Type() == js.TypeString {
				kind = args[1].String()
			}
			var attrs map[string]string
			if len(args) > 2 {
				attrs = attrsOf(args[2])
			} else {
				attrs = map[string]string{}
			}
			return mount(args[0], kind, attrs, false)
		}),
		"page": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) < 2 {
				return 0
			}
			return mount(args[0], args[1].String(), map[string]string{}, true)
		}),
		"unmount": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) < 1 || args[0].Type() != js.TypeNumber {
				return false
			}
			id := args[0].Int()
			w, ok := mounted[id]
			if !ok {
				return false
			}
			delete(mounted, id)
			func() {
				defer func() { _ = recover() }()
				w.release()
			}()
			return true
		}),
	}
	js.Global().Set("shedsim", js.ValueOf(api))
	select {}
}
