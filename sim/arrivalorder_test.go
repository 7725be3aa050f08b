package sim

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -event-loop runs every test of the package with the event loop alone, as
// before the arrival-order path existed:
//
//	go test ./sim -args -event-loop
var eventLoopFlag = flag.Bool("event-loop", false, "run every Config on the event loop, never the arrival-order path")

func TestMain(m *testing.M) {
	flag.Parse()
	eventLoopOnly = *eventLoopFlag
	os.Exit(m.Run())
}

// eventLoopResult is c's Result by the event loop alone.
func eventLoopResult(c Config) Result {
	e := newEngine(c, nil)
	e.loop()
	return e.result()
}

// arrivalOrderResult is c's Result by the arrival-order path alone; false
// when the path declines c.
func arrivalOrderResult(c Config) (Result, bool) {
	if !arrivalOrderTakes(c) {
		return Result{}, false
	}
	e := newEngine(c, nil)
	e.arrivalOrder()
	return e.result(), true
}

// sameByBothPaths runs c both ways and requires the same JSON, byte for
// byte. It returns whether the arrival-order path computed c (rather than
// declining it).
func sameByBothPaths(t *testing.T, what string, c Config) bool {
	t.Helper()
	require.NoError(t, c.Validate(), what)
	fast, ok := arrivalOrderResult(c)
	if !ok {
		return false
	}
	want, err := json.Marshal(eventLoopResult(c))
	require.NoError(t, err)
	got, err := json.Marshal(fast)
	require.NoError(t, err)
	if string(want) != string(got) {
		cj, _ := json.Marshal(c)
		assert.Equal(t, string(want), string(got), "%s: the arrival-order path differs from the event loop (-event loop +arrival order)\nconfig: %s", what, cj)
		return true
	}
	return true
}

