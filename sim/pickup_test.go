package sim

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pickupResult is c's Result by the pickup path alone; false when the
// path declines c.
func pickupResult(c Config) (Result, bool) {
	if !pickupTakes(c) {
		return Result{}, false
	}
	e := newEngine(c, nil)
	e.runPickup()
	return e.result(), true
}

// samePickupAndLoop runs c by the pickup path and the event loop, and
// requires the same JSON, byte for byte; c must be one the path takes.
func samePickupAndLoop(t *testing.T, what string, c Config) {
	t.Helper()
	require.NoError(t, c.Validate(), what)
	fast, ok := pickupResult(c)
	require.True(t, ok, "%s: the pickup path declines it", what)
	want, err := json.Marshal(eventLoopResult(c))
	require.NoError(t, err)
	got, err := json.Marshal(fast)
	require.NoError(t, err)
	if string(want) != string(got) {
		cj, _ := json.Marshal(c)
		assert.Equal(t, string(want), string(got), "%s: the pickup path differs from the event loop (-event loop +pickup)\nconfig: %s", what, cj)
	}
}

// intoPickup moves c into the pickup path's domain: lifo or priority (by
// which), the fixed client (without jitter), retries under lifo alone,
// and free refusals.
func intoPickup(c Config, which int) Config {
	c.Policy = [2]Policy{LIFO, Priority}[which&1]
	if c.Policy == LIFO {
		c.Queue = 0
	} else {
		c.CoDelTargetMS, c.CoDelIntervalMS = DefaultConfig().CoDelTargetMS, DefaultConfig().CoDelIntervalMS
	}
	c.RetryJitterMS = 0
	if c.Policy == Priority {
		c.Retries, c.RetryDelayMS = 0, DefaultConfig().RetryDelayMS
	}
	c.RefusalCostMS = 0
	c.Client, c.BackoffBaseMS, c.BackoffCapMS = Fixed, DefaultConfig().BackoffBaseMS, DefaultConfig().BackoffCapMS
	return c
}

// TestPickupMatchesEventLoop compares the pickup path with the event loop
// on random Configs across the fields' ranges and towards their edges
// (timeouts of a nanosecond, services far shorter or longer than the gaps,
// one worker or a thousand, bounds of one, a million arrivals a second,
// where two arrive in the same nanosecond), with rate tables and
// histograms, and on the goldens', the lab's and the samples' Configs
// moved into its domain.
func TestPickupMatchesEventLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 1979))
	n := 400
	if testing.Short() {
		n = 60
	}
	compared := 0
	for i := range n {
		c := intoPickup(arrivalOrderConfig(r, 20_000), i)
		if r.IntN(4) == 0 {
			c.Seed += uint64(i)
			randomTables(&c)
		}
		if c.Validate() != nil {
			continue
		}
		compared++
		samePickupAndLoop(t, "random config "+strconv.Itoa(i)+" ("+c.Policy.String()+")", c)
	}
	assert.Greater(t, compared, n/2, "most random Configs are valid")

	var sets []Config
	for _, g := range goldenConfigs {
		sets = append(sets, g.config)
	}
	for _, s := range Samples() {
		if len(s.Config.HopList()) == 0 {
			sets = append(sets, s.Config)
		}
	}
	sets = append(sets, Lab()...)
	for _, c := range sets { // each with the page's series, and with one at a step that fits neither the windows nor the run
		sets = append(sets, withSeries(c, SeriesStep(c.DurationS)), withSeries(c, 7.3))
	}
	taken := 0
	for i, c := range sets {
		for which := range 2 {
			c := intoPickup(c, which)
			c.LossWorkers, c.LossStartS, c.LossS = 0, 0, 0
			c.Patience, c.PatienceMS, c.HeapRequests = DefaultConfig().Patience, DefaultConfig().PatienceMS, 0
			if c.Validate() != nil || !pickupTakes(c) {
				continue
			}
			taken++
			samePickupAndLoop(t, "set "+strconv.Itoa(i)+" ("+c.Policy.String()+")", c)
		}
	}
	assert.Greater(t, taken, len(sets), "most of the sets' Configs, under both policies, are the path's")
}

