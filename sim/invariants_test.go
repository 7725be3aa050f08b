package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkInvariants asserts what must hold of every Result, whatever the
// Config: people are counted once, worker time adds up, shares are shares,
// and the summaries agree with the windows they summarise.
func checkInvariants(t testing.TB, c Config, r Result) {
	t.Helper()
	c = c.Resolved() // its tables' fields filled in (rules 2b, 3b), as the engine runs it
	assert.Equal(t, c, r.Config, "the Result carries the Config that ran")

	// Every person ends one way (rule 14).
	s := r.Sale
	assert.Equal(t, s.People, s.Answered+s.Refused+s.TimedOut+s.Unfinished,
		"sale: people = answered + refused + timed out + unfinished (%+v)", s)
	// Those who gave up before the timeout are some of the timed out (rule 4a).
	assert.LessOrEqual(t, s.GaveUp, s.TimedOut, "sale: the people who gave up timed out")
	if c.Patience == NoPatience {
		assert.Zero(t, s.GaveUp, "with no patience nobody gives up before the timeout")
	}
	if s.People > 0 {
		assert.Equal(t, float64(s.GaveUp)/float64(s.People), s.GaveUpShare)
	} else {
		assert.Zero(t, s.GaveUpShare)
	}
	nw := int(math.Ceil(c.DurationS / 10))
	require.Len(t, r.Windows, nw, "one 10 s window for every started 10 s of the run")
	var people, attempts int
	var inSale Window
	for i, w := range r.Windows {
		assert.Equal(t, float64(10*i), w.StartS, "window %d starts at %d s", i, 10*i)
		assert.Equal(t, w.People, w.Answered+w.Refused+w.TimedOut+w.Unfinished,
			"window at %g s: people = answered + refused + timed out + unfinished (%+v)", w.StartS, w)
		assert.LessOrEqual(t, w.GaveUp, w.TimedOut, "window at %g s: the people who gave up timed out", w.StartS)
		if c.Client != Throttle {
			assert.GreaterOrEqual(t, w.Attempts, w.People, "window at %g s: every person sends an attempt", w.StartS)
		}
		assert.LessOrEqual(t, w.Attempts, w.People*(1+c.Retries), "window at %g s: at most 1 + retries attempts a person", w.StartS)
		if settled := w.People - w.Unfinished; settled > 0 {
			assert.Equal(t, float64(w.Answered)/float64(settled), w.AnsweredShare, "window at %g s: answered of the people settled", w.StartS)
		} else {
			assert.Equal(t, 1.0, w.AnsweredShare, "window at %g s: a window with nobody settled answers everyone", w.StartS)
		}
		people += w.People
		attempts += w.Attempts
		if c.MeasuredAt(w.StartS) {
			inSale.People += w.People
			inSale.Answered += w.Answered
			inSale.Refused += w.Refused
			inSale.TimedOut += w.TimedOut
			inSale.Unfinished += w.Unfinished
			inSale.GaveUp += w.GaveUp
		}
	}
	assert.Equal(t, r.People, people, "the windows' people add up to everyone")
	assert.Equal(t, r.Attempts, attempts, "the windows' attempts add up to every attempt")
	if math.Mod(c.PeopleStartS(), 10) == 0 && math.Mod(c.PeopleEndS(), 10) == 0 && math.Mod(c.SaleS, 10) == 0 && math.Mod(c.SaleEveryS, 10) == 0 {
		assert.Equal(t, Window{People: s.People, Answered: s.Answered, Refused: s.Refused, TimedOut: s.TimedOut, Unfinished: s.Unfinished, GaveUp: s.GaveUp}, inSale,
			"a sale on window boundaries is the sum of its windows")
	}
	// An attempt reaches the service unless the throttle client refused it
	// itself (Client Throttle).
	sent := r.Attempts + r.Client.Throttled
	assert.GreaterOrEqual(t, sent, r.People, "every person sends an attempt")
	if c.Retries == 0 {
		assert.Equal(t, r.People, sent, "without retries every person sends one attempt")
		assert.Zero(t, r.Client.Retries, "without retries nobody retries")
	}
	assert.LessOrEqual(t, sent, r.People+r.Client.Retries, "every attempt after a person's first is a retry (some still pending at the end)")
	assert.LessOrEqual(t, r.Client.Retries, r.People*c.Retries, "at most Retries retries a person")
	if c.Client != Throttle {
		assert.Zero(t, r.Client.Throttled, "only the throttle client refuses requests itself")
	}
	if c.Client != Budget {
		assert.Zero(t, r.Client.TokensSpent+r.Client.TokensRefilled, "only the budget client has tokens")
	} else {
		assert.LessOrEqual(t, r.Client.TokensSpent, int64(c.BudgetTokens)+r.Client.TokensRefilled, "a budget spends no more than it has")
	}
	if c.Client == Fixed || c.Client == Backoff || c.Client == RetryAfter {
		assert.Zero(t, r.Client.Declined, "%v always retries", c.Client)
	}
	assert.LessOrEqual(t, r.Wasted, r.Attempts, "only an attempt can be wasted")

	// Shares are fractions of the sale's people (rule 15).
	for name, x := range map[string]float64{
		"answered": s.AnsweredShare, "refused": s.RefusedShare, "timed out": s.TimedOutShare, "orders answered": s.OrdersAnsweredShare,
	} {
		assert.True(t, x >= 0 && x <= 1, "%s share %v is not in [0, 1]", name, x)
	}
	if s.People > 0 {
		p := float64(s.People)
		assert.Equal(t, float64(s.Answered)/p, s.AnsweredShare)
		assert.Equal(t, float64(s.Refused)/p, s.RefusedShare)
		assert.Equal(t, float64(s.TimedOut)/p, s.TimedOutShare)
		assert.InDelta(t, 1, s.AnsweredShare+s.RefusedShare+s.TimedOutShare+float64(s.Unfinished)/p, 1e-12)
		if c.Client != Throttle {
			assert.GreaterOrEqual(t, r.AttemptsPerPerson, 1.0, "every sale person sends an attempt")
		}
		assert.LessOrEqual(t, r.AttemptsPerPerson, float64(1+c.Retries), "at most 1 + retries each")
	} else {
		assert.Zero(t, s.AnsweredShare+s.RefusedShare+s.TimedOutShare+r.AttemptsPerPerson, "no sale people, no shares")
	}
	assert.LessOrEqual(t, s.Orders, s.People)
	assert.LessOrEqual(t, s.OrdersAnswered, s.Orders)
	assert.LessOrEqual(t, s.OrdersAnswered, s.Answered)
	if s.Orders > 0 {
		assert.Equal(t, float64(s.OrdersAnswered)/float64(s.Orders), s.OrdersAnsweredShare)
	}

	// Waits are over the answered (rule 16).
	if s.Answered == 0 {
		assert.Nil(t, s.MedianWaitMS, "nobody answered, no median")
		assert.Nil(t, s.P99WaitMS, "nobody answered, no p99")
	} else if assert.NotNil(t, s.MedianWaitMS) && assert.NotNil(t, s.P99WaitMS) {
		assert.GreaterOrEqual(t, *s.MedianWaitMS, 0.0)
		assert.LessOrEqual(t, *s.MedianWaitMS, *s.P99WaitMS, "median <= p99")
		assert.LessOrEqual(t, *s.P99WaitMS, 1.001*(c.DurationS-c.PeopleStartS())*1000+1, "no answer comes after the run")
		// Each attempt lasts at most the timeout, and each retry waits at
		// most its delay: Backoff's cap, or the delay and its jitter.
		// (RetryAfter's hint depends on the queue, so it has no bound here.)
		delay := c.RetryDelayMS + c.RetryJitterMS
		if c.Client == Backoff {
			delay = c.BackoffCapMS
		}
		if c.Client != RetryAfter {
			assert.LessOrEqual(t, *s.P99WaitMS, 1.001*(c.TimeoutMS*float64(1+c.Retries)+delay*float64(c.Retries))+1,
				"an answer comes within the person's tries")
		}
	}

	// The queue (rule 19).
	switch c.Policy {
	case Bounded, Priority:
		assert.Equal(t, c.QueueBound(), r.QueueBound, "the bound in force")
		assert.LessOrEqual(t, r.LongestQueue, r.QueueBound, "a bounded queue never holds more than its bound")
	default:
		assert.Zero(t, r.QueueBound, "%v has no bound", c.Policy)
	}
	assert.LessOrEqual(t, r.LongestQueue, r.Attempts)
	assert.GreaterOrEqual(t, r.LongestQueueWaitMS, 0.0)
	assert.LessOrEqual(t, r.LongestQueueWaitMS, c.DurationS*1000, "no wait outlasts the run")
	if (c.Policy == FIFO || c.Policy == Skip) && c.Client != Throttle && r.CallsFailed == 0 {
		// (in a chain a call that failed is heard as a refusal: rule 40)
		assert.Zero(t, s.Refused, "%v never refuses", c.Policy)
		for _, w := range r.Windows {
			assert.Zero(t, w.Refused, "%v never refuses (window at %g s)", c.Policy, w.StartS)
		}
	}

	// Worker time adds up to workers x duration (rule 19).
	wt := r.WorkerTimeS
	for name, x := range map[string]float64{"useful": wt.Useful, "wasted": wt.Wasted, "refusing": wt.Refusing, "idle": wt.Idle, "gone": wt.Gone, "calling": wt.Calling} {
		assert.GreaterOrEqual(t, x, 0.0, "worker time %s", name)
	}
	total := float64(c.Workers) * c.DurationS
	assert.InDelta(t, total, wt.Useful+wt.Wasted+wt.Refusing+wt.Idle+wt.Gone+wt.Calling, 1e-6+1e-15*total,
		"useful + wasted + refusing + idle + gone + calling = workers x duration")
	if c.Hops == "" {
		assert.Zero(t, wt.Calling, "a service alone calls nobody")
		assert.Empty(t, r.Hops)
	} else {
		assert.Len(t, r.Hops, len(c.HopList()), "a Result for every hop")
	}
	// Lost capacity (rule 22): the workers gone for the loss, no more
	// (those refusing when it starts go when they finish, so less).
	if c.LossWorkers == 0 {
		assert.Zero(t, wt.Gone, "no loss, no worker gone")
		assert.Zero(t, r.LostInService, "no loss, no request lost with its worker")
	} else {
		lossS := min(c.LossEndS(), c.DurationS) - c.LossStartS
		assert.LessOrEqual(t, wt.Gone, float64(c.LossWorkers)*lossS+1e-6, "at most the lost workers' time is gone")
		assert.LessOrEqual(t, r.LostInService, c.LossWorkers, "at most one request lost with each lost worker")
		if c.RefusalCostMS == 0 {
			assert.InDelta(t, float64(c.LossWorkers)*lossS, wt.Gone, 1e-6, "with nobody refusing, every lost worker goes at once")
		}
	}
	if c.RefusalCostMS == 0 {
		assert.Zero(t, wt.Refusing, "refusing is free")
	}
	// The sale's share of refusing is part of the whole run's refusing.
	// The share is of the engine's window, its ends rounded to whole
	// nanoseconds and cut at the run's end; the seconds it stands for,
	// taken back from the Config's unrounded ends, can be up to a
	// nanosecond longer (26.520000001325993 s against 26.520000001 s),
	// so the bound is relative: a part in a billion of the whole run's
	// refusing, and of a 1 ns window over the window itself.
	assert.True(t, s.RefusingShare >= 0 && s.RefusingShare <= 1, "the sale's refusing share %g is a share", s.RefusingShare)
	if window := c.PeopleEndS() - c.PeopleStartS(); window > 0 {
		slack := max(1e-9, 1e-9/window) // relative
		assert.LessOrEqual(t, s.RefusingShare*float64(c.Workers)*window, wt.Refusing*(1+slack),
			"refusing during the sale is no more than refusing in the whole run")
	}

	// Back to normal (rule 17), computed again from the windows, from the
	// calm as the engine has it, in whole nanoseconds (rule 1): a sale
	// that ends at 1,851.43 s + 8.57 s ends at 1,860 s, not 2e-13 s after.
	var want *float64
	calm := float64(int64(math.Round(c.CalmS()*1e9))) / 1e9
	for i, w := range r.Windows {
		if w.StartS < calm {
			continue
		}
		ok, evidence := true, false
		for _, v := range r.Windows[i:] {
			ok = ok && v.AnsweredShare >= 0.9
			evidence = evidence || v.People > v.Unfinished
		}
		if ok && evidence {
			x := w.StartS - calm
			want = &x
			break
		}
	}
	nobodyAfter := true
	for _, w := range r.Windows {
		if w.StartS >= calm && w.People > 0 {
			nobodyAfter = false
		}
	}
	if want == nil {
		assert.Nil(t, r.BackToNormalS, "not back: no window from which all answer 90%")
		switch {
		case nobodyAfter:
			assert.Equal(t, Unmeasured, r.Recovery, "not back: nobody arrived after the sale to measure")
		case c.Client == Throttle && r.Recovery == Throttled:
			// The clients refuse their own requests: nothing to drain.
		case !c.HoldsTimeout():
			assert.Equal(t, Overloaded, r.Recovery, "not back, and no queue of abandoned work to drain")
		case c.Drains(c.Retries) && !c.CollapsedAt(r.QueueAtEnd) && stillDrains(c.ChainLoads()): // every hop behind it too (rule 40)
			assert.Equal(t, Backlog, r.Recovery, "not back, but the fluid view drains")
		default:
			assert.Equal(t, Stuck, r.Recovery, "not back, and the fluid view never drains")
		}
	} else if assert.NotNil(t, r.BackToNormalS, "back at %g s", *want) {
		assert.InDelta(t, *want, *r.BackToNormalS, 1e-6)
		assert.Equal(t, Normal, r.Recovery)
	}
}