// arrivalOrderConfig draws a Config the arrival-order path takes, across
// the fields' ranges and towards the edges where ties and orderings
// matter: zero delays, timeouts of a few nanoseconds, services shorter
// than the gaps between arrivals, one worker or thousands, bounds of one.
// Its traffic is scaled to at most budget expected attempts.
func arrivalOrderConfig(r *rand.Rand, budget float64) Config {
	pick := func(xs ...float64) float64 { return xs[r.IntN(len(xs))] }
	spread := func(lo, hi float64) float64 { return lo * math.Pow(hi/lo, r.Float64()) }
	c := DefaultConfig()
	c.Policy = arrivalOrderPolicies()[r.IntN(len(arrivalOrderPolicies()))]
	c.Workers = []int{1, 2, 3, 8, 13, 50, 1000}[r.IntN(7)]
	c.ServiceMS = pick(80, 0.001, 0.01, 1, spread(0.001, 1e4))
	c.DurationS = pick(300, 10, 60, spread(10, 3600))
	c.SaleStartS = math.Floor(r.Float64() * (c.DurationS - 10))
	c.SaleS = math.Floor(r.Float64() * (c.DurationS - 10 - c.SaleStartS))
	capacity := c.CapacityRPS()
	c.NormalRPS = pick(0, capacity*r.Float64()*1.2, spread(0.01, 1e6))
	c.SaleRPS = pick(0, c.NormalRPS, capacity*(0.5+2.5*r.Float64()), spread(0.01, 1e6))
	c.TimeoutMS = pick(2000, 1e-6, 1e-5, c.ServiceMS*(1+r.Float64()*50), spread(1e-6, 1e5))
	c.Retries = []int{0, 1, 3, 10, 100}[r.IntN(5)]
	c.RetryDelayMS = pick(1000, 0, 1e-6, c.TimeoutMS, spread(1e-6, 1e5))
	c.RetryJitterMS = pick(0, 0, 500, 1e-6, c.RetryDelayMS, spread(1e-6, 1e5))
	c.Queue = []int{0, 1, 2, 50, 1024, 1e6}[r.IntN(6)]
	c.OrderShare = pick(0.2, 0, 1, r.Float64())
	c.CoDelTargetMS = pick(5, 0, spread(0.001, 1e4))
	c.CoDelIntervalMS = pick(100, 1e-6, spread(0.001, 1e5))
	if !c.Policy.Refuses() {
		c.RefusalCostMS = pick(0, 20) // unread: they never refuse
	}
	c.Seed = r.Uint64N(MaxSeed + 1)
	// The client: the post's; backoff with full jitter, its base and cap
	// across their range (a base of 0 retries at once); or Retry-After,
	// but for codel.
	switch r.IntN(4) {
	case 0:
		c.Client = Backoff
		c.BackoffBaseMS = pick(1000, 0, 1e-6, c.TimeoutMS, spread(1e-6, 1e5))
		c.BackoffCapMS = pick(20000, 0, c.BackoffBaseMS, c.BackoffBaseMS*8, spread(1e-6, 1e6))
	case 1:
		if c.Policy.spec().shed != shedOverLimit { // as arrivalOrderTakes
			c.Client = RetryAfter
		}
	}
	// The sale's shape (rule 25), where the sale has a rate and a length
	// of its own: a ramp up to half of it, waves that fit the run (back
	// to back, or apart), or both.
	if c.SaleRPS != c.NormalRPS && c.SaleS > 0 {
		if r.IntN(3) == 0 {
			c.SaleRampS = pick(c.SaleS/2, math.Floor(r.Float64()*c.SaleS/2), r.Float64()*c.SaleS/2)
		}
		if r.IntN(3) == 0 {
			c.SaleWaves = 2 + r.IntN(4)
			room := (c.DurationS - 10 - c.SaleStartS - c.SaleS) / float64(c.SaleWaves-1) // the most from start to start
			c.SaleEveryS = pick(c.SaleS, math.Floor(c.SaleS+(room-c.SaleS)*r.Float64()), c.SaleS+(room-c.SaleS)*r.Float64())
		}
	}
	// A slowdown, from any time in the run for any length that ends a
	// window before the run does, or for the rest of the run.
	if r.IntN(3) == 0 {
		c.SlowFactor = pick(3, 1, maxSlowFactor, 1+(maxSlowFactor-1)*r.Float64())
		c.SlowStartS = pick(c.SaleStartS, math.Floor(r.Float64()*(c.DurationS-10)), r.Float64()*(c.DurationS-10))
		c.SlowS = pick(0, c.SaleS, math.Floor(r.Float64()*(c.DurationS-10-c.SlowStartS)), r.Float64()*(c.DurationS-10-c.SlowStartS))
	}
	// The service's shape, a lognormal one's tail anywhere it may be.
	switch r.IntN(4) {
	case 0:
		c.Service, c.ServiceP99MS = LognormalService, c.ServiceMS*(1+(MaxLognormalTail-1)*r.Float64())
	case 1:
		c.Service = ConstantService
	}
	// A series at the page's step, or at any step down to the finest that
	// keeps to MaxSeriesPoints, or none.
	c.SeriesStepS = pick(0, SeriesStep(c.DurationS), spread(max(0.001, c.DurationS/MaxSeriesPoints), 2*c.DurationS))
	if n := c.ExpectedAttempts(); n > budget {
		c.NormalRPS *= budget / n
		c.SaleRPS *= budget / n
	}
	return c
}

// TestArrivalOrderRandom compares the two paths on random Configs the
// arrival-order path takes, edges included.
func TestArrivalOrderRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 1955))
	n := 400
	if testing.Short() {
		n = 50
	}
	computed := 0
	for i := range n {
		c := arrivalOrderConfig(r, 20_000)
		if c.Validate() != nil {
			continue
		}
		require.True(t, arrivalOrderTakes(c), "the generator draws only Configs the path takes: %+v", c)
		if sameByBothPaths(t, "random config "+strconv.Itoa(i), c) {
			computed++
		}
	}
	t.Logf("%d of %d computed by the arrival-order path, the rest handed to the event loop at a tie", computed, n)
	assert.Greater(t, computed, n*3/4, "the arrival-order path computes most random Configs itself")
}