// TestPickupOnTheGrid compares the path with the event loop where events
// meet in the same nanosecond by construction, not by chance: constant
// services, timeouts and retry delays that are multiples of the service,
// a CoDel interval of a nanosecond, series steps a few services long
// (rule 1's order of timeouts, workers coming free and arrivals; a series'
// boundary at a service's end). The first two Configs were found by review
// to tell rule 1's order apart, and a boundary at a service's end.
func TestPickupOnTheGrid(t *testing.T) {
	var found [2]Config
	for k, j := range []string{
		`{"policy":"lifo","workers":3,"service_ms":5,"service":"constant","normal_rps":9.000900090009,"sale_rps":13.501350135013501,"sale_start_s":3,"sale_s":4,"duration_s":20,"timeout_ms":2,"retries":100,"retry_delay_ms":2,"queue":2,"order_share":0.5,"codel_target_ms":0,"codel_interval_ms":0.000001,"seed":948}`,
		`{"policy":"priority","workers":3,"service_ms":2,"normal_rps":909.0909090909091,"sale_rps":1363.6363636363637,"sale_start_s":3,"sale_s":4,"duration_s":20,"timeout_ms":20,"queue":5,"order_share":1,"codel_target_ms":0,"codel_interval_ms":2,"seed":159,"series_step_s":0.011}`,
	} {
		found[k] = DefaultConfig()
		require.NoError(t, json.Unmarshal([]byte(j), &found[k]))
	}
	configs := found[:]
	r := rand.New(rand.NewPCG(5, 1952))
	pick := func(xs ...float64) float64 { return xs[r.IntN(len(xs))] }
	for i := range 240 {
		c := DefaultConfig()
		c.Policy = [2]Policy{LIFO, Priority}[i%2]
		c.Workers = 1 + r.IntN(3)
		c.Service, c.ServiceMS = ConstantService, pick(1, 2, 5)
		c.DurationS, c.SaleStartS, c.SaleS = 20, 3, 4
		c.NormalRPS = c.CapacityRPS() * pick(0.5, 0.9, 1.2)
		c.SaleRPS = c.NormalRPS * pick(1.5, 3)
		c.TimeoutMS = c.ServiceMS * pick(0.5, 1, 2, 3)
		if c.Policy == LIFO {
			c.Retries = []int{0, 1, 3, 100}[r.IntN(4)]
			c.RetryDelayMS = pick(0, c.ServiceMS, c.TimeoutMS, 2*c.ServiceMS)
			c.CoDelTargetMS, c.CoDelIntervalMS = pick(0, c.ServiceMS), pick(1e-6, c.ServiceMS, 2*c.ServiceMS)
		} else {
			c.Queue, c.OrderShare = []int{1, 2, 5}[r.IntN(3)], pick(0, 0.5, 1)
		}
		c.SeriesStepS = pick(0, c.ServiceMS*3/1000, c.ServiceMS*5.5/1000)
		c.Seed = r.Uint64N(1000)
		if n := c.ExpectedAttempts(); n > 20_000 {
			c.NormalRPS *= 20_000 / n
			c.SaleRPS *= 20_000 / n
		}
		configs = append(configs, c)
	}
	for i, c := range configs {
		if c.Validate() != nil {
			continue
		}
		samePickupAndLoop(t, "grid config "+strconv.Itoa(i)+" ("+c.Policy.String()+")", c)
	}
}

// TestPickupReusesItsMemory: Runs hands a finished engine's memory to the
// next run; the path's lines, tree and timeouts start again from nothing,
// whatever policy, retries and series ran before.
func TestPickupReusesItsMemory(t *testing.T) {
	var cs []Config
	for i := range 12 {
		c := DefaultConfig()
		c.Policy, c.Seed = [2]Policy{LIFO, Priority}[i%2], uint64(i/4)
		if i%3 == 0 {
			c.SeriesStepS = 1
		}
		if c.Policy == LIFO && i%4 == 1 {
			c.Retries = 3
		}
		cs = append(cs, c)
	}
	got, err := Runs(cs)
	require.NoError(t, err)
	for i, c := range cs {
		want, err := json.Marshal(eventLoopResult(c))
		require.NoError(t, err)
		b, err := json.Marshal(got[i])
		require.NoError(t, err)
		assert.Equal(t, string(want), string(b), "run %d (%s) after others on the same engines", i, c.Policy)
	}
}