// randomConfig returns a valid Config drawn from rng, small enough to run in
// milliseconds: at most about 100,000 expected attempts.
func randomConfig(rng *rand.Rand) Config {
	c := DefaultConfig()
	c.Policy = Policies[rng.IntN(len(Policies))]
	c.Workers = 1 + rng.IntN(40)
	c.ServiceMS = 1 + 499*rng.Float64()
	c.NormalRPS = 200 * rng.Float64()
	c.SaleRPS = 400 * rng.Float64()
	c.DurationS = 20 + float64(rng.IntN(381))
	if rng.IntN(4) == 0 {
		c.DurationS += rng.Float64() // off the window grid
	}
	c.SaleStartS = math.Floor((c.DurationS - 20) * rng.Float64())
	c.SaleS = math.Floor((c.DurationS - 10 - c.SaleStartS) * rng.Float64())
	if rng.IntN(4) == 0 {
		c.SaleStartS += 0.5 // off the window grid
		c.SaleS = math.Max(0, c.SaleS-1)
	}
	c.TimeoutMS = 1 + 4999*rng.Float64()
	c.Retries = rng.IntN(5)
	c.RetryDelayMS = 2000 * rng.Float64()
	if rng.IntN(2) == 0 {
		c.RetryJitterMS = 1000 * rng.Float64()
	}
	c.Queue = rng.IntN(200)
	if rng.IntN(2) == 0 {
		c.RefusalCostMS = 100 * rng.Float64()
	}
	c.OrderShare = rng.Float64()
	c.CoDelTargetMS = 20 * rng.Float64()
	c.CoDelIntervalMS = 1 + 299*rng.Float64()
	c.Client = Clients[rng.IntN(len(Clients))]
	c.Seed = rng.Uint64() % (MaxSeed + 1)
	randomIncidents(rng, &c)
	// Drawn last, from a stream of their own, so that the fields above
	// are drawn as before they existed.
	shapes := rand.New(rand.NewPCG(c.Seed, 11))
	c.Service = ServiceShapes[shapes.IntN(3)] // those before the histogram, drawn as before it

	if c.Service == LognormalService {
		c.ServiceP99MS = c.ServiceMS * (1 + (MaxLognormalTail-1)*shapes.Float64())
	}
	if shapes.IntN(2) == 0 {
		c.Patience, c.PatienceMS = ExponentialPatience, c.TimeoutMS*(0.01+2*shapes.Float64())
	}
	randomShape(rng, &c)
	if rng.IntN(5) == 0 {
		c.HeapRequests = 1 + rng.IntN(3000)
	}
	randomTables(&c)
	if n := c.ExpectedAttempts(); n > 100_000 {
		f := 100_000 / n
		if c.Arrivals != "" {
			c.ArrivalsScale = max(0.01, f*c.scale())
		} else {
			c.NormalRPS *= f
			c.SaleRPS *= f
		}
	}
	return c
}