// TestArrivalOrderIsTheEventLoop runs both paths on every Config of the
// golden files, the lab and the samples that the arrival-order path takes,
// and requires the same Result, byte for byte; none of them has a tie, so
// the arrival-order path must compute every one itself.
func TestArrivalOrderIsTheEventLoop(t *testing.T) {
	sets := map[string][]Config{"lab": Lab()}
	for _, g := range goldenConfigs {
		sets["golden"] = append(sets["golden"], g.config)
	}
	for _, s := range Samples() {
		sets["samples"] = append(sets["samples"], s.Config)
	}
	for _, name := range []string{"golden", "lab", "samples"} {
		// each with the page's series, and with one at a step that fits
		// neither the windows nor the run
		for _, c := range sets[name] {
			sets[name] = append(sets[name], withSeries(c, SeriesStep(c.DurationS)), withSeries(c, 7.3))
		}
		taken := 0
		for i, c := range sets[name] {
			if !arrivalOrderTakes(c) {
				continue
			}
			taken++
			what := name + " " + strconv.Itoa(i) + " (" + c.Policy.String() + ")"
			assert.True(t, sameByBothPaths(t, what, c), "%s: the arrival-order path computes it, not the event loop", what)
		}
		assert.Positive(t, taken, "the arrival-order path takes some of the %s", name)
	}
}

// TestArrivalOrderWaitsOut compares the two paths on Configs that reach the
// part of a run where every worker is busy until its end, which the
// arrival-order path computes apart (waitOut): services long against the
// run, so that nothing arriving after them is served, under each policy it
// takes, with refusals from a full queue, retries, and a series.
func TestArrivalOrderWaitsOut(t *testing.T) {
	long := func(p Policy, queue, retries int) Config {
		c := DefaultConfig()
		c.Policy, c.Queue, c.Retries = p, queue, retries
		c.Workers, c.ServiceMS, c.DurationS, c.SaleStartS, c.SaleS = 2, 100_000, 60, 10, 20
		c.NormalRPS, c.SaleRPS, c.TimeoutMS, c.RetryDelayMS = 5, 20, 2000, 500
		return c
	}
	tests := []struct {
		reason string
		config Config
	}{
		{"the unbounded queue, every attempt waiting out the run", long(FIFO, 0, 3)},
		{"skip the abandoned", long(Skip, 0, 3)},
		{"a bounded queue of 5, full, refusing and retried", long(Bounded, 5, 3)},
		{"a bounded queue refusing the last attempts", long(Bounded, 1, 0)},
		{"the queue timeout", long(CoDel, 0, 1)},
		{"the post's retry storm", func() Config { c := DefaultConfig(); c.Retries = 3; return c }()},
	}
	for _, tt := range tests {
		for _, c := range []Config{tt.config, withSeries(tt.config, 1), withSeries(tt.config, 7.3)} {
			assert.True(t, sameByBothPaths(t, tt.reason, c), "%s: computed by the arrival-order path", tt.reason)
			e := newEngine(c, nil)
			e.arrivalOrder()
			assert.True(t, e.waitedOut, "%s: the rest waited out apart (waitOut)", tt.reason)
		}
	}
}

// TestArrivalOrderClients compares the two paths on the post's storm with
// the clients the arrival-order path takes besides the post's ("Clients
// that behave"): backoff under each of its policies, at the client's
// defaults and with a cap that keeps every delay under a second, and
// Retry-After from a bounded queue of 40 whose last places wait past a
// timeout of 300 ms, so that retries follow refusals and timeouts both,
// with jitter and without. Each must be computed by the path.
func TestArrivalOrderClients(t *testing.T) {
	for _, p := range arrivalOrderPolicies() {
		for _, capMS := range []float64{20000, 800} {
			c := DefaultConfig()
			c.Policy, c.Client, c.Retries, c.BackoffCapMS = p, Backoff, 3, capMS
			what := fmt.Sprintf("%s, backoff capped at %g ms", p, capMS)
			assert.True(t, sameByBothPaths(t, what, c), "%s: computed by the arrival-order path", what)
		}
	}
	for _, jitterMS := range []float64{0, 500} {
		c := DefaultConfig()
		c.Policy, c.Queue, c.Client, c.Retries, c.RetryJitterMS, c.TimeoutMS = Bounded, 40, RetryAfter, 3, jitterMS, 300
		what := fmt.Sprintf("a bounded queue of 40, Retry-After, jitter %g ms", jitterMS)
		assert.True(t, sameByBothPaths(t, what, c), "%s: computed by the arrival-order path", what)
	}
}

