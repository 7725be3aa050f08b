package sim

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The benchmarks report, besides time per run, the attempts simulated per
// second of wall time ("attempts/s": each attempt is an arrival, a timeout
// and a service or a refusal, so about three events).
//
//	go test ./sim -run='^$' -bench=. -benchtime=3x

func reportAttempts(b *testing.B, attemptsPerOp int) {
	b.ReportMetric(float64(attemptsPerOp)*float64(b.N)/b.Elapsed().Seconds(), "attempts/s")
}

func BenchmarkRunDefault(b *testing.B) {
	b.ReportAllocs()
	reportAttempts(b, benchRun(b, DefaultConfig()))
}

// BenchmarkRetryStorm is the post's stuck case: the unbounded queue with
// 3 retries, which fills with dead work and never drains (87,881 attempts
// at seed 1).
func BenchmarkRetryStorm(b *testing.B) {
	b.ReportAllocs()
	c := DefaultConfig()
	c.Retries = 3
	reportAttempts(b, benchRun(b, c))
}

// BenchmarkRetryStormBackoff is the retry storm with the backoff client
// (full jitter, its defaults), which the arrival-order path computes since
// issue 15: its retries made in the event loop's order, due from a heap.
func BenchmarkRetryStormBackoff(b *testing.B) {
	b.ReportAllocs()
	c := DefaultConfig()
	c.Retries, c.Client = 3, Backoff
	reportAttempts(b, benchRun(b, c))
}

// BenchmarkRunLIFO is the default config under adaptive LIFO, which only
// the event loop runs: the figure issue 15's trim of the event loop aims at.
func BenchmarkRunLIFO(b *testing.B) {
	b.ReportAllocs()
	c := DefaultConfig()
	c.Policy = LIFO
	reportAttempts(b, benchRun(b, c))
}

// BenchmarkRunPriority is the default config under priority for orders,
// which only the event loop runs.
func BenchmarkRunPriority(b *testing.B) {
	b.ReportAllocs()
	c := DefaultConfig()
	c.Policy = Priority
	reportAttempts(b, benchRun(b, c))
}

// BenchmarkRunLimits is the default config under each adaptive limit
// (policies with an admitLimit admission), a sub-benchmark each, so that a
// new limit is benchmarked without an edit here (issue 24: each within 4x
// the default run natively).
func BenchmarkRunLimits(b *testing.B) {
	for _, p := range Policies {
		if p.spec().admit != admitLimit {
			continue
		}
		b.Run(p.String(), func(b *testing.B) {
			b.ReportAllocs()
			c := DefaultConfig()
			c.Policy = p
			reportAttempts(b, benchRun(b, c))
		})
	}
}

// benchRun times Run(c) and returns the attempts one run simulates.
func benchRun(b *testing.B, c Config) (attempts int) {
	for b.Loop() {
		r, err := Run(c)
		if err != nil {
			b.Fatal(err)
		}
		attempts = r.Attempts
	}
	return attempts
}

// BenchmarkSixPolicies is the simulator page's comparison: the default
// config under every policy, as one batch (report.Compare does the same).
func BenchmarkSixPolicies(b *testing.B) {
	cs := make([]Config, len(Policies))
	for i, p := range Policies {
		cs[i] = DefaultConfig()
		cs[i].Policy = p
	}
	benchRuns(b, cs)
}

// BenchmarkLab is the lab's 162 runs as one batch, as shedsim --lab runs
// them.
func BenchmarkLab(b *testing.B) { benchRuns(b, Lab()) }

// benchRuns times Runs(cs) and reports the attempts it simulates a second.
func benchRuns(b *testing.B, cs []Config) {
	b.ReportAllocs()
	var attempts int
	for b.Loop() {
		rs, err := Runs(cs)
		if err != nil {
			b.Fatal(err)
		}
		attempts = 0
		for _, r := range rs {
			attempts += r.Attempts
		}
	}
	reportAttempts(b, attempts)
}

// heapPeak samples the bytes in heap objects (live and not yet swept) every
// millisecond while it runs, without stopping the world, and keeps the most.
type heapPeak struct {
	stop chan struct{}
	wg   sync.WaitGroup
	peak atomic.Uint64
}

// heapObjects is the heap's bytes in objects now.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startHeapPeak() *heapPeak {
	h := &heapPeak{stop: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > h.peak.Load() {
			h.peak.Store(v)
		}
	}
	read()
	h.wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				read()
				return
			case <-tick.C:
				read()
			}
		}
	})
	return h
}

func (h *heapPeak) end() uint64 {
	close(h.stop)
	h.wg.Wait()
	return h.peak.Load()
}

// BenchmarkHourAt1000 is a long, busy run: an hour at 1,000 people a second
// against 100 workers at 80 ms (capacity 1,250 a second), 3.6 million
// attempts. Memory should follow what is in flight, not the run's length:
// "MB-heap-peak" is the most heap in objects seen during the runs, above
// what was there before them.
func BenchmarkHourAt1000(b *testing.B) {
	b.ReportAllocs()
	c := DefaultConfig()
	c.Workers = 100
	c.ServiceMS = 80
	c.NormalRPS, c.SaleRPS = 1000, 1000
	c.DurationS = 3600
	runtime.GC()
	before := heapObjects()
	h := startHeapPeak()
	attempts := benchRun(b, c)
	peak := h.end()
	reportAttempts(b, attempts)
	b.ReportMetric(float64(peak-min(peak, before))/(1<<20), "MB-heap-peak")
}

// BenchmarkChain is the shop's sale behind three hops (rule 40), each
// with a proxy that retries once: the chain's engines in one order of
// events. Its ns/attempt counts every hop's tries with the entry's
// attempts.
func BenchmarkChain(b *testing.B) {
	c := DefaultConfig()
	c.Workers = 64
	c.Hops = "orders: workers=32 service_ms=20 timeout_ms=1500 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250\n" +
		"payments: workers=16 service_ms=40 timeout_ms=1000 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250\n" +
		"bank: workers=8 service_ms=80 timeout_ms=800 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250"
	b.ReportAllocs()
	var attempts int
	for b.Loop() {
		r, err := Run(c)
		if err != nil {
			b.Fatal(err)
		}
		attempts = r.Attempts
		for _, h := range r.Hops {
			attempts += h.Result.Attempts
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(attempts), "ns/attempt")
	b.ReportMetric(float64(attempts), "attempts")
}
