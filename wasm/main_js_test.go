//go:build js && wasm

package main

import (
	"sync"
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
)

// registerOnce sets the global shedsim as main does, once for every test.
var registerOnce sync.Once

// call evaluates a JavaScript expression that calls the global shedsim,
// and returns its answer as text: a string as is, anything else as
// JSON.stringify writes it. A Go panic the entry point did not recover
// ends the test binary, as it would end the page's Go program.
func call(expr string) string {
	registerOnce.Do(func() {
		initDOM()
		js.Global().Set("shedsim", api())
	})
	return js.Global().Call("eval", `(() => { const r = `+expr+`; return typeof r === "string" ? r : JSON.stringify(r) })()`).String()
}

// TestEveryEntryPointSurvivesEveryValue calls each of the JS API's entry
// points, under Node, with the values a hostile or careless page script
// could pass (issue 27, item 1): a BigInt, a Symbol, a Proxy whose traps
// throw, a revoked Proxy, a frozen object, an object of 80,000 keys. Each
// call answers, without "internal error", and the runtime lives on. (The
// DOM's own values, a detached node, are in tools/browser: Node has no
// DOM.)
//
//	GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm/
func TestEveryEntryPointSurvivesEveryValue(t *testing.T) {
	cases := []struct {
		reason string
		expr   string
		want   string // a part of the answer
	}{
		{"mount of a BigInt is no element", `shedsim.mount(10n)`, "0"},
		{"unmount of a BigInt is no widget", `shedsim.unmount(10n)`, "false"},
		{"unmount of a Symbol", `shedsim.unmount(Symbol("id"))`, "false"},
		{"unmount of a fraction", `shedsim.unmount(1.5)`, "false"},
		{"page of a BigInt", `shedsim.page(10n, "lab")`, "0"},
		{"page with a BigInt kind", `shedsim.page({}, 10n)`, "0"},
		{"mount with a BigInt kind", `shedsim.mount({}, 10n)`, "0"},
		{"mount with a Symbol kind", `shedsim.mount({}, Symbol("kind"))`, "0"},
		{"mount with a BigInt attribute", `shedsim.mount({}, "lab", {a: 10n})`, "0"},
		{"mount with attributes a revoked Proxy", `(() => { const p = Proxy.revocable({}, {}); p.revoke(); return shedsim.mount({}, "lab", p.proxy) })()`, "0"},
		{"mount of a BigInt nodeType", `shedsim.mount({nodeType: 10n})`, "0"},
		{"mount of a Proxy whose getter throws", `shedsim.mount(new Proxy({}, {get() { throw new Error("trap") }}))`, "0"},
		{"mount of a revoked Proxy", `(() => { const p = Proxy.revocable({}, {}); p.revoke(); return shedsim.mount(p.proxy) })()`, "0"},
		{"view of a BigInt value names the field", `shedsim.view({workers: 10n})`, `{"errors":[{"field":"workers","msg":"a BigInt is not a number or a string`},
		{"run of a BigInt value", `shedsim.run({seed: 10n})`, `"field":"seed","msg":"a BigInt is not a number or a string`},
		{"clients of a BigInt value", `shedsim.clients({retries: 3n})`, `"field":"retries","msg":"a BigInt`},
		{"plan of a BigInt value", `shedsim.plan({rate_rps: 10n})`, `"field":"rate_rps","msg":"a BigInt is not a number or a string`},
		{"view of a BigInt", `shedsim.view(10n)`, "the input is a BigInt"},
		{"view of a Symbol", `shedsim.view(Symbol("x"))`, "the input is a symbol"},
		{"a Symbol value", `shedsim.view({workers: Symbol("x")})`, `"field":"workers","msg":"a symbol is not a number or a string`},
		{"a Proxy whose traps throw", `shedsim.view(new Proxy({}, {ownKeys() { throw new Error("trap") }}))`, "reading the input threw"},
		{"a revoked Proxy", `(() => { const p = Proxy.revocable({}, {}); p.revoke(); return shedsim.run(p.proxy) })()`, "reading the input threw"},
		{"a frozen object is read", `JSON.parse(shedsim.run(Object.freeze({workers: 9}))).config.workers`, "9"},
		{"80,000 keys are refused by their count, none read", `(() => {
			const keys = Array.from({length: 80000}, (_, i) => "k" + i);
			let gets = 0;
			const p = new Proxy({}, {ownKeys: () => keys, getOwnPropertyDescriptor: () => ({value: 1, enumerable: true, configurable: true}), get: (_, k) => { if (typeof k === "string") gets++; return 1 }});
			return shedsim.view(p) + " gets=" + gets })()`, `the input has 80,000 keys, more than any configuration needs: give at most 1000"} gets=0`},
		{"runTotals of a BigInt", `shedsim.runTotals(10n)`, "shedsim.runTotals takes a Config as a JSON string, as the page's workers write it, not a BigInt"},
		{"runTotals of nothing", `shedsim.runTotals()`, "not nothing"},
		{"runParts of a Symbol", `shedsim.runParts(Symbol("x"))`, "shedsim.runParts takes a Config as a JSON string"},
		{"runOutcome of nothing", `shedsim.runOutcome()`, "shedsim.runOutcome takes a Config as a JSON string"},
		{"runOutcome's seeds a BigInt", `shedsim.runOutcome("{}", 10n)`, "shedsim.runOutcome's second argument is how many seeds to measure, not a BigInt"},
		{"runOutcome's seeds a fraction", `shedsim.runOutcome("{}", 1.5)`, "shedsim.runOutcome's second argument is how many seeds to measure, not 1.5"},
		{"lab of a BigInt", `shedsim.lab(10n)`, `"field":"index","msg":"a BigInt is not a number or a string`},
		{"labIndex of a BigInt policy", `shedsim.labIndex(10n, 1, 150, 2000)`, "-1"},
		{"labIndex of BigInt retries", `shedsim.labIndex("fifo", 1n, 150, 2000)`, "-1"},
		{"defaults ignores its arguments", `JSON.parse(shedsim.defaults(10n)).config.workers`, "8"},
		{"samples ignores its arguments", `JSON.parse(shedsim.samples(Symbol("x"))).samples.length > 0`, "true"},
		{"and the runtime lives on", `JSON.parse(shedsim.run({})).config.workers`, "8"},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			got := call(tc.expr)
			assert.Contains(t, got, tc.want, tc.reason)
			assert.NotContains(t, got, "internal error", tc.reason)
		})
	}
}
