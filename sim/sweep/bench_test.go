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
	for b.Loop() {
		sw, err := Run(spec)
		if err != nil {
			b.Fatal(err)
		}
		if len(sw.Curves) != 6 || len(sw.Curves[0].Steps) != 31 {
			b.Fatal("not the 31 x 6 sweep")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/1860, "ms/run")
}