// randomTables gives c, from a stream of its own, a fifth of the time a
// rate table in place of its rates (rule 2b), and a fifth of the time a
// service histogram (rule 3b).
func randomTables(c *Config) {
	rng := rand.New(rand.NewPCG(c.Seed, 12))
	if rng.IntN(5) == 0 {
		c.Service, c.ServiceP99MS = HistogramService, 0
		var bs []Bucket
		le, n := c.ServiceMS*(0.05+0.5*rng.Float64()), 0.0
		for k := 1 + rng.IntN(12); k > 0; k-- {
			n += float64(rng.IntN(50))
			bs = append(bs, Bucket{LeMS: math.Round(le*1000) / 1000, Count: n})
			le *= 1.2 + rng.Float64()
		}
		bs[len(bs)-1].Count++ // not every count 0
		if rng.IntN(2) == 0 {
			bs = append(bs, Bucket{LeMS: math.Inf(1), Count: n + 1 + float64(rng.IntN(5))})
		}
		c.ServiceHistogram = FormatBuckets(bs)
	}
	if rng.IntN(5) == 0 && c.SaleRampS == 0 && c.SaleWaves == 0 {
		var rows []RateRow
		t := 0.0
		for k := 1 + rng.IntN(30); k > 0; k-- {
			rows = append(rows, RateRow{TimeS: t, RPS: math.Round(300*rng.Float64()*10) / 10})
			if rng.IntN(4) == 0 && len(rows) > 1 { // a repeated rate, merged
				rows[len(rows)-1].RPS = rows[len(rows)-2].RPS
			}
			t += math.Round(1+c.DurationS/10*rng.Float64()*100) / 100
		}
		c.Arrivals = FormatRates(rows)
		c.ArrivalsShiftS = math.Round(c.DurationS*(rng.Float64()-0.5)*10) / 10
		c.ArrivalsScale = 0.5 + rng.Float64()
	}
}