// TestArrivalOrderTakes checks which Configs the arrival-order path takes.
func TestArrivalOrderTakes(t *testing.T) {
	tests := []struct {
		reason string
		change func(*Config)
		takes  bool
	}{
		{"the post's shop", func(*Config) {}, true},
		{"skip the abandoned", func(c *Config) { c.Policy = Skip }, true},
		{"a bounded queue of 7 with free refusals", func(c *Config) { c.Policy, c.Queue = Bounded, 7 }, true},
		{"the queue timeout with its own M and N", func(c *Config) { c.Policy, c.CoDelTargetMS, c.CoDelIntervalMS = CoDel, 1, 30 }, true},
		{"adaptive LIFO serves the newest first", func(c *Config) { c.Policy = LIFO }, false},
		{"priority evicts the newest preview", func(c *Config) { c.Policy = Priority }, false},
		{"an unknown policy", func(c *Config) { c.Policy = 17 }, false},
		{"the unbounded queue never refuses, so a refusal cost goes unread", func(c *Config) { c.RefusalCostMS = 20 }, true},
		{"a costly refusal takes a worker out of arrival order", func(c *Config) { c.Policy, c.RefusalCostMS = Bounded, 20 }, false},
		{"a costly refusal in the queue timeout", func(c *Config) { c.Policy, c.RefusalCostMS = CoDel, 1 }, false},
		{"jitter: retries come due out of the order made, and the path orders them", func(c *Config) { c.Retries, c.RetryJitterMS = 3, 500 }, true},
		{"the fixed client ignores the other clients' knobs", func(c *Config) { c.BudgetTokens, c.RatioMax, c.BackoffCapMS = 3, 0.5, 1 }, true},
		{"retries, a zero delay, a tiny timeout", func(c *Config) { c.Retries, c.RetryDelayMS, c.TimeoutMS = 100, 0, 1e-6 }, true},
		{"a log-normal service: its times are drawn in the order services start", func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 600 }, true},
		{"a constant service", func(c *Config) { c.Service = ConstantService }, true},
		{"patience: each attempt's deadline is known as it arrives, but drawing it in the loop cost the default run 3%: declined", func(c *Config) {
			c.Patience, c.PatienceMS = ExponentialPatience, 3000
		}, false},
		{"lost workers: a loss that takes a worker serving loses a request whose outcome the path has counted: declined", func(c *Config) {
			c.LossWorkers, c.LossStartS, c.LossS = 3, 60, 30
		}, false},
		{"a ramped sale: arrivals do not depend on the service", func(c *Config) { c.SaleRampS = 20 }, true},
		{"a sale in waves, ramped", func(c *Config) { c.SaleWaves, c.SaleEveryS, c.SaleS, c.SaleRampS = 3, 70, 30, 10 }, true},
		{"a slowdown stretches a service by when it starts", func(c *Config) { c.SlowFactor, c.SlowStartS, c.SlowS = 3, 60, 20 }, true},
		{"a slowdown with no sale: the slowdown's people", func(c *Config) { c.SaleRPS, c.SlowFactor, c.SlowStartS = c.NormalRPS, 2, 100 }, true},
		{"784 waves back to back with a slowdown: the people end with the last wave, as without it (PeopleEndS rounded as one number ends 40 ns later)", func(c *Config) {
			c.SaleStartS, c.SaleS, c.SaleWaves, c.SaleEveryS, c.DurationS = 6.718212205620061, 16.96393136505093, 784, 16.96393136505093, 13400
			c.SlowFactor, c.SlowStartS = 2, 1
		}, true},
		{"the whole model's numbers", func(c *Config) {
			c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS = 3, 7, 1, 2, 0, 0, 10
			c.OrderShare, c.Seed = 1, 99
		}, true},
	}
	for _, cl := range Clients[1:] {
		reason, takes := "the "+cl.String()+" client decides from a history", false
		switch cl {
		case Backoff:
			reason, takes = "the backoff client draws each retry's delay as it is made, whatever came before", true
		case RetryAfter:
			reason, takes = "the unbounded queue refuses nobody, so Retry-After is the fixed client", true
		}
		tests = append(tests, struct {
			reason string
			change func(*Config)
			takes  bool
		}{reason, func(c *Config) { c.Client, c.Retries = cl, 3 }, takes})
	}
	type takesCase = struct {
		reason string
		change func(*Config)
		takes  bool
	}
	tests = append(tests, takesCase{"the backoff client never reads the fixed client's jitter", func(c *Config) {
		c.Client, c.Retries, c.RetryJitterMS, c.BackoffBaseMS, c.BackoffCapMS = Backoff, 3, 500, 20, 300
	}, true}, takesCase{"Retry-After from the bounded queue: full, as the path refuses at an arrival", func(c *Config) {
		c.Policy, c.Queue, c.Client, c.Retries = Bounded, 40, RetryAfter, 3
	}, true}, takesCase{"Retry-After from codel: its refusals' queue holds arrivals the path has not met", func(c *Config) {
		c.Policy, c.Client, c.Retries = CoDel, RetryAfter, 3
	}, false})
	for _, tt := range tests {
		c := DefaultConfig()
		tt.change(&c)
		if c.Policy <= Priority { // the Configs are valid, but for the unknown policy
			require.NoError(t, c.Validate(), tt.reason)
		}
		assert.Equal(t, tt.takes, arrivalOrderTakes(c), tt.reason)
	}
}

