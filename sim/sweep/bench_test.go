package sweep

import (
	"testing"

	"github.com/shedsim/shedsim/sim"
)

// BenchmarkSweep1860 is the sweep: the sale from 100/s to 250/s in
// 31 steps, the post's six policies, 10 seeds each: 1,860 default-size
// runs. Run it
// with -cpu 1,2 for one core and both (make bench does).
func BenchmarkSweep1860(b *testing.B) {
	spec := Spec{Base: sim.DefaultConfig(), Knob: "sale_rps", From: 100, To: 250, Steps: 31, Seeds: 10, Below: 0.5, Policies: sim.PostPolicies}
	benchSweep(b, spec)
}

// BenchmarkSweepPage is the request "Where it tips" makes when it opens
// (site/tips.html with no query, adapter's tipsDefaults): the same range
// and seeds as BenchmarkSweep1860, for every policy, 31 x 11 x 10 = 3,410
// runs with today's eleven. It is what BenchmarkBrowserSweep
// (tools/browser) measures in the page, which reports its own time against
// this one's, measured beside it. Under Node, the WebAssembly engine's
// floor for the page's sweep on one core (sim/PERF.md, "The sweep in the
// page"):
//
//	GOOS=js GOARCH=wasm go test -c -o /tmp/sweep.wasm ./sim/sweep
//	node --stack-size=8192 "$(go env GOROOT)/lib/wasm/wasm_exec_node.js" /tmp/sweep.wasm \
//	  -test.run='^$' -test.bench='^BenchmarkSweepPage$' -test.benchtime=1x -test.count=2
//
// (the second count: V8 compiles the hot functions fully during the first).
func BenchmarkSweepPage(b *testing.B) {
	spec := Spec{Base: sim.DefaultConfig(), Knob: "sale_rps", From: 100, To: 250, Steps: 31, Seeds: 10, Below: 0.5}
	benchSweep(b, spec)
}

// benchSweep runs spec, and reports its milliseconds a run.
func benchSweep(b *testing.B, spec Spec) {
	policies := len(spec.Policies)
	if policies == 0 {
		policies = len(sim.Policies)
	}
	for b.Loop() {
		sw, err := Run(spec)
		if err != nil {
			b.Fatal(err)
		}
		if len(sw.Curves) != policies || len(sw.Curves[0].Steps) != spec.Steps {
			b.Fatalf("not the %d x %d sweep", spec.Steps, policies)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(spec.Steps*policies*spec.Seeds), "ms/run")
}
