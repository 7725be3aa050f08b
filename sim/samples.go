package sim

import "strings"

// Sample is a named Config for a situation the post discusses.
type Sample struct {
	// Key is the sample's identifier in URLs and flags ("sale").
	Key string `json:"key"`
	// Name is its title as the post writes it ("The sale").
	Name string `json:"name"`
	// About says what it shows, in a sentence.
	About  string `json:"about"`
	Config Config `json:"config"`
}

// Samples returns one Config for each situation the post discusses, the
// default first.
func Samples() []Sample {
	d := DefaultConfig()
	with := func(f func(*Config)) Config {
		c := d
		f(&c)
		return c
	}
	out := []Sample{
		{"sale", "The sale", "The shop's sale: 150 a second for a minute against 100 a second of capacity, into an unbounded queue.", d},
		{"skip", "Skip the abandoned", "Workers drop requests whose client has already left.",
			with(func(c *Config) { c.Policy = Skip })},
		{"bounded", "Bounded queue of 50", "At most 50 wait, half a second of work; the 51st is refused at once.",
			with(func(c *Config) { c.Policy = Bounded; c.Queue = 50 })},
		{"envoy", "The sale, Envoy's 1,024", "A bound of 1,024 holds 10.2 s of work against a 2 s timeout: everyone it admits in the sale times out waiting, so it answers the same people as the unbounded queue, and refuses about a fifth of the sale without helping anyone.",
			with(func(c *Config) { c.Policy = Bounded; c.Queue = 1024 })},
		{"codel", "Queue timeout (CoDel)", "Fail at Scale's queue timeout: 5 ms while congested, else 100 ms.",
			with(func(c *Config) { c.Policy = CoDel })},
		{"lifo", "Newest first", "The queue timeout with adaptive LIFO.",
			with(func(c *Config) { c.Policy = LIFO })},
		{"priority", "Orders first", "The bounded queue, but a full queue drops its newest preview for an order.",
			with(func(c *Config) { c.Policy = Priority })},
		{"retries", "Unbounded, with 3 retries", "Every client retries 3 times a second apart: the queue never drains after the sale.",
			with(func(c *Config) { c.Retries = 3 })},
		{"retries-budget", "Unbounded, 3 retries, a retry budget", "The same retries under a token-bucket budget: the queue drains after the sale.",
			with(func(c *Config) { c.Retries = 3; c.Client = Budget })},
		{"retries-throttle", "Unbounded, 3 retries, adaptive throttling", "The clients throttle themselves: the queue empties, but with nothing accepted the clients stay shut.",
			with(func(c *Config) { c.Retries = 3; c.Client = Throttle })},
		{"bounded-retries", "Bounded, with 3 retries", "The bounded queue barely notices retries.",
			with(func(c *Config) { c.Policy = Bounded; c.Retries = 3 })},
		{"quiet", "An ordinary morning, queue timeout", "70 a second and no sale: the queue timeout still turns some away.",
			with(func(c *Config) { c.Policy = CoDel; c.SaleRPS = c.NormalRPS })},
		{"refusal-cost", "Saying no costs 20 ms", "Each refusal takes a worker 20 ms before the client hears no.",
			with(func(c *Config) { c.Policy = Bounded; c.RefusalCostMS = 20 })},
		{"refusal-cost-80", "Saying no costs as much as yes", "At 80 ms a refusal costs as much as an answer: worse than no bound.",
			with(func(c *Config) { c.Policy = Bounded; c.RefusalCostMS = 80 })},
		{"big-sale", "A sale of 200 a second", "Not back by 300 s, but a backlog too long for the run, not a stuck queue.",
			with(func(c *Config) { c.SaleRPS = 200 })},
		{"timeout-4s", "A 4 s timeout", "A longer timeout buys time, not capacity.",
			with(func(c *Config) { c.TimeoutMS = 4000 })},
		{"workers-13", "13 workers", "The fewest workers whose capacity is over 150 a second.",
			with(func(c *Config) { c.Workers = 13 })},
		{"deploy", "A deploy takes 3 of 8 workers", "No sale: a deploy takes 3 of the 8 workers for 30 s from 60 s. With 5 workers, 62.5 a second against 70 arriving: the queue grows, then drains once they are back.",
			with(deploy)},
		{"deploy-retries", "A deploy, with 3 retries", "The same deploy with clients that retry 3 times: the queue fills with a timeout's worth of dead work and never drains. A metastable failure with no sale at all.",
			with(func(c *Config) { deploy(c); c.Retries = 3 })},
		{"deploy-budget", "A deploy, 3 retries, a retry budget", "The same deploy and retries under a token-bucket budget: the queue drains once the workers are back.",
			with(func(c *Config) { deploy(c); c.Retries = 3; c.Client = Budget })},
		{"ramp", "A sale that ramps", "The sale climbs from 70 to 150 a second over 20 s, holds for 40 s, and falls back over 20 s, from 50 s to 130 s: the queue starts to grow once the rate passes 100 a second.",
			with(func(c *Config) { c.SaleStartS, c.SaleS, c.SaleRampS = 50, 80, 20 })},
		{"second-wave", "A second wave", "Two waves of 150 a second for 30 s, 90 s apart: the unbounded queue loses each wave whole, and back to normal counts from the second.",
			with(func(c *Config) { c.SaleS, c.SaleWaves, c.SaleEveryS = 30, 2, 90 })},
		{"gc-collapse", "Latency that grows with the queue", "The sale into an unbounded queue whose memory holds 1,000 waiting requests: with q waiting, each service takes 1,000/(1,000 - q) times as long. Past 300 waiting the capacity is under the 70 a second of normal traffic, and the service stays down after the sale with no retries at all.",
			with(func(c *Config) { c.HeapRequests = 1000 })},
		{"gc-collapse-bounded", "Latency that grows, a bounded queue", "The same memory behind a bounded queue of 50: it never holds enough to slow the service by more than 5%, and is back at once.",
			with(func(c *Config) { c.HeapRequests = 1000; c.Policy = Bounded; c.Queue = 50 })},
		{"slow-dependency", "A dependency 3 times slower", "No sale: from 60 s every request takes 3 times as long for 20 s, 33 a second of capacity against 70 arriving.",
			with(func(c *Config) { c.SaleRPS = c.NormalRPS; c.SlowFactor, c.SlowStartS, c.SlowS = 3, 60, 20 })},
		// A reader's own service (rules 3a, 4a).
		{"tail", "A handler with a tail", "Log-normal service times with the shop's mean of 80 ms but a p99 of 600 ms (a median of 41 ms): the same capacity, longer waits behind the slow requests.",
			with(func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 600 })},
		{"constant", "Every request takes 80 ms", "Constant service times: the same capacity with no spread, so the queue is the arrivals' doing alone.",
			with(func(c *Config) { c.Service = ConstantService })},
		{"mobile-checkout", "A mobile checkout, people leave after 3 s", "A 10 s client timeout and 3 retries, but people give up after about 3 s: only the 3.6% who wait out the timeout retry, so the unbounded queue drains after the sale, and the workers serve the requests of people long gone.",
			with(func(c *Config) {
				c.TimeoutMS, c.Retries, c.Patience, c.PatienceMS = 10000, 3, ExponentialPatience, 3000
			})},
		{"table-sale", "The sale, as a table", "The post's sale written as a rate table (samples/post-sale.csv), its window found above 100 a second: the same run as the sale, draw for draw.",
			with(func(c *Config) { c.Arrivals, c.SaleThresholdRPS = FormatRates(PostSaleRows()), 100 })},
		{"morning", "A morning from a table", "A day's traffic (samples/day.csv) from 08:30 to 09:30: the morning ramp levels off at 60 a second, then a campaign email brings 140 a second for five minutes at 09:00.",
			with(func(c *Config) {
				c.Arrivals, c.ArrivalsShiftS, c.SaleThresholdRPS, c.DurationS = FormatRates(DayRows()), -8.5*3600, 100, 3600
			})},
		{"histogram", "The sale, with a latency histogram", "Service times drawn from a checkout's latency histogram (samples/checkout-latency.csv, Prometheus's buckets): its mean sets the capacity, its tail the waits.",
			with(func(c *Config) { c.Service, c.ServiceHistogram = HistogramService, FormatBuckets(CheckoutBuckets()) })},
	}
	for _, p := range Policies { // then each policy's own (policySpec.samples)
		out = append(out, p.spec().samples...)
	}
	return append(out, chainSamples()...)
}