// arrivalOrderFields are the Config fields the arrival-order path takes
// in the post's shop at the value next to their default (reads, or never
// needs, as arrivalOrderTakes says: the next policy, skip, and the next
// client, backoff; TestArrivalOrderTakes holds it to the others). A field
// not in the list, such as one added after this path, must be declined:
// TestArrivalOrderDeclinesNewFields.
var arrivalOrderFields = []string{
	"Policy", "Workers", "ServiceMS", "NormalRPS", "SaleRPS", "SaleStartS", "SaleS", "DurationS",
	"TimeoutMS", "Retries", "RetryDelayMS", "RetryJitterMS", "Queue", "RefusalCostMS", "OrderShare",
	"CoDelTargetMS", "CoDelIntervalMS", "Client", "BackoffBaseMS", "BackoffCapMS", "BudgetTokens",
	"BudgetRefusalCost", "BudgetTimeoutCost", "BudgetRefill", "RatioMax", "ThrottleK", "ClientWindowS", "Seed", "SeriesStepS", "Service", "ServiceP99MS",
	"SaleRampS", "SaleWaves", "SaleEveryS", "SlowFactor", "SlowStartS", "SlowS",
	"ServiceHistogram", "Arrivals", "ArrivalsScale", "ArrivalsShiftS", "SaleThresholdRPS",
}

// TestArrivalOrderDeclinesNewFields sets each field of Config in turn to
// a value other than its default, by reflection, so that it covers fields
// added after it was written: the arrival-order path must take it if the
// field is one of arrivalOrderFields, and decline it otherwise.
func TestArrivalOrderDeclinesNewFields(t *testing.T) {
	typ := reflect.TypeFor[Config]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		c := DefaultConfig()
		v := reflect.ValueOf(&c).Elem().Field(i)
		require.True(t, changeValue(v), "field %s: the test cannot change a %s; teach changeValue", name, v.Type())
		require.NotEqual(t, DefaultConfig(), c, "field %s changed", name)
		switch {
		case slices.Contains(arrivalOrderFields, name):
			assert.True(t, arrivalOrderTakes(c), "%s is one the arrival-order path takes", name)
		default:
			assert.False(t, arrivalOrderTakes(c), "%s is new to the arrival-order path, which must decline it until it computes it exactly (and the differential tests prove it)", name)
		}
	}
}

