//go:build js && wasm

// Command wasm is the simulator's page, compiled to WebAssembly. It
// registers one global JavaScript object, shedsim, and then waits forever
// for calls. site/loader.js starts it once per page; every widget on the
// page shares it.
//
// The object (every function returns a JSON string unless noted; a
// configuration may be passed as a JSON string or as a plain object, and
// numbers in it as numbers or strings; NaN, Infinity, a value that is not
// a number or a string (a BigInt such as 8n too), a setting that counts
// for nothing and an unknown key are {"errors"}, named by key, never
// quietly the default; an object of more than 1,000 keys is {"error"}.
// Whatever JavaScript value a function is given, it answers: it never
// throws, and never ends the Go program the page's widgets share):
//
//	shedsim.version                  the build's version (sim/version: what shedsim --version prints first), a string
//	shedsim.defaults()               {"config", "plan_input", "page_budget", "keys", "policies"}
//	shedsim.samples()                {"samples": [{"key", "name", "about", "config"}]}
//	shedsim.view(config)             {"view": report.View} | {"errors": [{"field", "msg"}]} | {"error"}
//	shedsim.clients(config)          {"view": report.ClientView} | {"errors"} | {"error"}: every client strategy for config's policy
//	shedsim.run(config)              sim.Result, byte for byte json.Marshal's | {"errors"} | {"error"}
//	shedsim.runTotals(config)        for the page's workers (site/workers.js): a whole sim.Config's run, without its windows
//	shedsim.runParts(config)         the same, {"totals": runTotals', "windows": a Uint8Array of float64s (adapter/results.go)}
//	shedsim.runOutcome(config, seeds)  for the workers: one setting of a sweep or a map, sweep.Outcome (adapter/tips.go)
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
// "first_ms", "build_ms", "advice_ms", "version"}, version as
// shedsim.version, once every policy and, on the page
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
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/version"
	"github.com/shedsim/shedsim/wasm/adapter"
)

// mounted are the live widgets by id.
var (
	mounted = map[int]releaser{}
	nextID  = 1
)

type releaser interface{ release() }

// arg reads argument i of a call for the adapter: a JSON string, a plain
// object read key by key (see ReadJS), or nothing, which is every default.
func arg(args []js.Value, i int) adapter.Input {
	if i >= len(args) {
		return adapter.Input{Vals: map[string]adapter.Scalar{}}
	}
	return adapter.ReadJS(jsVal{args[i]})
}

// fn wraps an adapter function of one argument for JavaScript.
func fn(f func(adapter.Input) string) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				out = adapter.Fail("internal error (a bug, please report it): " + adapter.PanicText(r))
			}
		}()
		return f(arg(args, 0))
	})
}

// fn0 wraps an adapter function of no arguments.
func fn0(f func() string) js.Func {
	return js.FuncOf(func(js.Value, []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				out = adapter.Fail("internal error (a bug, please report it): " + adapter.PanicText(r))
			}
		}()
		return f()
	})
}

// entry wraps an entry point that reads its arguments itself: a panic
// (a Proxy's trap that throws, a bug) answers zero instead of ending the
// Go program that every widget on the page shares.
func entry(name string, zero any, f func(args []js.Value) any) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				out = zero
				func() {
					defer func() { _ = recover() }()
					js.Global().Get("console").Call("error", "shedsim."+name+":", adapter.PanicText(r))
				}()
			}
		}()
		return f(args)
	})
}

// tagOf is v's type as Object.prototype.toString names it ("Number",
// "BigInt", "HTMLDivElement", ...; see jsVal.tag), or "" when asking
// throws, as it does for a revoked Proxy. Every entry point asks it
// before js.Value.Type, which panics on a BigInt.
func tagOf(v js.Value) (tag string) {
	defer func() {
		if recover() != nil {
			tag = ""
		}
	}()
	return jsVal{v}.Tag()
}

// primitive reports whether tag is a primitive value's (or tagOf's ""
// for a value that cannot be asked): nothing to read keys from.
func primitive(tag string) bool {
	switch tag {
	case "", "Undefined", "Null", "Boolean", "Number", "String", "BigInt", "Symbol":
		return true
	}
	return false
}

// stringArg is args[i] when it is a string, with ok; else what it is
// instead ("nothing", "a BigInt"), for a message.
func stringArg(args []js.Value, i int) (s string, what string, ok bool) {
	if i >= len(args) {
		return "", "nothing", false
	}
	if tag := tagOf(args[i]); tag != "String" {
		if tag == "" {
			return "", "a value that throws when read", false
		}
		return "", adapter.Article(tag), false
	}
	return args[i].String(), "", true
}