// randomIncidents gives c, half the time, a capacity loss, a slowdown or
// both, within its run; sometimes with no spike, so that they trigger it.
func randomIncidents(rng *rand.Rand, c *Config) {
	span := func() (start, length float64) {
		start = math.Floor((c.DurationS - 20) * rng.Float64())
		if rng.IntN(4) > 0 { // else for the rest of the run
			length = math.Floor((c.DurationS - 10 - start) * rng.Float64())
		}
		return start, length
	}
	switch rng.IntN(6) {
	case 0, 1, 2:
		return
	case 3:
		c.LossWorkers = 1 + rng.IntN(c.Workers)
		c.LossStartS, c.LossS = span()
	case 4:
		c.SlowFactor = 1 + 9*rng.Float64()
		c.SlowStartS, c.SlowS = span()
	case 5:
		c.LossWorkers = 1 + rng.IntN(c.Workers)
		c.LossStartS, c.LossS = span()
		c.SlowFactor = 1 + 4*rng.Float64()
		c.SlowStartS, c.SlowS = span()
	}
	if rng.IntN(3) == 0 {
		c.SaleRPS = c.NormalRPS
	}
}

// randomShape gives c, a third of the time, a sale that ramps, comes back,
// or both, if it fits in the run.
func randomShape(rng *rand.Rand, c *Config) {
	if rng.IntN(3) > 0 || c.SaleRPS == c.NormalRPS || c.SaleS == 0 {
		return
	}
	s := *c
	if rng.IntN(2) == 0 {
		s.SaleRampS = math.Floor(s.SaleS / 2 * rng.Float64())
	}
	if rng.IntN(2) == 0 {
		s.SaleWaves = 2 + rng.IntN(3)
		s.SaleEveryS = s.SaleS + math.Floor(60*rng.Float64())
	}
	if s.SaleEndS()+10 <= s.DurationS && s.Validate() == nil {
		*c = s
	}
}