// changeValue sets v, settable, to a value other than the one it holds,
// and reports whether it could.
func changeValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float()*2 + 1)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		} else {
			v.SetZero()
		}
	case reflect.Array:
		for i := range v.Len() {
			if changeValue(v.Index(i)) {
				return true
			}
		}
		return false
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() && changeValue(v.Field(i)) {
				return true
			}
		}
		return false
	default:
		return false
	}
	return true
}

// FuzzArrivalOrder runs both paths on Configs made from the fuzzer's
// values and requires the same Result, byte for byte (json.Marshal). A
// Config the arrival-order path would decline is moved into its domain
// (one of its policies, the fixed client, backoff or Retry-After, free refusals where
// they are read), so that every execution compares something.
//
//	go test ./sim -run='^$' -fuzz=FuzzArrivalOrder -fuzztime=60s
func FuzzArrivalOrder(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1952))
	for range 40 {
		addArrivalOrderConfig(f, arrivalOrderConfig(r, fuzzAttempts))
	}
	for _, s := range Samples() {
		addArrivalOrderConfig(f, s.Config)
	}
	f.Fuzz(func(t *testing.T, policy, workers int, serviceMS, normalRPS, saleRPS, saleStartS, saleS, durationS,
		timeoutMS float64, retries int, retryDelayMS, jitterMS float64, queue int, refusalCostMS, orderShare,
		codelTargetMS, codelIntervalMS float64, client int, seed uint64,
		_ int, _, _, slowFactor, slowStartS, slowS float64, // the incidents: a loss, declined; a slowdown
		service int, serviceP99MS float64, _ int, _ float64, // the service's shape; patience, declined
		saleRampS float64, saleWaves int, saleEveryS float64, _ int, // the sale's shape; the heap, declined
		seriesStepS float64) {
		c := DefaultConfig()
		c.Policy = arrivalOrderPolicies()[uint(policy)%uint(len(arrivalOrderPolicies()))]
		c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS = workers, serviceMS, normalRPS, saleRPS
		c.SaleStartS, c.SaleS, c.DurationS, c.TimeoutMS, c.Retries = saleStartS, saleS, durationS, timeoutMS, retries
		c.RetryDelayMS, c.RetryJitterMS, c.Queue, c.OrderShare = retryDelayMS, jitterMS, queue, orderShare
		c.CoDelTargetMS, c.CoDelIntervalMS = codelTargetMS, codelIntervalMS
		if !c.Policy.Refuses() {
			c.RefusalCostMS = refusalCostMS
		}
		c.Seed, c.SeriesStepS = seed, seriesStepS
		switch uint(client) % 3 {
		case 1: // backoff, at a base and cap from a few across their range
			bases := []float64{1000, 0, 1e-6, 1, 50, 1e5}
			c.Client = Backoff
			c.BackoffBaseMS = bases[uint(client/3)%6]
			c.BackoffCapMS = []float64{20000, 0, 1, c.BackoffBaseMS, c.BackoffBaseMS * 8}[uint(client/18)%5]
		case 2: // Retry-After, but for codel
			if c.Policy.spec().shed != shedOverLimit { // as arrivalOrderTakes
				c.Client = RetryAfter
			}
		}
		c.SaleRampS, c.SaleWaves, c.SaleEveryS = saleRampS, saleWaves, saleEveryS
		c.SlowFactor, c.SlowStartS, c.SlowS = slowFactor, slowStartS, slowS
		c.Service, c.ServiceP99MS = ServiceShape(uint(service)%3), serviceP99MS
		if c.Validate() != nil {
			return
		}
		if n := c.ExpectedAttempts(); n > fuzzAttempts {
			c.NormalRPS *= fuzzAttempts / n
			c.SaleRPS *= fuzzAttempts / n
		}
		require.NoError(t, c.Validate())
		require.True(t, arrivalOrderTakes(c))
		sameByBothPaths(t, "fuzzed", c)
	})
}