// workerConfigArg is the JSON text a worker's entry point (RunTotals,
// RunParts, RunOutcome) takes, or the error it answers a caller who gave
// something else: the page's workers always give a string.
func workerConfigArg(name string, args []js.Value) (string, string) {
	s, what, ok := stringArg(args, 0)
	if !ok {
		return "", adapter.Fail("shedsim." + name + " takes a Config as a JSON string, as the page's workers write it, not " + what + ": give JSON.stringify of a whole Config (shedsim.defaults().config)")
	}
	return s, ""
}

// maxAttrs is the most attributes mount reads from its third argument: a
// widget has fewer settings than that (and a few of the loader's own).
const maxAttrs = 200

// attrsOf reads a JavaScript object of attribute strings: a number or a
// boolean is read as String(x) writes it; undefined and null are left
// out. Anything else (a BigInt, a Symbol, an object) is a problem that
// names its key, as is an object with more than maxAttrs keys; v itself
// may be nothing (no attributes).
func attrsOf(v js.Value) (out map[string]string, problem string) {
	out = map[string]string{}
	if tag := tagOf(v); primitive(tag) {
		switch tag {
		case "Undefined", "Null":
			return out, ""
		case "":
			return out, "the attributes cannot be read (a revoked Proxy?): give an object of strings, such as {workers: \"8\"}"
		}
		return out, "the attributes are " + adapter.Article(tag) + ": give an object of strings, such as {workers: \"8\"}"
	}
	keys := objectKeys.Invoke(v)
	if n := keys.Length(); n > maxAttrs {
		return out, "the attributes have " + adapter.GroupDigits(strconv.Itoa(n)) + " keys, more than any widget reads: give at most " + strconv.Itoa(maxAttrs)
	}
	for i := range keys.Length() {
		k := keys.Index(i).String()
		x := reflectGet.Invoke(v, k)
		switch tag := tagOf(x); tag {
		case "Undefined", "Null":
		case "String":
			out[k] = x.String()
		case "Number", "Boolean":
			out[k] = jsString.Invoke(x).String()
		default:
			return out, "attribute " + strconv.Quote(adapter.Prefix(k, adapter.QuoteChars)) + " is " + adapter.Article(tag) + ", not a string: give it as a string, such as \"8\""
		}
	}
	return out, ""
}

// isElement reports whether v is a DOM element (nodeType 1). A value
// whose nodeType cannot be read (a Proxy of an element, whose getter
// throws) is not one.
func isElement(v js.Value) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if primitive(tagOf(v)) {
		return false
	}
	n := reflectGet.Invoke(v, "nodeType")
	return tagOf(n) == "Number" && n.Float() == 1
}

