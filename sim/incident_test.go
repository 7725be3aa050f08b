package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// incidentConfigs are runs with a capacity loss or a slowdown, for the
// checks that watch the engine event by event.
func incidentConfigs() []struct {
	reason string
	c      Config
} {
	with := func(f func(*Config)) Config {
		c := DefaultConfig()
		f(&c)
		return c
	}
	return []struct {
		reason string
		c      Config
	}{
		{"the deploy: 3 of 8 idle or serving workers gone for 30 s", with(deploy)},
		{"the deploy with 3 retries: the queue is long when the workers come back", with(func(c *Config) { deploy(c); c.Retries = 3 })},
		{"every worker lost in the sale, serving", with(func(c *Config) { c.LossWorkers, c.LossStartS, c.LossS = 8, 70, 20 })},
		{"a loss for the rest of the run", with(func(c *Config) { c.LossWorkers, c.LossStartS = 5, 100 })},
		{"workers lost while refusing at a cost go when their refusal is done", with(func(c *Config) {
			c.Policy, c.RefusalCostMS, c.Workers, c.LossWorkers, c.LossStartS, c.LossS = Bounded, 80, 4, 4, 90, 20
		})},
		{"a loss during a slowdown", with(func(c *Config) {
			c.SlowFactor, c.SlowStartS, c.SlowS, c.LossWorkers, c.LossStartS, c.LossS = 2, 50, 60, 2, 70, 30
		})},
	}
}

// TestLostCapacityNeverServes watches every event of runs with a loss: the
// busy workers (serving or refusing) plus those idle are the workers
// present, the workers gone and still to go are the loss while it lasts and
// none outside it, and the lost workers never serve.
func TestLostCapacityNeverServes(t *testing.T) {
	for _, tt := range incidentConfigs() {
		t.Run(tt.reason, func(t *testing.T) {
			c := tt.c
			require.NoError(t, c.Validate())
			e := newEngine(c, nil)
			lossOn, checked := false, 0
			e.trace = func(at int64, what string, a *attempt) {
				serving := e.services.n
				busy := serving + e.refusing.n
				present := c.Workers - e.down
				if busy+e.free != present || e.free < 0 {
					t.Fatalf("at %d ns: %d serving + %d refusing + %d idle is not the %d workers present", at, serving, e.refusing.n, e.free, present)
				}
				if lossOn {
					if e.down+e.owed != c.LossWorkers {
						t.Fatalf("at %d ns, in the loss: %d gone and %d to go, not %d", at, e.down, e.owed, c.LossWorkers)
					}
					if serving > c.Workers-c.LossWorkers {
						t.Fatalf("at %d ns: %d serving with %d of %d workers lost", at, serving, c.LossWorkers, c.Workers)
					}
				} else if e.down+e.owed != 0 {
					t.Fatalf("at %d ns, outside the loss: %d workers gone", at, e.down+e.owed)
				}
				switch what {
				case "loss starts":
					lossOn = true
				case "loss ends":
					lossOn = false
				}
				checked++
			}
			e.loop()
			r := e.result()
			checkInvariants(t, c, r)
			assert.Greater(t, checked, 1000, "the trace saw the run")
		})
	}
}

// TestLossLosesTheRequestsServed: a worker lost mid-request loses it, and
// its client sees the timeout. One worker always busy (a second of service
// at 50 a second) is lost for 10 s: its request is lost, and everyone who
// arrives in those 10 s times out.
func TestLossLosesTheRequestsServed(t *testing.T) {
	c := DefaultConfig()
	c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS = 1, 1000, 50, 50
	c.LossWorkers, c.LossStartS, c.LossS = 1, 30, 10
	r, err := Run(c)
	require.NoError(t, err)
	checkInvariants(t, c, r)
	assert.Equal(t, 1, r.LostInService, "the one worker was serving when it went")
	assert.Equal(t, 10.0, r.WorkerTimeS.Gone, "one worker gone for 10 s")
	assert.Zero(t, r.Sale.Answered, "nobody who arrives while the only worker is gone, behind a queue of a second's work each, is answered in 2 s")
	assert.Equal(t, r.Sale.People, r.Sale.TimedOut, "the loss's people all time out")
}

// TestLossFromTheStartIsFewerWorkers: a loss of k workers from 0 for the
// whole run is the same run as c - k workers, window by window: the same
// streams, the same people, the same answers. Only the measured people
// differ (with no sale, the loss's: the whole run) and the gone time.
func TestLossFromTheStartIsFewerWorkers(t *testing.T) {
	for _, p := range Policies {
		t.Run(p.String(), func(t *testing.T) {
			lost := shop(p, withRetries(1))
			lost.LossWorkers = 3
			fewer := shop(p, withRetries(1), withWorkers(5))
			// The bound depends on the workers: hold it to the fewer's.
			lost.Queue, fewer.Queue = fewer.QueueBound(), fewer.QueueBound()
			a, err := Run(lost)
			require.NoError(t, err)
			b, err := Run(fewer)
			require.NoError(t, err)
			assert.Equal(t, b.Windows, a.Windows, "the same windows")
			assert.Equal(t, b.Wasted, a.Wasted)
			assert.Equal(t, b.WorkerTimeS.Useful, a.WorkerTimeS.Useful)
			assert.Equal(t, 3*300.0, a.WorkerTimeS.Gone)
			assert.InDelta(t, b.WorkerTimeS.Idle, a.WorkerTimeS.Idle, 1e-6)
		})
	}
}

