package report_test

import (
	"testing"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// BenchmarkAdvise is the advice of the post's shop, and of its shop with
// 3 retries (both goal-seeks), over every core: it reports the runs and
// rounds the advice makes (those a page's workers make, AdviceRuns' lists).
func BenchmarkAdvise(b *testing.B) {
	for _, tc := range []struct {
		name string
		c    sim.Config
	}{{"default", sim.DefaultConfig()}, {"retries3", shop(retries(3))}} {
		b.Run(tc.name, func(b *testing.B) {
			compared, err := report.Compare(tc.c)
			if err != nil {
				b.Fatal(err)
			}
			var done []sim.Result
			rounds := 0
			for {
				cs, err := report.AdviceRuns(tc.c, compared, done)
				if err != nil {
					b.Fatal(err)
				}
				if len(cs) == 0 {
					break
				}
				rs, err := sim.Runs(cs)
				if err != nil {
					b.Fatal(err)
				}
				done = append(done, rs...)
				rounds++
			}
			b.ResetTimer()
			for range b.N {
				if _, err := report.Advise(tc.c, compared); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(done)), "runs/op")
			b.ReportMetric(float64(rounds), "rounds/op")
		})
	}
}
