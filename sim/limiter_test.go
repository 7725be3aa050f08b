package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLittleOnTheSettledLimit: under sustained overload (200/s for 280 s
// against a capacity of 100/s), over the stretch where the limit has
// settled (rule 38), the mean in flight is the throughput times the mean
// time in flight, Little's law, each as the engine measures it: the
// in-flight count its series reads every 100 ms, the requests its workers
// finish, and the time from admission to leaving it gives the limit. For
// Envoy, which does not settle (its measurements pin it to 3 every
// minute, and ten-sample windows scatter its p50), over the sale after
// its first 10 s. The law is exact for the stretch but for the requests
// in flight at its two ends, counted in one measure and not the other:
// at most 2 W / T of the product for a mean time W over a stretch T (1.4%
// for AIMD's 2 s over 280 s), and 1% more for reading the count every
// 100 ms rather than at every change. And at a settled limit L, the free
// places L - in flight are made by leaving requests at the throughput and
// taken by arrivals at 200/s, an M/M/1 queue of free places: the mean in
// flight is L - r / (1 - r), r = throughput / 200, to within 0.1.
func TestLittleOnTheSettledLimit(t *testing.T) {
	for _, p := range Policies {
		if p.spec().limiter == nil || p == BBR { // BBR holds no limit to settle at: its CPU gate opens and closes (rule 39)
			continue
		}
		for seed := uint64(1); seed <= 5; seed++ {
			c := DefaultConfig()
			c.Policy, c.Seed = p, seed
			c.SaleStartS, c.SaleS, c.SaleRPS, c.DurationS, c.SeriesStepS = 10, 280, 200, 300, 0.1
			first, err := Run(c)
			require.NoError(t, err)
			settled := first.Limit.SettledInSaleMS
			from := ms(c.SaleStartS*1000 + 10_000)
			if p != Envoy {
				require.NotNil(t, settled, "%s, seed %d: settles in sustained overload", p, seed)
				from = ms(c.SaleStartS*1000 + *settled)
			}
			to := ms(c.SaleEndS() * 1000)

			e := newEngine(c, nil)
			w := &timesInFlight{limiter: e.lim.rule, from: from, to: to}
			e.lim.setRule(w)
			if tk, ok := w.limiter.(ticker); ok {
				e.lim.setRule(&timesInFlightTicking{w, tk})
			}
			e.loop()
			r := e.result()
			require.Equal(t, first.Limit, r.Limit, "%s, seed %d: the same run, listened to", p, seed)

			var inFlight, limit float64
			finished := 0
			k0, k1 := int(from/settleStepNS), int(to/settleStepNS) // point k is read at (k+1) x 100 ms
			for _, pt := range r.Series.Points[k0:k1] {
				inFlight += float64(pt.InFlight)
				limit += float64(pt.Limit)
				finished += pt.Completed
			}
			n, T := float64(k1-k0), float64(to-from)/1e9
			N, L := inFlight/n, limit/n
			throughput := float64(finished) / T
			W := w.sumNS / float64(w.n) / 1e9
			require.Equal(t, finished, w.n, "%s, seed %d: every request that leaves is finished by a worker, behind the post's queue", p, seed)
			assert.InEpsilon(t, throughput*W, N, 2*W/T+0.01, "%s, seed %d: in flight %.2f = %.2f/s x %.3f s", p, seed, N, throughput, W)
			if p != Envoy {
				rho := throughput / c.SaleRPS
				assert.InDelta(t, L-rho/(1-rho), N, 0.1, "%s, seed %d: %.2f in flight at a limit of %.2f", p, seed, N, L)
			}
		}
	}
}

// timesInFlight is a limit that also adds up the times in flight of the
// requests that leave in [from, to), ns.
type timesInFlight struct {
	limiter
	from, to int64
	n        int
	sumNS    float64
}

func (w *timesInFlight) sample(now, start int64, inflight int, dropped bool) {
	if now >= w.from && now < w.to {
		w.n++
		w.sumNS += float64(now - start)
	}
	w.limiter.sample(now, start, inflight, dropped)
}

// timesInFlightTicking is timesInFlight for a limit with timers.
type timesInFlightTicking struct {
	*timesInFlight
	ticker
}

// TestSkipBehindTheLimit: behind a limit, a queue that skips the
// abandoned (rule 7) serves fewer requests whose clients have gone than
// the post's queue, which serves them all. AIMD's limit climbs to 200 in
// the post's sale, two seconds of work at 100/s, so its requests wait
// out their clients' 2 s, and the post's queue behind it serves 1,600 to
// 3,000 of them to nobody; skipped, they cost nothing, and the time goes
// to requests still wanted. (The other limits keep far fewer in flight,
// so at the post's inputs nobody waits that long behind them, and the
// setting changes nothing.) Over seeds 1..10, in every seed: less worker
// time wasted, fewer served to nobody, and more of the sale answered.
func TestSkipBehindTheLimit(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		c := DefaultConfig()
		c.Policy, c.Seed = AIMD, seed
		fifo, err := Run(c)
		require.NoError(t, err)
		c.LimitQueue = LimitSkip
		skip, err := Run(c)
		require.NoError(t, err)
		checkInvariants(t, c, skip)
		t.Logf("seed %d: wasted %.1f s and %d against %.1f s and %d; answered %.3f against %.3f", seed, skip.WorkerTimeS.Wasted, skip.Wasted, fifo.WorkerTimeS.Wasted, fifo.Wasted, skip.Sale.AnsweredShare, fifo.Sale.AnsweredShare)
		require.Positive(t, fifo.Wasted, "seed %d: the post's queue behind the limit serves the abandoned", seed)
		assert.Less(t, skip.WorkerTimeS.Wasted, fifo.WorkerTimeS.Wasted, "seed %d: worker time wasted, s", seed)
		assert.Less(t, skip.Wasted, fifo.Wasted, "seed %d: requests served to nobody", seed)
		assert.Greater(t, skip.Sale.AnsweredShare, fifo.Sale.AnsweredShare, "seed %d: the sale's people answered", seed)
	}
}

// setRule puts r in place of l's rule, as the tests' recorders do, and
// with it the timers it answers for (limitState.ticker): its own, or
// none. What it measures stays the rule's it wraps.
func (l *limitState) setRule(r limiter) {
	l.rule = r
	l.ticker, _ = r.(ticker)
}