// mount builds a widget of kind in element; page mode uses ids without a
// prefix and keeps the state in the URL. A problem with the call's other
// arguments (attrsOf's, or a kind that is not a string) is shown in
// element instead.
func mount(element js.Value, kind string, attrs map[string]string, problem string, page bool) (id int) {
	if !isElement(element) {
		js.Global().Get("console").Call("error", "shedsim: mount needs an element to draw into, not", element)
		return 0
	}
	host := wrap(element)
	if problem != "" {
		js.Global().Get("console").Call("error", "shedsim: "+problem)
		fill(host, h("p", "class", "shedsim-error", "role", "alert", "This widget cannot start: "+problem+"."))
		return 0
	}
	defer func() {
		if r := recover(); r != nil {
			js.Global().Get("console").Call("error", "shedsim: mount panicked:", adapter.PanicText(r))
			func() {
				defer func() { _ = recover() }() // the runtime every widget shares must live on
				fill(host, h("p", "class", "shedsim-error", "role", "alert", "The simulator hit a bug while starting: "+adapter.PanicText(r)))
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
	case "tips", adapter.TipsSweep, adapter.TipsMap:
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
	js.Global().Set("shedsim", api())
	select {}
}

// api is the global object shedsim (see the package's doc). Each entry
// point answers whatever JavaScript value it is given, and a panic in one
// is its answer, never the end of the Go program every widget shares.
func api() js.Value {
	return js.ValueOf(map[string]any{
		"version":  version.Stamped(),
		"defaults": fn0(adapter.DefaultsJSON),
		"samples":  fn0(adapter.SamplesJSON),
		"view":     fn(adapter.ViewOf),
		"clients":  fn(adapter.ClientsOf),
		"run":      fn(adapter.RunOf),
		"runTotals": js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			defer func() {
				if r := recover(); r != nil {
					out = adapter.Fail("internal error (a bug, please report it): " + adapter.PanicText(r))
				}
			}()
			s, bad := workerConfigArg("runTotals", args)
			if bad != "" {
				return bad
			}
			return adapter.RunTotals(s)
		}),
		"runParts": js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			defer func() {
				if r := recover(); r != nil {
					out = map[string]any{"totals": adapter.Fail("internal error (a bug, please report it): " + adapter.PanicText(r))}
				}
			}()
			s, bad := workerConfigArg("runParts", args)
			if bad != "" {
				return map[string]any{"totals": bad}
			}
			totals, windows := adapter.RunParts(s)
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
					out = adapter.Fail("internal error (a bug, please report it): " + adapter.PanicText(r))
				}
			}()
			s, bad := workerConfigArg("runOutcome", args)
			if bad != "" {
				return bad
			}
			seeds := math.NaN()
			if len(args) >= 2 && tagOf(args[1]) == "Number" {
				seeds = jsVal{args[1]}.Number() // new Number(5) too
			}
			if !(seeds == math.Trunc(seeds) && seeds >= 1 && seeds <= adapter.MaxWhole) {
				what := "nothing"
				if len(args) >= 2 {
					what = adapter.JsScalar(jsVal{args[1]}).Show()
					if tag := tagOf(args[1]); tag != "Number" {
						what = adapter.Article(tag)
					}
				}
				return adapter.Fail("shedsim.runOutcome's second argument is how many seeds to measure, not " + what + ": give a whole number, such as 5")
			}
			return adapter.RunOutcome(s, int(seeds))
		}),
		"labList": fn0(adapter.LabListJSON),
		"lab": js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			defer func() {
				if r := recover(); r != nil {
					out = adapter.Fail("internal error (a bug, please report it): " + adapter.PanicText(r))
				}
			}()
			if len(args) == 0 {
				return adapter.LabOf(jsVal{js.Undefined()})
			}
			return adapter.LabOf(jsVal{args[0]})
		}),
		"labIndex": js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			defer func() {
				if recover() != nil {
					out = -1
				}
			}()
			if len(args) < 4 || tagOf(args[0]) != "String" {
				return -1
			}
			p, err := sim.ParsePolicy(args[0].String())
			if err != nil {
				return -1
			}
			// A number only, and retries a whole one: 1.5 retries is in
			// no lab run, not the run of 1.
			for _, a := range args[1:4] {
				if tagOf(a) != "Number" {
					return -1
				}
			}
			r := args[1].Float()
			if r != math.Trunc(r) || math.Abs(r) > 1000 {
				return -1
			}
			return adapter.LabIndex(p, int(r), args[2].Float(), args[3].Float())
		}),
		"plan": fn(adapter.PlanOf),
		"mount": entry("mount", 0, func(args []js.Value) any {
			if len(args) < 1 {
				return 0
			}
			kind, problem := "", ""
			if len(args) > 1 {
				if k, what, ok := stringArg(args, 1); ok {
					kind = k
				} else if t := tagOf(args[1]); t != "Undefined" && t != "Null" {
					problem = "its kind is " + what + ", not a string: use simulator, full, compare, chart, lab, planner, sweep or map"
				}
			}
			attrs := map[string]string{}
			if len(args) > 2 && problem == "" {
				attrs, problem = attrsOf(args[2])
			}
			return mount(args[0], kind, attrs, problem, false)
		}),
		"page": entry("page", 0, func(args []js.Value) any {
			if len(args) < 2 {
				return 0
			}
			kind, what, ok := stringArg(args, 1)
			problem := ""
			if !ok {
				problem = "its kind is " + what + ", not a string: use simulator, lab, planner or tips"
			}
			return mount(args[0], kind, map[string]string{}, problem, true)
		}),
		"unmount": entry("unmount", false, func(args []js.Value) any {
			if len(args) < 1 || tagOf(args[0]) != "Number" {
				return false
			}
			id := args[0].Float()
			if id != math.Trunc(id) || id < 1 || id >= float64(nextID) {
				return false
			}
			w, ok := mounted[int(id)]
			if !ok {
				return false
			}
			delete(mounted, int(id))
			func() {
				defer func() { _ = recover() }()
				w.release()
			}()
			return true
		}),
	})
}