// TestFreeTree holds the workers' tree to a plain scan of their free times:
// after each replacement of the earliest, its root is the earliest time, at
// every number of workers from one to MaxWorkers and at times up to a
// day's end, the most its keys hold.
func TestFreeTree(t *testing.T) {
	tests := []struct {
		reason  string
		workers int
		least   int   // the fewest leaves
		longest int64 // the longest service, ns
	}{
		{"one worker: the root is the leaf", 1, 1, 1e9},
		{"one worker, in newcomers' eight leaves", 1, writtenOut, 1e9},
		{"two", 2, 1, 1e9},
		{"three: a tree padded with a worker never free", 3, 1, 1e9},
		{"three, in newcomers' eight leaves", 3, writtenOut, 1e9},
		{"the shop's eight", 8, writtenOut, 1e9},
		{"nine: padded to sixteen", 9, writtenOut, 1e9},
		{"a thousand", 1000, 1, 1e9},
		{"the most workers", MaxWorkers, 1, 1e9},
		{"times up to a day's end", 5, 1, maxDuration * 1e9 / 100},
	}
	r := rand.New(rand.NewPCG(17, 47))
	for _, tt := range tests {
		tree := freeTree(nil).start(tt.workers, tt.least)
		free := make([]int64, tt.workers)
		for i := range free {
			free[i] = -1
		}
		root := tree[1]
		for range 3000 {
			at, k := int64(root>>workerBits)-1, int(root&workerMask)
			require.Equal(t, slices.Min(free), at, "%s: the root is the earliest", tt.reason)
			require.Equal(t, at, free[k], "%s: and its worker is free then", tt.reason)
			done := min(max(at, 0)+r.Int64N(tt.longest), maxDuration*1e9)
			free[k] = done
			root = tree.replace(k, done)
		}
	}
}

// TestArrivalOrderSlowdownEdges puts the slowdown's start and end on the
// very nanoseconds at which services start (a worker finishing with the
// queue full), or one after, where the random Configs' slowdowns almost
// never fall: a service that starts at the start is slowed and one at the
// end is not, the same on both paths, which the arrival-order path
// computes.
func TestArrivalOrderSlowdownEdges(t *testing.T) {
	for i, policy := range []Policy{FIFO, Skip, Bounded, CoDel, FIFO, Bounded} {
		after := int64(i / 4) // 0: on the services' starts; 1: a nanosecond after
		c := DefaultConfig()
		c.Policy = policy
		// Services starting in the sale: finishes with requests waiting.
		var starts []int64
		e := newEngine(c, nil)
		e.trace = func(at int64, what string, _ *attempt) {
			if what == "service done" && e.queue.len() > 0 && at > e.saleStart {
				starts = append(starts, at)
			}
		}
		e.loop()
		require.Greater(t, len(starts), 100, "%s: the sale queues", policy)
		found := false
		for k := 10; k+50 < len(starts) && !found; k++ {
			from, to := starts[k]+after, starts[k+50]+after
			c.SlowFactor, c.SlowStartS = 3, float64(from)/1e9
			c.SlowS = float64(to)/1e9 - c.SlowStartS
			// as newEngine rounds them
			found = int64(math.Round(c.SlowStartS*1e9)) == from && int64(math.Round(c.SlowEndS()*1e9)) == to
		}
		require.True(t, found, "%s: a slowdown from one service's start to another's, to the nanosecond", policy)
		what := policy.String() + ", slowed from a service's start to another's, " + strconv.FormatInt(after, 10) + " ns after"
		assert.True(t, sameByBothPaths(t, what, c), "%s: computed by the arrival-order path", what)
	}
}