// TestTheoryIncidents holds a long run with a permanent incident to the
// queue it leaves: a loss of k workers to Erlang C (M/M/c) at c - k, and to
// M/M/c/K at c - k for the bounded queue; a slowdown x f to M/M/c at
// service x f. The checks are TestTheoryMMC's and TestTheoryBlocking's.
func TestTheoryIncidents(t *testing.T) {
	type check struct {
		reason string
		c      Config
		q      mmc
		tauMS  float64 // the timeout: P(T >= tau) is measured
		bound  int     // > 0: the refused share is measured instead
	}
	loss := func(p Policy, lambda float64, tauMS float64, bound int) Config {
		c := steady(p, 8, 80, lambda, 2110)
		c.LossWorkers = 2
		if tauMS > 0 {
			c.TimeoutMS = tauMS
		}
		c.Queue = bound
		return c
	}
	slow := func(lambda, tauMS float64) Config {
		c := steady(FIFO, 8, 60, lambda, 2110)
		c.SlowFactor = 1.5
		c.TimeoutMS = tauMS
		return c
	}
	lost := mmc{c: 6, lambda: 60, mu: 1000 / 80.0}
	slowed := mmc{c: 8, lambda: 70, mu: 1000 / 90.0}
	tests := []check{
		{"2 of 8 workers lost: Erlang C at 6, the median's wait", loss(FIFO, 60, 1000*lost.sojournQuantile(0.5), 0), lost, 1000 * lost.sojournQuantile(0.5), 0},
		{"2 of 8 workers lost: Erlang C at 6, the p90's wait", loss(FIFO, 60, 1000*lost.sojournQuantile(0.9), 0), lost, 1000 * lost.sojournQuantile(0.9), 0},
		{"2 of 8 workers lost, a bound of 10: M/M/6/16", loss(Bounded, 70, 0, 10), mmc{c: 6, lambda: 70, mu: 12.5}, 0, 10},
		{"service 60 ms x 1.5: Erlang C at 90 ms, the median's wait", slow(70, 1000*slowed.sojournQuantile(0.5)), slowed, 1000 * slowed.sojournQuantile(0.5), 0},
		{"service 60 ms x 1.5: Erlang C at 90 ms, the p90's wait", slow(70, 1000*slowed.sojournQuantile(0.9)), slowed, 1000 * slowed.sojournQuantile(0.9), 0},
	}
	cs := make([]Config, len(tests))
	for i, tt := range tests {
		cs[i] = tt.c
	}
	rs := runAll(t, cs)
	for i, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := rs[i]
			if tt.bound > 0 {
				want := blocking(tt.q.c, tt.q.c+tt.bound, tt.q.lambda, tt.q.mu)
				got, se := ratioEstimate(batches(r, func(w Window) (float64, float64) { return float64(w.Refused), float64(w.People) }))
				assertNear(t, fmt.Sprintf("refused share, P_K with c = %d, K = %d", tt.q.c, tt.q.c+tt.bound), got, want, se, tt.reason)
				return
			}
			got, se := ratioEstimate(batches(r, func(w Window) (float64, float64) { return float64(w.People - w.Answered), float64(w.People) }))
			assertNear(t, fmt.Sprintf("P(T >= %.1f ms)", tt.tauMS), got, tt.q.sojournSurvival(tt.tauMS/1000), se, tt.reason)
		})
	}
}

// TestIncidentSeeds holds the incident samples over seeds 1..20. The
// deploy with the post's client and 3 retries is the capacity-triggered
// metastable failure: stuck. Its fluid view says so (280 tries a second
// against 100 of capacity once the workers are back), but whether the queue
// holds a timeout's worth of dead work when they return is a race: the
// queue grows 7.5 a second on average for 30 s, give or take 60, and in
// seed 3 it falls short; so 19 of 20, not 20. The same deploy under a retry
// budget, or with no retries, and the slow dependency, are back in every
// seed.
func TestIncidentSeeds(t *testing.T) {
	count := func(key string) map[Recovery]int {
		s, ok := SampleByKey(key)
		require.True(t, ok, key)
		n := map[Recovery]int{}
		for _, r := range runSeeds(t, s.Config) {
			n[r.Recovery]++
		}
		return n
	}
	stuck := count("deploy-retries")
	assert.GreaterOrEqual(t, stuck[Stuck], 18, "the deploy with 3 retries stays stuck: %v", stuck)
	assert.Equal(t, map[Recovery]int{Normal: modelSeeds}, count("deploy-budget"), "the retry budget gets it back")
	assert.Equal(t, map[Recovery]int{Normal: modelSeeds}, count("deploy"), "with no retries the queue drains")
	assert.Equal(t, map[Recovery]int{Normal: modelSeeds}, count("slow-dependency"), "the slow dependency's queue drains")
}