// invariantConfigs are the Configs the invariants are checked on: every
// sample, the lab, edge cases and random Configs.
func invariantConfigs(t *testing.T) []struct {
	name string
	c    Config
} {
	var out []struct {
		name string
		c    Config
	}
	add := func(name string, c Config) {
		out = append(out, struct {
			name string
			c    Config
		}{name, c})
	}
	for _, s := range Samples() {
		add("sample "+s.Key, s.Config)
	}
	for i, c := range Lab() {
		add(fmt.Sprintf("lab %d %v retries=%d sale=%g timeout=%g", i, c.Policy, c.Retries, c.SaleRPS, c.TimeoutMS), c)
	}
	edges := []struct {
		reason string
		change func(*Config)
	}{
		{"nobody arrives", func(c *Config) { c.NormalRPS, c.SaleRPS = 0, 0 }},
		{"a sale of length 0: nobody is a sale person", func(c *Config) { c.SaleS = 0 }},
		{"a sale from the start", func(c *Config) { c.SaleStartS = 0 }},
		{"the sale ends 10 s before the run", func(c *Config) { c.SaleStartS, c.SaleS = 200, 90 }},
		{"a run that is not a whole number of windows", func(c *Config) { c.DurationS = 295.5 }},
		{"the shortest run", func(c *Config) { c.DurationS, c.SaleStartS, c.SaleS = 10, 0, 0 }},
		{"one worker", func(c *Config) { c.Workers = 1 }},
		{"the most workers", func(c *Config) { c.Workers = maxWorkers }},
		{"a timeout of a nanosecond", func(c *Config) { c.TimeoutMS = 1e-6 }},
		{"a timeout of a nanosecond, the shortest there is", func(c *Config) { c.TimeoutMS = 1e-6 }},
		{"a timeout of an hour", func(c *Config) { c.TimeoutMS = maxMS }},
		{"the shortest service", func(c *Config) { c.ServiceMS = minService }},
		{"a service of an hour", func(c *Config) { c.ServiceMS = maxMS }},
		{"retries with no delay into a full bounded queue", func(c *Config) { c.Policy, c.Retries, c.RetryDelayMS, c.Queue = Bounded, 20, 0, 1 }},
		{"the most retries", func(c *Config) { c.Policy, c.Retries, c.NormalRPS, c.SaleRPS = CoDel, maxRetries, 2, 4 }},
		{"retries with jitter", func(c *Config) { c.Retries, c.RetryJitterMS = 3, 500 }},
		{"a refusal that costs an hour", func(c *Config) { c.Policy, c.RefusalCostMS = Bounded, maxMS }},
		{"priority with refusal cost and retries", func(c *Config) { c.Policy, c.RefusalCostMS, c.Retries = Priority, 20, 3 }},
		{"priority, everyone an order", func(c *Config) { c.Policy, c.OrderShare = Priority, 1 }},
		{"priority, nobody an order", func(c *Config) { c.Policy, c.OrderShare = Priority, 0 }},
		{"lifo with a target of 0", func(c *Config) { c.Policy, c.CoDelTargetMS = LIFO, 0 }},
		{"codel with the shortest interval, a nanosecond", func(c *Config) { c.Policy, c.CoDelIntervalMS = CoDel, 1e-6 }},
		{"skip with retries", func(c *Config) { c.Policy, c.Retries = Skip, 3 }},
		{"a bound of one", func(c *Config) { c.Policy, c.Queue = Bounded, 1 }},
		{"the largest seed", func(c *Config) { c.Seed = MaxSeed }},
		{"seed 0", func(c *Config) { c.Seed = 0 }},
		{"every worker lost for 30 s, no sale", func(c *Config) { c.SaleRPS, c.LossWorkers, c.LossStartS, c.LossS = 70, 8, 60, 30 }},
		{"a loss for the rest of the run from the start", func(c *Config) { c.LossWorkers = 3 }},
		{"a loss while workers are refusing at a cost", func(c *Config) {
			c.Policy, c.RefusalCostMS, c.LossWorkers, c.LossStartS, c.LossS = Bounded, 80, 7, 90, 20
		}},
		{"a loss and retries", func(c *Config) { c.Retries, c.LossWorkers, c.LossStartS, c.LossS = 3, 3, 70, 30 }},
		{"a slowdown in the sale", func(c *Config) { c.SlowFactor, c.SlowStartS, c.SlowS = 3, 70, 20 }},
		{"a slowdown for the rest of the run, no sale", func(c *Config) { c.SaleRPS, c.SlowFactor, c.SlowStartS = 70, 1.1, 30 }},
		{"a loss after the sale", func(c *Config) { c.LossWorkers, c.LossStartS, c.LossS = 2, 150, 30 }},
		{"the largest slowdown", func(c *Config) { c.SlowFactor, c.SlowStartS, c.SlowS = maxSlowFactor, 60, 10 }},
		{"a constant service", func(c *Config) { c.Service = ConstantService }},
		{"the heaviest lognormal tail, bounded, retries", func(c *Config) {
			c.Policy, c.Retries, c.Service, c.ServiceP99MS = Bounded, 3, LognormalService, 80*MaxLognormalTail
		}},
		{"patience, fifo, 3 retries", func(c *Config) { c.Retries, c.Patience, c.PatienceMS = 3, ExponentialPatience, 1000 }},
		{"patience, codel, refusal cost, retries", func(c *Config) {
			c.Policy, c.RefusalCostMS, c.Retries, c.Patience, c.PatienceMS = CoDel, 20, 2, ExponentialPatience, 300
		}},
		{"patience, priority, budget client", func(c *Config) {
			c.Policy, c.Client, c.Retries, c.Patience, c.PatienceMS = Priority, Budget, 3, ExponentialPatience, 1500
		}},
		{"patience that rounds to nothing", func(c *Config) { c.Patience, c.PatienceMS = ExponentialPatience, 1e-9 }},
		{"patience longer than the run, timeout an hour", func(c *Config) {
			c.TimeoutMS, c.Patience, c.PatienceMS = maxMS, ExponentialPatience, maxMS
		}},
		{"a sale that ramps over half its length: a triangle", func(c *Config) { c.SaleRampS = 30 }},
		{"a heap of one request", func(c *Config) { c.HeapRequests = 1 }},
		{"a heap the sale fills, with retries and a loss", func(c *Config) { c.HeapRequests, c.Retries, c.LossWorkers, c.LossStartS, c.LossS = 500, 2, 3, 100, 20 }},
		{"a heap behind the queue timeout", func(c *Config) { c.Policy, c.HeapRequests = CoDel, 200 }},
		{"waves back to back", func(c *Config) { c.SaleWaves, c.SaleEveryS, c.SaleS = 3, 20, 20 }},
		{"waves with ramps off the window grid", func(c *Config) { c.SaleWaves, c.SaleEveryS, c.SaleS, c.SaleRampS = 4, 37.5, 15.25, 5.5 }},
		{"a ramp down to a dip", func(c *Config) { c.SaleRPS, c.SaleRampS = 10, 20 }},
		{"waves and a loss after them", func(c *Config) {
			c.SaleWaves, c.SaleEveryS, c.SaleS, c.LossWorkers, c.LossStartS, c.LossS = 2, 60, 30, 4, 200, 30
		}},
	}
	for _, e := range edges {
		c := DefaultConfig()
		e.change(&c)
		add("edge: "+e.reason, c)
	}
	for _, cl := range Clients {
		c := DefaultConfig()
		c.Policy, c.Client, c.Retries = Bounded, cl, 3
		add("client "+cl.String()+", bounded, 3 retries", c)
		c.Policy = FIFO
		add("client "+cl.String()+", fifo, 3 retries", c)
	}
	rng := rand.New(rand.NewPCG(20240611, 1))
	for i := range 100 {
		add(fmt.Sprintf("random %d", i), randomConfig(rng))
	}
	return out
}