// TestPickupTies: at a million arrivals a second, a few arrive in the same
// nanosecond as another in every run; under priority the two lines'
// fronts are then told apart by their order of arrival, as the event loop
// tells them by seq.
func TestPickupTies(t *testing.T) {
	for seed := range uint64(3) {
		c := DefaultConfig()
		c.Policy, c.Queue, c.OrderShare = Priority, 40, 0.5
		c.Workers, c.ServiceMS = 50, 0.05
		c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS = 100_000, 1_000_000, 1, 1, 12
		c.TimeoutMS, c.Seed = 0.2, seed
		ties := 0
		e := newEngine(c, nil)
		last := int64(-1)
		e.trace = func(at int64, what string, _ *attempt) {
			if what == "arrival" {
				if at == last {
					ties++
				}
				last = at
			}
		}
		e.loop()
		assert.Positive(t, ties, "seed %d: arrivals in the same nanosecond", seed)
		samePickupAndLoop(t, "ties, seed "+strconv.Itoa(int(seed)), c)
	}
}

// TestPickupTakes: the path takes the default run under lifo and
// priority (and BenchmarkScale's rows under them:
// TestFastPathsTakeScale), and declines what it does not compute.
func TestPickupTakes(t *testing.T) {
	declined := map[string]func(c *Config){
		"fifo":           func(c *Config) { c.Policy = FIFO },
		"jitter":         func(c *Config) { c.Retries, c.RetryJitterMS = 1, 100 },
		"backoff":        func(c *Config) { c.Retries, c.Client = 1, Backoff },
		"retry-after":    func(c *Config) { c.Retries, c.Client = 1, RetryAfter },
		"refusal cost":   func(c *Config) { c.RefusalCostMS = 1 },
		"budget client":  func(c *Config) { c.Client = Budget },
		"throttle":       func(c *Config) { c.Client = Throttle },
		"ratio":          func(c *Config) { c.Client = Ratio },
		"a loss":         func(c *Config) { c.LossWorkers, c.LossStartS, c.LossS = 2, 60, 30 },
		"patience":       func(c *Config) { c.Patience, c.PatienceMS = ExponentialPatience, 500 },
		"heap":           func(c *Config) { c.HeapRequests = 100 },
		"hops":           func(c *Config) { c.Hops = "pay: workers=2 service_ms=10" },
		"zero timeout":   func(c *Config) { c.TimeoutMS = 1e-7 },
		"adaptive limit": func(c *Config) { c.Policy = Gradient2 },
	}
	for _, p := range []Policy{LIFO, Priority} {
		c := DefaultConfig()
		c.Policy = p
		assert.True(t, pickupTakes(c), "%s by default", p)
		for what, change := range declined {
			d := c
			change(&d)
			assert.False(t, pickupTakes(d), "%s with %s", p, what)
		}
		d := c
		d.Retries = 3
		assert.Equal(t, p == LIFO, pickupTakes(d), "%s with the fixed client's retries: lifo's alone, whose keys are never compared", p)
	}
}

// pickupFields are the Config fields the pickup path takes, under lifo, at
// the value next to their default (the next policy, priority; the next
// client, backoff); TestPickupDeclinesNewFields holds any other field,
// such as one added after this path, to be declined.
var pickupFields = []string{
	"Policy", "Workers", "ServiceMS", "NormalRPS", "SaleRPS", "SaleStartS", "SaleS", "DurationS",
	"TimeoutMS", "Retries", "RetryDelayMS", "RetryJitterMS", "Queue", "OrderShare",
	"CoDelTargetMS", "CoDelIntervalMS", "Client", "BackoffBaseMS", "BackoffCapMS", "BudgetTokens",
	"BudgetRefusalCost", "BudgetTimeoutCost", "BudgetRefill", "RatioMax", "ThrottleK", "ClientWindowS", "Seed", "SeriesStepS", "Service", "ServiceP99MS",
	"SaleRampS", "SaleWaves", "SaleEveryS", "SlowFactor", "SlowStartS", "SlowS",
	"ServiceHistogram", "Arrivals", "ArrivalsScale", "ArrivalsShiftS", "SaleThresholdRPS",
}