// withPolicy is the default Config under policy p, changed by f: a
// policy's own samples (policySpec.samples).
func withPolicy(p Policy, f func(*Config)) Config {
	c := DefaultConfig()
	c.Policy = p
	f(&c)
	return c
}

// deploy is the deploy samples' incident: no sale, and 3 of the 8 workers
// gone for 30 s from 60 s.
func deploy(c *Config) {
	c.SaleRPS = c.NormalRPS
	c.LossWorkers, c.LossStartS, c.LossS = 3, 60, 30
}

// SampleKeys lists the samples' keys, in order.
func SampleKeys() []string {
	var keys []string
	for _, s := range Samples() {
		keys = append(keys, s.Key)
	}
	return keys
}

// SampleByKey returns the sample whose key is key, ignoring case and the
// spaces around it, as a policy's key is read (ParsePolicy).
func SampleByKey(key string) (Sample, bool) {
	want := strings.ToLower(strings.TrimSpace(key))
	for _, s := range Samples() {
		if s.Key == want {
			return s, true
		}
	}
	return Sample{}, false
}

// Lab dimensions: the post's lab records every combination of these.
var (
	LabRetries   = []int{0, 1, 3}
	LabSaleRPS   = []float64{70, 150, 200} // 70: no sale
	LabTimeoutMS = []float64{1000, 2000, 4000}
)

// Lab returns the post's lab: each of the post's policies (PostPolicies)
// x retries 0, 1, 3 x sale 70 (none), 150, 200 per second x timeout 1, 2,
// 4 s, in that nesting order, otherwise the defaults: 162 Configs.
func Lab() []Config {
	out := make([]Config, 0, len(PostPolicies)*len(LabRetries)*len(LabSaleRPS)*len(LabTimeoutMS))
	for _, p := range PostPolicies {
		for _, r := range LabRetries {
			for _, s := range LabSaleRPS {
				for _, t := range LabTimeoutMS {
					c := DefaultConfig()
					c.Policy, c.Retries, c.SaleRPS, c.TimeoutMS = p, r, s, t
					out = append(out, c)
				}
			}
		}
	}
	return out
}