func TestInvariants(t *testing.T) {
	cs := invariantConfigs(t)
	rs := runAll(t, func() []Config {
		out := make([]Config, len(cs))
		for i, c := range cs {
			out[i] = c.c
		}
		return out
	}())
	for i, tt := range cs {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.c.Validate())
			checkInvariants(t, tt.c, rs[i])
		})
	}
}

// TestRunIsDeterministic runs Configs twice and requires the same Result.
func TestRunIsDeterministic(t *testing.T) {
	var cs []Config
	for _, s := range Samples() {
		cs = append(cs, s.Config)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 30 {
		cs = append(cs, randomConfig(rng))
	}
	for i, c := range cs {
		a, err := Run(c)
		require.NoError(t, err)
		b, err := Run(c)
		require.NoError(t, err)
		assert.Equal(t, a, b, "config %d (%+v): the same Config gives the same Result", i, c)
	}
}

// TestSeedsDiffer guards against a seed that is ignored.
func TestSeedsDiffer(t *testing.T) {
	c := DefaultConfig()
	a, err := Run(c)
	require.NoError(t, err)
	c.Seed = 2
	b, err := Run(c)
	require.NoError(t, err)
	assert.NotEqual(t, a.People, b.People, "seeds 1 and 2 give different arrivals")
}

// TestLongestQueueCountsOnlyWaiting: LongestQueue is documented as "the
// most requests that waited at once, not counting those in service". With
// 100 workers for 12 erlangs of work nobody ever waits (the chance that all
// 100 are busy is below 1e-40), so it must be 0, as LongestQueueWaitMS is.
func TestLongestQueueCountsOnlyWaiting(t *testing.T) {
	for _, p := range Policies {
		c := shop(p, withWorkers(100))
		r, err := Run(c)
		require.NoError(t, err)
		assert.Zero(t, r.LongestQueueWaitMS, "%v: nobody waited", p)
		assert.Zero(t, r.LongestQueue,
			"%v: an arrival that finds a free worker does not wait, but the engine counts the queue after pushing it and before dispatching it", p)
	}
}

// TestPriorityEvictsAbandonedPreview: the priority policy refuses the newest
// waiting preview to make room for an order. If that preview's client has
// already given up, the person has already been settled (timed out, or sent
// a retry) and must not be settled again. With a queue of 1,024 (10 s of
// work against a 2 s timeout) and nine people in ten ordering, the newest
// preview waiting is often long abandoned.
func TestPriorityEvictsAbandonedPreview(t *testing.T) {
	tests := []struct {
		reason  string
		retries int
		cost    float64
	}{
		{"no retries: the person is counted timed out, then refused as well", 0, 0},
		{"3 retries: the person retries at the timeout and again at the refusal", 3, 0},
		{"a refusal with a cost checks whether the client is still there", 0, 20},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			c := shop(Priority, withQueue(1024), withOrderShare(0.9), withRetries(tt.retries), withRefusal(tt.cost))
			r, err := Run(c)
			require.NoError(t, err)
			checkInvariants(t, c, r)
		})
	}
}

// TestPriorityEvictionKeepsArrivalOrder is white-box: it drives the
// engine's arrive directly. When an order makes room by refusing a preview
// whose client then retries, the retry is allocated in the attempt pool,
// and the allocation may move the pool; the order's queue position (its
// seq, which keeps the queue's two lines in arrival order) must still be
// written to the order, not through a pointer taken before the move.
func TestPriorityEvictionKeepsArrivalOrder(t *testing.T) {
	e := newEngine(shop(Priority, withQueue(1), withRetries(1), withWorkers(1)), nil)
	person := func(order bool) id {
		i := e.alloc()
		a := e.at(i)
		a.first, a.try, a.order = e.now, 1, order
		return i
	}
	arrive := func(i id) { e.arrive(i, e.at(i)) } // the pointer is taken before any allocation
	arrive(person(false))                         // a worker takes it at once
	arrive(person(false))                         // it waits; the queue of 1 is full
	order := person(true)
	e.pool = e.pool[:len(e.pool):len(e.pool)] // the next allocation must move the pool
	arrive(order)                             // refuses the waiting preview, whose client retries
	require.Equal(t, 1, e.queue.len(), "the order waits in the preview's place")
	assert.Equal(t, e.queueSeq, e.at(order).seq,
		"the order's seq was written through a pointer into the pool as it was before the retry's allocation moved it")
}

