package sim

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// scaleConfig is a Config the README invites, named as PERF.md's table of
// the cost of an attempt names it.
type scaleConfig struct {
	name string
	c    Config
}

// scaleConfigs are runs that grow one way each from the default: workers
// and rates in proportion (8 to 1,000 workers at the default's load), a
// day's length, and an unbounded queue over capacity for the whole run.
// lifo and priority take requests out of arrival order.
func scaleConfigs() []scaleConfig {
	at := func(workers int, sale bool) Config {
		c := DefaultConfig()
		f := float64(workers) / float64(c.Workers)
		c.Workers = workers
		c.NormalRPS *= f
		c.SaleRPS *= f
		if !sale {
			c.SaleRPS = c.NormalRPS
		}
		return c
	}
	day := DefaultConfig()
	day.DurationS = 86_400
	over := func(s float64) Config {
		c := DefaultConfig()
		c.NormalRPS, c.SaleRPS, c.DurationS = 150, 150, s
		return c
	}
	// the most attempts a Config may expect (MaxAttempts), nearly all
	// still waiting at the end: one worker at 12.5 a second, 115 arriving
	largest := DefaultConfig()
	largest.Workers, largest.NormalRPS, largest.SaleRPS, largest.DurationS = 1, 115, 115, 86_400
	// the same on the event loop: orders first, behind a bound that holds
	// them all
	largestPriority := largest
	largestPriority.Policy, largestPriority.Queue = Priority, maxQueue
	lifo, priority := DefaultConfig(), DefaultConfig()
	lifo.Policy, priority.Policy = LIFO, Priority
	lifoStorm := lifo // the post's retry storm, under lifo
	lifoStorm.Retries = 3
	return []scaleConfig{
		{"default", DefaultConfig()},
		{"day", day},
		{"workers-80", at(80, true)},
		{"workers-200", at(200, true)},
		{"workers-400", at(400, true)},
		{"workers-800", at(800, true)},
		{"workers-1000", at(1000, true)},
		{"workers-800-no-sale", at(800, false)},
		{"over-capacity-3000s", over(3_000)},
		{"over-capacity-30000s", over(30_000)},
		{"largest", largest},
		{"largest-priority", largestPriority},
		{"lifo", lifo},
		{"priority", priority},
		{"lifo-retry-storm", lifoStorm},
	}
}

// BenchmarkScale is the CPU time of an attempt as a run grows ("ns/attempt"):
// it should stay near the default run's, whatever the workers, the run's
// length or the queue's. "B-heap-peak/attempt" is the most heap in objects
// seen during the runs, above what was there before them, over the run's
// attempts.
func BenchmarkScale(b *testing.B) {
	for _, s := range scaleConfigs() {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			runtime.GC()
			before := heapObjects()
			h := startHeapPeak()
			attempts := benchRun(b, s.c)
			peak := h.end()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(attempts), "ns/attempt")
			b.ReportMetric(float64(attempts), "attempts")
			b.ReportMetric(float64(peak-min(peak, before))/float64(attempts), "B-heap-peak/attempt")
		})
	}
}

// TestFastPathsTakeScale: the arrival-order path takes every config of
// BenchmarkScale but those whose policy serves out of arrival order, and
// the pickup path those, so that no change can quietly send them back to
// the event loop; each gives the event loop's Result to the byte.
func TestFastPathsTakeScale(t *testing.T) {
	for _, s := range scaleConfigs() {
		if !s.c.Policy.spec().arrivalOrder {
			assert.Contains(t, []string{"lifo", "priority", "largest-priority", "lifo-retry-storm"}, s.name, "only lifo and priority take requests out of arrival order")
			if assert.True(t, pickupTakes(s.c), "%s: the pickup path declines it", s.name) && !testing.Short() {
				samePickupAndLoop(t, s.name, s.c)
			}
			continue
		}
		assert.True(t, sameByBothPaths(t, s.name, s.c), "%s: the arrival-order path declines it", s.name)
	}
}