// TestPickupDeclinesNewFields sets each field of a lifo Config in turn to
// a value other than its default, by reflection: the pickup path must take
// it if the field is one of pickupFields, and decline it otherwise.
func TestPickupDeclinesNewFields(t *testing.T) {
	base := DefaultConfig()
	base.Policy = LIFO
	typ := reflect.TypeFor[Config]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		c := base
		v := reflect.ValueOf(&c).Elem().Field(i)
		require.True(t, changeValue(v), "field %s: the test cannot change a %s; teach changeValue", name, v.Type())
		if slices.Contains(pickupFields, name) {
			assert.True(t, pickupTakes(c), "%s is one the pickup path takes", name)
		} else {
			assert.False(t, pickupTakes(c), "%s is new to the pickup path, which must decline it until it computes it exactly", name)
		}
	}
}

// TestBlockLine holds blockLine to a slice, pushing and popping at both
// ends across its blocks' edges.
func TestBlockLine(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var l blockLine[uint64]
	var want []uint64
	for round := range 3 {
		for step := range 20_000 {
			switch k := r.IntN(10); {
			case k < 5 || len(want) == 0:
				x := r.Uint64()
				l.pushBack(x)
				want = append(want, x)
			case k < 8:
				require.Equal(t, want[0], l.front())
				require.Equal(t, want[0], l.popFront(), "round %d step %d", round, step)
				want = want[1:]
			default:
				require.Equal(t, want[len(want)-1], l.popBack(), "round %d step %d", round, step)
				want = want[:len(want)-1]
			}
			require.Equal(t, len(want), l.n())
		}
		require.Equal(t, want, slices.Collect(l.all()))
		assert.LessOrEqual(t, len(l.blocks), len(want)/lineBlockLen+2, "only the blocks it needs")
		l.reset()
		want = want[:0]
		assert.Zero(t, l.n())
	}
}

// FuzzPickup runs the pickup path and the event loop on Configs made from
// the fuzzer's values, moved into the path's domain, and requires the
// same Result, byte for byte.
//
//	go test ./sim -run='^$' -fuzz=FuzzPickup -fuzztime=60s
func FuzzPickup(f *testing.F) {
	r := rand.New(rand.NewPCG(2, 1983))
	for i := range 30 {
		c := intoPickup(arrivalOrderConfig(r, fuzzAttempts), i)
		f.Add(int(c.Policy), c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS,
			c.TimeoutMS, c.Retries, c.RetryDelayMS, c.Queue, c.OrderShare, c.CoDelTargetMS, c.CoDelIntervalMS, c.Seed, int(c.Service), c.ServiceP99MS, c.SeriesStepS)
	}
	f.Fuzz(func(t *testing.T, policy, workers int, serviceMS, normalRPS, saleRPS, saleStartS, saleS, durationS,
		timeoutMS float64, retries int, retryDelayMS float64, queue int, orderShare, codelTargetMS, codelIntervalMS float64, seed uint64, service int, serviceP99MS, seriesStepS float64) {
		c := DefaultConfig()
		c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS = workers, serviceMS, normalRPS, saleRPS
		c.SaleStartS, c.SaleS, c.DurationS, c.TimeoutMS = saleStartS, saleS, durationS, timeoutMS
		c.Retries, c.RetryDelayMS, c.SeriesStepS = retries, retryDelayMS, seriesStepS
		c.Queue, c.OrderShare, c.CoDelTargetMS, c.CoDelIntervalMS = queue, orderShare, codelTargetMS, codelIntervalMS
		c.Seed, c.Service, c.ServiceP99MS = seed, ServiceShape(uint(service)%3), serviceP99MS
		c = intoPickup(c, policy)
		if c.Validate() != nil || math.IsNaN(c.ExpectedAttempts()) {
			return
		}
		if n := c.ExpectedAttempts(); n > fuzzAttempts {
			c.NormalRPS *= fuzzAttempts / n
			c.SaleRPS *= fuzzAttempts / n
		}
		if c.Validate() != nil || !pickupTakes(c) {
			return
		}
		samePickupAndLoop(t, "fuzzed", c)
	})
}