// TestValidateIncidents: each incident field's bad values name the field.
func TestValidateIncidents(t *testing.T) {
	tests := []struct {
		reason string
		change func(*Config)
		fields []string
	}{
		{"more workers lost than there are", func(c *Config) { c.LossWorkers = 9 }, []string{"loss_workers"}},
		{"negative workers lost", func(c *Config) { c.LossWorkers = -1 }, []string{"loss_workers"}},
		{"a loss's start without a loss", func(c *Config) { c.LossStartS = 30 }, []string{"loss_start_s"}},
		{"a loss's length without a loss", func(c *Config) { c.LossS = 30 }, []string{"loss_s"}},
		{"a loss that starts after the run", func(c *Config) { c.LossWorkers, c.LossStartS = 1, 300 }, []string{"loss_start_s"}},
		{"a loss that ends too late for a window after it", func(c *Config) { c.LossWorkers, c.LossStartS, c.LossS = 1, 250, 45 }, []string{"loss_s"}},
		{"a negative loss length", func(c *Config) { c.LossWorkers, c.LossS = 1, -1 }, []string{"loss_s"}},
		{"a loss start that is not a number", func(c *Config) { c.LossWorkers, c.LossStartS = 1, math.NaN() }, []string{"loss_start_s"}},
		{"a slowdown that speeds up", func(c *Config) { c.SlowFactor = 0.5 }, []string{"slow_factor"}},
		{"a slowdown over a hundred times", func(c *Config) { c.SlowFactor = 101 }, []string{"slow_factor"}},
		{"a slowdown that is not a number", func(c *Config) { c.SlowFactor = math.NaN() }, []string{"slow_factor"}},
		{"a slowdown's start without a slowdown", func(c *Config) { c.SlowStartS = 10 }, []string{"slow_start_s"}},
		{"a slowdown that ends after the run", func(c *Config) { c.SlowFactor, c.SlowStartS, c.SlowS = 2, 100, 500 }, []string{"slow_s"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			c := DefaultConfig()
			tt.change(&c)
			var got []string
			for _, fe := range FieldErrors(c.Validate()) {
				got = append(got, fe.Field)
				assert.Regexp(t, `use |set |end it|start it`, fe.Msg, "the message says what to do instead")
			}
			assert.Equal(t, tt.fields, got, tt.reason)
		})
	}
}

// TestIncidentKeepsTheSalesPeople: with a spike, an incident changes
// neither who the sale's people are nor where they end, to the
// nanosecond, even for a sale in waves, whose end newEngine and
// startShape add up from the waves' rounded parts (PeopleEndS rounded as
// one number ends 40 ns later here): a slowdown of factor 1, which
// stretches nothing, gives the engine the same window as none. Back to
// normal then counts from the later of the sale's end and the end of each
// incident that ends (CalmS).
func TestIncidentKeepsTheSalesPeople(t *testing.T) {
	c := DefaultConfig()
	c.SaleStartS, c.SaleS, c.SaleWaves, c.SaleEveryS, c.DurationS = 6.718212205620061, 16.96393136505093, 784, 16.96393136505093, 13400
	plain := newEngine(c, nil)
	slow := c
	slow.SlowFactor, slow.SlowStartS = 1, 1
	e := newEngine(slow, nil)
	assert.Equal(t, [3]int64{plain.peopleStart, plain.peopleEnd, plain.calm}, [3]int64{e.peopleStart, e.peopleEnd, e.calm},
		"the sale's people and its calm, with a slowdown that lasts the rest of the run")
	assert.NotEqual(t, int64(math.Round(c.PeopleEndS()*1e9)), e.peopleEnd, "the case is one where rounding PeopleEndS as one number misses the waves' end")

	later := c
	later.DurationS = 300
	later.SaleStartS, later.SaleWaves, later.SaleEveryS, later.SaleS = 60, 2, 90, 30 // the sale: 60 s to 90 s and 150 s to 180 s
	later.LossWorkers, later.LossStartS, later.LossS = 3, 100, 100
	e = newEngine(later, nil)
	assert.Equal(t, [3]int64{60e9, 180e9, 200e9}, [3]int64{e.peopleStart, e.peopleEnd, e.calm}, "a loss that ends after the sale: calm at its end")
}