// TestValidate holds Validate to naming the field at fault for each kind of
// bad value, and Run to refusing what Validate refuses.
func TestValidate(t *testing.T) {
	tests := []struct {
		reason string
		change func(*Config)
		fields []string // the FieldErrors' fields, in order
	}{
		{"NaN", func(c *Config) { c.ServiceMS = math.NaN() }, []string{"service_ms"}},
		{"+Inf", func(c *Config) { c.NormalRPS = math.Inf(1) }, []string{"normal_rps"}},
		{"-Inf", func(c *Config) { c.SaleRPS = math.Inf(-1) }, []string{"sale_rps"}},
		{"NaN in a time", func(c *Config) { c.DurationS = math.NaN() }, []string{"duration_s"}},
		{"NaN in a share", func(c *Config) { c.OrderShare = math.NaN() }, []string{"order_share"}},
		{"NaN in a CoDel parameter", func(c *Config) { c.CoDelTargetMS = math.NaN() }, []string{"codel_target_ms"}},
		{"zero workers", func(c *Config) { c.Workers = 0 }, []string{"workers"}},
		{"negative workers", func(c *Config) { c.Workers = -3 }, []string{"workers"}},
		{"absurd workers", func(c *Config) { c.Workers = maxWorkers + 1 }, []string{"workers"}},
		{"zero service", func(c *Config) { c.ServiceMS = 0 }, []string{"service_ms"}},
		{"absurd service", func(c *Config) { c.ServiceMS = maxMS * 2 }, []string{"service_ms"}},
		{"negative rate", func(c *Config) { c.NormalRPS = -1 }, []string{"normal_rps"}},
		{"absurd rate", func(c *Config) { c.SaleRPS = maxRPS * 10 }, []string{"sale_rps"}},
		{"negative sale start", func(c *Config) { c.SaleStartS = -1 }, []string{"sale_start_s"}},
		{"negative sale length", func(c *Config) { c.SaleS = -1 }, []string{"sale_s"}},
		{"too short a run", func(c *Config) { c.DurationS, c.SaleStartS, c.SaleS = 9, 0, 0 }, []string{"duration_s"}},
		{"absurd duration", func(c *Config) { c.DurationS = maxDuration + 1 }, []string{"duration_s"}},
		{"the sale ends too late for a window after it", func(c *Config) { c.SaleStartS = 250 }, []string{"sale_s"}},
		{"the sale ends after the run", func(c *Config) { c.SaleS = 1000 }, []string{"sale_s"}},
		{"zero timeout", func(c *Config) { c.TimeoutMS = 0 }, []string{"timeout_ms"}},
		{"negative timeout", func(c *Config) { c.TimeoutMS = -2000 }, []string{"timeout_ms"}},
		{"absurd timeout", func(c *Config) { c.TimeoutMS = maxMS + 1 }, []string{"timeout_ms"}},
		{"negative retries", func(c *Config) { c.Retries = -1 }, []string{"retries"}},
		{"absurd retries", func(c *Config) { c.Retries = maxRetries + 1 }, []string{"retries"}},
		{"negative retry delay", func(c *Config) { c.RetryDelayMS = -1 }, []string{"retry_delay_ms"}},
		{"negative jitter", func(c *Config) { c.RetryJitterMS = -1 }, []string{"retry_jitter_ms"}},
		{"negative queue", func(c *Config) { c.Queue = -1 }, []string{"queue"}},
		{"absurd queue", func(c *Config) { c.Queue = maxQueue + 1 }, []string{"queue"}},
		{"negative refusal cost", func(c *Config) { c.RefusalCostMS = -1 }, []string{"refusal_cost_ms"}},
		{"order share over 1", func(c *Config) { c.OrderShare = 1.5 }, []string{"order_share"}},
		{"negative order share", func(c *Config) { c.OrderShare = -0.1 }, []string{"order_share"}},
		{"negative CoDel target", func(c *Config) { c.CoDelTargetMS = -5 }, []string{"codel_target_ms"}},
		{"zero CoDel interval", func(c *Config) { c.CoDelIntervalMS = 0 }, []string{"codel_interval_ms"}},
		{"seed over MaxSeed", func(c *Config) { c.Seed = MaxSeed + 1 }, []string{"seed"}},
		{"seed at the top of uint64", func(c *Config) { c.Seed = math.MaxUint64 }, []string{"seed"}},
		{"a policy past the last", func(c *Config) { c.Policy = Policy(len(Policies)) }, []string{"policy"}},
		{"a negative policy", func(c *Config) { c.Policy = -1 }, []string{"policy"}},
		{"over the attempts budget from normal traffic", func(c *Config) { c.NormalRPS = 100_000 }, []string{"normal_rps"}},
		{"over the attempts budget from the sale", func(c *Config) { c.SaleRPS = 400_000 }, []string{"sale_rps"}},
		{"over the attempts budget by retries", func(c *Config) { c.NormalRPS, c.Retries = 10_000, 9 }, []string{"normal_rps"}},
		{"several problems, each named, in field order", func(c *Config) { c.Workers, c.TimeoutMS, c.Seed = 0, math.NaN(), MaxSeed+1 },
			[]string{"workers", "timeout_ms", "seed"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			c := DefaultConfig()
			tt.change(&c)
			err := c.Validate()
			require.Error(t, err)
			var got []string
			for _, fe := range FieldErrors(err) {
				got = append(got, fe.Field)
				assert.NotEmpty(t, fe.Msg, "a message that says what to use instead")
				assert.True(t, strings.HasPrefix(fe.Error(), fe.Field+": "), "the error names its field: %q", fe.Error())
			}
			assert.Equal(t, tt.fields, got, "the fields at fault: %v", err)
			r, runErr := Run(c)
			assert.Equal(t, err.Error(), runErr.Error(), "Run refuses with Validate's errors")
			assert.Equal(t, Result{}, r, "and returns no Result")
		})
	}
}

// TestValidateZeroConfig: the zero Config is not a run (DefaultConfig is
// the starting point); Validate names at least every field of the post's
// model that has no zero.
func TestValidateZeroConfig(t *testing.T) {
	var got []string
	for _, fe := range FieldErrors(Config{}.Validate()) {
		got = append(got, fe.Field)
	}
	assert.Subset(t, got, []string{"workers", "service_ms", "duration_s", "timeout_ms", "codel_interval_ms"})
	assert.NotContains(t, got, "sale_s", "a sale from 0 s of length 0 is fine; the run's length is what is wrong")
}

// TestValidateBoundaries: the limits themselves are allowed.
func TestValidateBoundaries(t *testing.T) {
	tests := []struct {
		reason string
		change func(*Config)
	}{
		{"the defaults", func(*Config) {}},
		{"seed MaxSeed", func(c *Config) { c.Seed = MaxSeed }},
		{"the most workers", func(c *Config) { c.Workers = maxWorkers }},
		{"the sale ending exactly 10 s before the run", func(c *Config) { c.SaleStartS = 230 }},
		{"order share 0", func(c *Config) { c.OrderShare = 0 }},
		{"order share 1", func(c *Config) { c.OrderShare = 1 }},
		{"no traffic at all", func(c *Config) { c.NormalRPS, c.SaleRPS = 0, 0 }},
		{"exactly the attempts budget", func(c *Config) {
			c.NormalRPS, c.SaleRPS, c.SaleS = 0, MaxAttempts/80, 80
		}},
	}
	for _, tt := range tests {
		c := DefaultConfig()
		tt.change(&c)
		assert.NoError(t, c.Validate(), tt.reason)
	}
}

// TestFieldErrors: FieldErrors unwraps what Validate joins, and a lone or
// wrapped FieldError too.
func TestFieldErrors(t *testing.T) {
	fe := &FieldError{Field: "workers", Msg: "0 is out of range"}
	tests := []struct {
		reason string
		err    error
		want   []*FieldError
	}{
		{"nil has none", nil, nil},
		{"a lone FieldError", fe, []*FieldError{fe}},
		{"a wrapped FieldError", fmt.Errorf("config: %w", fe), []*FieldError{fe}},
		{"an error that is not one", fmt.Errorf("plain"), nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, FieldErrors(tt.err), tt.reason)
	}
	assert.Equal(t, "workers: 0 is out of range", fe.Error())
}

// TestPolicyText: every policy's key round-trips through String, Parse and
// text marshalling; unknown keys and values are errors.
func TestPolicyText(t *testing.T) {
	for _, p := range Policies {
		got, err := ParsePolicy(" " + strings.ToUpper(p.String()) + " ")
		require.NoError(t, err, "keys ignore case and spaces")
		assert.Equal(t, p, got)
		b, err := p.MarshalText()
		require.NoError(t, err)
		var q Policy
		require.NoError(t, q.UnmarshalText(b))
		assert.Equal(t, p, q)
		assert.NotEqual(t, p.String(), p.Title(), "a title is the post's name, not the key")
		assert.NotEmpty(t, p.Short(), "every policy has a short label")
		assert.Less(t, len(p.Short()), len(p.Title()), "a short label is shorter than the title")
	}
	assert.Len(t, policyKeys.shorts, len(policyKeys.names), "a short label for every policy")
	assert.Equal(t, "Policy(42)", Policy(42).Short(), "outside the set, the name")
	_, err := ParsePolicy("random")
	assert.ErrorContains(t, err, strings.Join(PolicyKeys(), ", "), "the error lists the policies")
	var q Policy
	assert.Error(t, q.UnmarshalText([]byte("nope")))
	_, err = Policy(42).MarshalText()
	assert.Error(t, err)
	assert.Equal(t, "Policy(42)", Policy(42).String())
	assert.Len(t, PostPolicies, 6, "the post's six")
}

// TestSamplesAndLab: sample keys are unique and found by SampleByKey, every
// sample and lab Config is valid, and the lab is the post's 162 runs.
func TestSamplesAndLab(t *testing.T) {
	seen := map[string]bool{}
	for i, s := range Samples() {
		assert.False(t, seen[s.Key], "duplicate key %q", s.Key)
		seen[s.Key] = true
		assert.NoError(t, s.Config.Validate(), s.Key)
		got, ok := SampleByKey(s.Key)
		assert.True(t, ok, s.Key)
		assert.Equal(t, s, got)
		if i == 0 {
			assert.Equal(t, DefaultConfig(), s.Config, "the default first")
		}
	}
	_, ok := SampleByKey("no-such-sample")
	assert.False(t, ok)
	lab := Lab()
	assert.Len(t, lab, 162)
	distinct := map[Config]bool{}
	for _, c := range lab {
		assert.NoError(t, c.Validate())
		distinct[c] = true
	}
	assert.Len(t, distinct, 162, "162 different runs")
}

// TestValidateBudgetMessage: the budget's message writes its counts as the
// reports do, with thousands separators.
func TestValidateBudgetMessage(t *testing.T) {
	c := DefaultConfig()
	c.SaleRPS = 400_000
	fes := FieldErrors(c.Validate())
	require.Len(t, fes, 1)
	assert.Equal(t, "this run would send about 24,016,800 attempts, over the budget of 10,000,000 a run: lower the traffic, the duration or the retries", fes[0].Msg)
}
