package sim

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// Config is one run of the simulation: the service, its traffic, its clients
// and its policy. It is plain data; the JSON keys are the ones the page's
// URL, the form and the command line's flags use. DefaultConfig gives the
// post's shop. A Config decoded from JSON should start from DefaultConfig,
// so that a missing key keeps its default.
type Config struct {
	// Policy is what the service does with a request that does not fit
	// (default fifo, the unbounded queue).
	Policy Policy `json:"policy"`
	// Workers is the number of identical workers, each serving one request
	// at a time (default 8).
	Workers int `json:"workers"`
	// ServiceMS is the mean service time in milliseconds; each service time
	// is drawn from Service's distribution with this mean (default 80). The
	// mean alone fixes capacity, Workers / ServiceMS.
	ServiceMS float64 `json:"service_ms"`
	// Service is the shape of the service times: exponential (the post's,
	// default), lognormal (with ServiceP99MS) or constant (rule 3a).
	Service ServiceShape `json:"service,omitempty"`
	// ServiceP99MS is the lognormal service's 99th percentile in
	// milliseconds, above ServiceMS and at most MaxLognormalTail (14.97)
	// times it; 0 for the other shapes, which it does not apply to.
	ServiceP99MS float64 `json:"service_p99_ms,omitempty"`
	// ServiceHistogram is a latency histogram to draw service times from,
	// with Service histogram (rule 3b): Prometheus's buckets, a bound and
	// its cumulative count a row, as CSV (le in seconds, or le_ms) or the
	// compact form "5:120,10:400,inf:1000" (ms); see ParseBuckets. Its
	// mean is the mean service time, in place of ServiceMS.
	ServiceHistogram string `json:"service_histogram,omitempty"`
	// NormalRPS is the arrival rate of new people outside the sale, per
	// second (default 70).
	NormalRPS float64 `json:"normal_rps"`
	// SaleRPS is the arrival rate of new people during the sale, per second
	// (default 150). Set it to NormalRPS for a morning with no sale.
	SaleRPS float64 `json:"sale_rps"`
	// SaleStartS is when the sale starts, in seconds from the start of the
	// run (default 60).
	SaleStartS float64 `json:"sale_start_s"`
	// SaleS is how long the sale lasts, in seconds (default 60); with
	// SaleWaves, how long each wave lasts.
	SaleS float64 `json:"sale_s"`
	// SaleRampS shapes each wave of the sale (see shape.go, rule 25): the
	// rate climbs in a straight line from NormalRPS to SaleRPS over its
	// first SaleRampS seconds and falls back over its last SaleRampS
	// (default 0, the post's rectangle; at most half of SaleS).
	SaleRampS float64 `json:"sale_ramp_s,omitempty"`
	// SaleWaves is how many times the sale comes (default 0, once, as 1):
	// a second wave, or a sale that repeats every SaleEveryS seconds.
	SaleWaves int `json:"sale_waves,omitempty"`
	// SaleEveryS is the time from one wave's start to the next's, in
	// seconds (at least SaleS; needed with two waves or more).
	SaleEveryS float64 `json:"sale_every_s,omitempty"`
	// Arrivals is a rate over time to replay in place of NormalRPS and
	// SaleRPS (rule 2b): a time and a rate a second a row, as CSV with a
	// header (time_s,rps, or a dashboard's export) or the compact form
	// "0:70,60:150,120:70"; see ParseRates. Each rate holds until the next
	// row's time, the last to the run's end. Empty (the default): the
	// normal and sale rates.
	Arrivals string `json:"arrivals,omitempty"`
	// ArrivalsScale multiplies every rate of Arrivals: 1.5 for "what if
	// the sale is half again as big" (default 0, which is 1).
	ArrivalsScale float64 `json:"arrivals_scale,omitempty"`
	// ArrivalsShiftS moves Arrivals in time, s: its first row plays at
	// this time of the run (negative: the run starts this far into the
	// table). Default 0.
	ArrivalsShiftS float64 `json:"arrivals_shift_s,omitempty"`
	// SaleThresholdRPS, above 0, finds the sale's window in Arrivals: the
	// first span of the run whose scaled rate is above it, in place of
	// SaleStartS and SaleS (default 0: they set it).
	SaleThresholdRPS float64 `json:"sale_threshold_rps,omitempty"`
	// DurationS is the length of the run in seconds (default 300). Events
	// after it are not processed; nothing left is drained.
	DurationS float64 `json:"duration_s"`
	// TimeoutMS is how long each attempt's client waits for an answer
	// before giving up, in milliseconds (default 2000, the app's 2 seconds).
	TimeoutMS float64 `json:"timeout_ms"`
	// Patience is how people give up before the timeout: none (default,
	// everyone waits the timeout) or exponential with mean PatienceMS
	// (rule 4a). A person who gives up leaves and does not retry.
	Patience PatienceShape `json:"patience,omitempty"`
	// PatienceMS is the exponential patience's mean, in milliseconds; 0
	// with no patience, which it does not apply to.
	PatienceMS float64 `json:"patience_ms,omitempty"`
	// Retries is how many more attempts a client sends after a timeout or a
	// refusal it heard (default 0; the post also uses 1 and 3).
	Retries int `json:"retries"`
	// RetryDelayMS is how long a client waits before each retry, in
	// milliseconds, counted from the timeout or the refusal (default 1000).
	RetryDelayMS float64 `json:"retry_delay_ms"`
	// RetryJitterMS adds to each retry delay a uniform random amount in
	// [0, RetryJitterMS) milliseconds (default 0, no jitter).
	RetryJitterMS float64 `json:"retry_jitter_ms"`
	// Queue is the most requests that may wait for the bounded and priority
	// policies (default 0, automatic: a quarter of the timeout's worth of
	// work, 50 at the shop's numbers; see QueueBound). Other policies
	// ignore it.
	Queue int `json:"queue"`
	// RefusalCostMS is the worker time a refusal takes before the client
	// hears "no", in milliseconds (default 0, refusing is free).
	RefusalCostMS float64 `json:"refusal_cost_ms"`
	// OrderShare is the probability that a person is placing an order
	// rather than asking for a price preview (default 0.2).
	OrderShare float64 `json:"order_share"`
	// CoDelTargetMS is M in Fail at Scale, the wait allowed to a request
	// that arrives while the queue has not been empty for CoDelIntervalMS,
	// in milliseconds (default 5).
	CoDelTargetMS float64 `json:"codel_target_ms"`
	// CoDelIntervalMS is N in Fail at Scale, in milliseconds (default 100).
	CoDelIntervalMS float64 `json:"codel_interval_ms"`
	// Client is how clients retry: fixed (the post's, default), backoff,
	// budget, ratio, retry-after or throttle. See Client.
	Client Client `json:"client"`
	// BackoffBaseMS and BackoffCapMS are the backoff client's base and cap,
	// in milliseconds (defaults 1000, the post's retry delay, and 20000, the
	// AWS SDKs' largest backoff).
	BackoffBaseMS float64 `json:"backoff_base_ms"`
	BackoffCapMS  float64 `json:"backoff_cap_ms"`
	// BudgetTokens is the budget client's quota of tokens (default 500, as
	// the AWS SDKs).
	BudgetTokens int `json:"budget_tokens"`
	// BudgetRefusalCost and BudgetTimeoutCost are the tokens a retry costs
	// after a refusal and after a timeout (defaults 5 and 10, as the AWS
	// SDKs).
	BudgetRefusalCost int `json:"budget_refusal_cost"`
	BudgetTimeoutCost int `json:"budget_timeout_cost"`
	// BudgetRefill is the tokens an answered first attempt puts back
	// (default 1; an answered retry refunds its own cost).
	BudgetRefill int `json:"budget_refill"`
	// RatioMax is the ratio client's largest share of retries among the
	// requests sent in the last ClientWindowS (default 0.1, the SRE book's
	// 10%).
	RatioMax float64 `json:"ratio_max"`
	// ThrottleK is the throttle client's K: it sends freely until requests
	// are K times what is accepted (default 2, the SRE book's).
	ThrottleK float64 `json:"throttle_k"`
	// ClientWindowS is the history the ratio and throttle clients keep, in
	// seconds (default 120, the SRE book's two minutes).
	ClientWindowS float64 `json:"client_window_s"`
	// The incidents (see incident.go and MODEL.md's rules 22 to 24): a
	// capacity loss and a slowdown, each from a time for a while. Their
	// zero values mean none, as in the post.
	//
	// LossWorkers is how many workers are gone during the loss (default 0,
	// none; at most Workers). The idle ones go first; then those serving,
	// whose requests are lost and whose clients see the timeout.
	LossWorkers int `json:"loss_workers,omitempty"`
	// LossStartS is when the workers go, in seconds from the start of the
	// run (default 0).
	LossStartS float64 `json:"loss_start_s,omitempty"`
	// LossS is how long they stay gone, in seconds; 0 (the default) keeps
	// them gone for the rest of the run.
	LossS float64 `json:"loss_s,omitempty"`
	// SlowFactor multiplies every service time drawn during the slowdown
	// (default 0, none; 3 for a dependency three times slower). A request
	// already in service keeps the time it drew.
	SlowFactor float64 `json:"slow_factor,omitempty"`
	// SlowStartS is when the slowdown starts, in seconds (default 0).
	SlowStartS float64 `json:"slow_start_s,omitempty"`
	// SlowS is how long it lasts, in seconds; 0 (the default) lasts for the
	// rest of the run.
	SlowS float64 `json:"slow_s,omitempty"`
	// HeapRequests makes latency grow with load (rule 26, load.go): the
	// service's memory holds this many waiting requests, and with q
	// waiting each service time drawn is multiplied by HeapRequests /
	// (HeapRequests - q), the garbage collector's share of a fixed heap
	// (default 0: latency does not depend on load, as in the post).
	HeapRequests int `json:"heap_requests,omitempty"`
	// Seed selects the random streams; the same seed gives the same run on
	// every platform (default 1). At most 2^53-1, so that it survives a
	// round trip through JavaScript.
	Seed uint64 `json:"seed"`
	// SeriesStepS asks the run for its time series (Result.Series), one
	// point every SeriesStepS seconds (default 0: no series, and the run
	// pays nothing for it). SeriesStep gives the step the command line and
	// the page use: 1 s for the shop's 300 s run, and at most
	// MaxSeriesPoints points for any run it is given.
	SeriesStepS float64 `json:"series_step_s,omitempty"`

	// LimitQueue is the service's own queue behind an adaptive limit:
	// the post's unbounded one, which serves a request whose client has
	// gone (default), or skip, which drops it when a worker picks it up
	// (rule 7). Only the adaptive limits read it.
	LimitQueue LimitQueue `json:"limit_queue,omitempty"`
	// The adaptive limits' own settings (policy_aimd.go, ...), each 0
	// for its library's default.
	AIMDSettings
	VegasSettings
	Gradient2Settings
	EnvoySettings
	BBRSettings

	// Hops are the services behind this one, the entry (rule 40), as text
	// (ParseHops): a hop a line, "payments: workers=4 service_ms=50
	// proxy=envoy", each called by the one before it through the proxy in
	// front of it. At most MaxHops-1 lines; "" for a service alone, as in
	// the post.
	Hops string `json:"hops,omitempty"`
}

// DefaultConfig returns the post's shop: 8 workers at 80 ms, 70 people a
// second, a sale of 150 a second from 60 s to 120 s, a 2 s timeout, no
// retries, the unbounded queue, seed 1.
func DefaultConfig() Config {
	return Config{
		Policy:            FIFO,
		Workers:           8,
		ServiceMS:         80,
		NormalRPS:         70,
		SaleRPS:           150,
		SaleStartS:        60,
		SaleS:             60,
		DurationS:         300,
		TimeoutMS:         2000,
		Retries:           0,
		RetryDelayMS:      1000,
		Queue:             0,
		RefusalCostMS:     0,
		OrderShare:        0.2,
		CoDelTargetMS:     5,
		CoDelIntervalMS:   100,
		Client:            Fixed,
		BackoffBaseMS:     1000,
		BackoffCapMS:      20000,
		BudgetTokens:      500,
		BudgetRefusalCost: 5,
		BudgetTimeoutCost: 10,
		BudgetRefill:      1,
		RatioMax:          0.1,
		ThrottleK:         2,
		ClientWindowS:     120,
		Seed:              1,
	}
}

// Limits on a Config, so that no input can hang a page or exhaust memory.
const (
	// MaxAttempts is the budget of a run: the most attempts it may be
	// expected to send (people arriving times 1 + retries). A default run
	// expects 25,800; the lab's largest, 115,200; an hour at 1,000 a second,
	// 3,600,000. A run's memory follows the attempts in flight. On the
	// arrival-order path (arrivalorder.go) one waiting costs its leaving
	// time, 8 bytes, at most 16 as the queue grows: the largest run the
	// budget accepts, 9.9 M attempts nearly all waiting at the end, peaks
	// at 27 to 33 MB. On the pickup path (pickup.go: lifo, with the fixed
	// client's retries, and priority without) one waiting costs 8 bytes
	// under priority and 16 under lifo; with retries, each attempt costs
	// 24 to 48 bytes more from its arrival to its timeout, answered or
	// not, and each retry not yet due 32 to 64: the largest run under
	// priority, its bound at the most, takes 75 MB of memory in all. On the
	// event loop (what neither path takes: priority's retries, the clients
	// that count answers, a loss, patience, the adaptive limits, refusals
	// that cost time) each waiting costs 52 to 76 bytes (the attempt, its
	// place in the queue and, if a retry may follow, its timeout), so an
	// unbounded queue that holds the whole budget at the end could hold up
	// to 0.76 GB live. The command line keeps its heap to a soft limit of
	// 640 MiB, so the most any valid input asks of it is under 0.8 GB (0.65
	// to 0.70 GB measured, 0.95 GB without the limit; tools/shedsim's
	// BenchmarkWorstCaseMemory fails over 0.8 GB). (The page keeps a budget
	// of its own, a fifth of this.)
	MaxAttempts = 10_000_000
	// MaxSeed is the largest seed, 2^53-1, the largest integer a JavaScript
	// number holds exactly.
	MaxSeed = 1<<53 - 1
	// MaxWorkers is the most workers a Config may have.
	MaxWorkers  = maxWorkers
	maxTokens   = 1_000_000
	maxWorkers  = 100_000
	maxRetries  = 100
	maxQueue    = 10_000_000
	maxRPS      = limits.MaxRPS
	maxDuration = 86_400 // seconds: one day
	maxMS       = limits.MaxMS
	minService  = limits.MinServiceMS
	windowNS    = 10_000_000_000 // 10 s windows (rule 17)
)

// FieldError is a problem with one field of a Config: the field's JSON key
// and a message that gives the value and what to use instead.
type FieldError struct {
	Field string // JSON key, such as "workers"
	Msg   string // what is wrong and how to fix it, naming settings by their JSON keys
	// says is Msg with each setting it names marked {key}, or {key=value}
	// for a setting with a value, for Say; "" when Msg names none.
	says string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Says is Msg with each setting it names marked {key} or {key=value}, for
// a message built on it (NewFieldError); Msg when it names none.
func (e *FieldError) Says() string {
	if e.says == "" {
		return e.Msg
	}
	return e.says
}

// Spelling writes a setting as the input that gave it spells it: a key
// alone ("duration_s"), or a key with the value that makes another setting
// count ("client", "budget"). The command line writes "--duration-s" and
// "--client budget"; JSONSpelling is the form's, the URL's and the JS API's.
type Spelling func(key, value string) string

// JSONSpelling writes a setting by its JSON key: "duration_s", and
// "client budget" for a key with a value.
func JSONSpelling(key, value string) string {
	if value == "" {
		return key
	}
	return key + " " + value
}

// Say is Msg with the settings it names written by spell, so that a
// message on the command line says "--duration-s" where the page says
// "duration_s".
func (e *FieldError) Say(spell Spelling) string {
	if e.says == "" {
		return e.Msg
	}
	return spellOut(e.says, spell)
}

// spellOut writes the {key} and {key=value} marks in says with spell.
func spellOut(says string, spell Spelling) string {
	var b strings.Builder
	for {
		before, rest, ok := strings.Cut(says, "{")
		b.WriteString(before)
		if !ok {
			return b.String()
		}
		mark, after, ok := strings.Cut(rest, "}")
		if !ok {
			b.WriteString("{" + rest)
			return b.String()
		}
		key, value, _ := strings.Cut(mark, "=")
		b.WriteString(spell(key, value))
		says = after
	}
}

// NewFieldError is a FieldError whose message names other settings, each
// marked {key}, or {key=value} for a key with the value that would make a
// setting count: Msg writes them by their JSON keys, Say as the caller
// spells them.
func NewFieldError(field, says string) *FieldError {
	return &FieldError{Field: field, Msg: spellOut(says, JSONSpelling), says: says}
}

// FieldErrors returns the FieldErrors inside err (as Validate joins them,
// and through any wrapping), in order.
func FieldErrors(err error) []*FieldError {
	var out []*FieldError
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case *FieldError:
			out = append(out, e)
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				walk(inner)
			}
		case interface{ Unwrap() error }:
			walk(e.Unwrap())
		}
	}
	if err != nil {
		walk(err)
	}
	return out
}

// Validate checks every field and returns the problems joined, each a
// *FieldError naming the field, the value and the allowed range; nil when the
// Config can run.
func (c Config) Validate() error {
	c = c.Resolved()
	var errs []error
	bad := func(field, msg string) {
		errs = append(errs, NewFieldError(field, msg)) // msg may mark settings it names: {service_ms}
	}
	real := func(field string, x, lo, hi float64, unit string, loOpen bool) bool {
		use := "use a number from " + limits.Num(lo) + " to " + limits.Num(hi) + unit
		if loOpen { // lo itself is refused: say so whatever the value
			use = "use a number above " + limits.Num(lo) + ", up to " + limits.Num(hi) + unit
		}
		switch {
		case math.IsNaN(x):
			bad(field, limits.Num(x)+" is not a number: "+use)
		case math.IsInf(x, 0):
			bad(field, limits.Num(x)+" is not a finite number: "+use)
		case x < lo || loOpen && x == lo:
			bad(field, limits.Num(x)+" is too small: "+use)
		case x > hi:
			bad(field, limits.Num(x)+" is too large: "+use)
		case x != 0 && nsPer(field) > 0 && float64(math.Abs(x)*nsPer(field)) < 0.5: // rounds to no time at all (rule 1)
			least := "use 0 or at least "
			if loOpen {
				least = "use at least "
			}
			bad(field, limits.Num(x)+" rounds to 0 ns, under the engine's 1 ns: "+least+limits.Num(1/nsPer(field))+unit)
		default:
			return true
		}
		return false
	}
	whole := func(field string, x, lo, hi int, unit string) {
		if x < lo || x > hi {
			bad(field, limits.Count(int64(x))+" is out of range: use a whole number from "+limits.Count(int64(lo))+" to "+limits.Count(int64(hi))+unit)
		}
	}
	if m := policyKeys.unknown(int(c.Policy)); m != "" {
		bad("policy", m)
	}
	settingsOnce.Do(indexSettings)
	v := reflect.ValueOf(&c).Elem()
	for _, s := range settings { // the settings whose range is all there is to check (setting.go)
		switch {
		case !s.validatedHere:
		case s.Zero != "" && v.FieldByIndex(s.field).IsZero(): // 0: none, or the default
		case s.Kind == Whole:
			whole(s.Key, int(v.FieldByIndex(s.field).Int()), int(s.Min), int(s.Max), s.rangeUnit())
		case s.Kind == Choice:
			if m := s.choices.unknown(int(v.FieldByIndex(s.field).Int())); m != "" {
				bad(s.Key, m)
			}
		default:
			x := v.FieldByIndex(s.field).Float()
			if real(s.Key, x, s.Min, s.Max, s.rangeUnit(), s.MinOpen) && s.MaxOpen && x == s.Max {
				bad(s.Key, limits.Num(x)+" is too large: use a number from "+limits.Num(s.Min)+" up to, but not, "+limits.Num(s.Max)+s.rangeUnit())
			}
		}
	}
	for _, p := range Policies { // what a policy's own settings' ranges cannot say
		if f := p.spec().validate; f != nil {
			f(c, bad)
		}
	}
	durOK := real("duration_s", c.DurationS, 10, maxDuration, " s", false)
	startOK := real("sale_start_s", c.SaleStartS, 0, maxDuration, " s", false)
	lenOK := real("sale_s", c.SaleS, 0, maxDuration, " s", false)
	shapeOK := c.validateShape(&errs, real, lenOK)
	c.validateTables(bad, real)
	if durOK && startOK && lenOK && shapeOK && c.SaleThresholdRPS == 0 && c.SaleEndS()+10 > c.DurationS {
		field, what := "sale_s", "the sale"
		if c.SaleWaves > 1 {
			field, what = "sale_waves", "the last wave"
		}
		errs = append(errs, NewFieldError(field, what+" ends at "+limits.Num(c.SaleEndS())+" s, too late for a "+limits.Num(c.DurationS)+" s run: end it by "+
			limits.Num(c.DurationS-10)+" s, so that a 10 s window after it can show recovery, or make {duration_s} longer"))
	}
	c.validateShapes(bad, real)
	if m := clientKeys.unknown(int(c.Client)); m != "" {
		bad("client", m)
	}
	errs = append(errs, c.validateIncidents(real, durOK)...)
	if c.HeapRequests < 0 || c.HeapRequests > maxQueue {
		bad("heap_requests", limits.Count(int64(c.HeapRequests))+" is out of range: use a whole number from 1 to "+limits.Count(maxQueue)+", or 0 for latency that does not grow with load")
	}
	if c.SeriesStepS != 0 &&
		real("series_step_s", c.SeriesStepS, 0.001, maxDuration, " s, or 0 for no series", false) && durOK {
		if n := math.Ceil(c.DurationS / c.SeriesStepS); n > MaxSeriesPoints {
			bad("series_step_s", limits.Num(c.SeriesStepS)+" s makes "+limits.Count(int64(n))+" points of a "+limits.Num(c.DurationS)+
				" s run, over the "+limits.Count(MaxSeriesPoints)+" a series may hold: use a step of at least "+
				limits.Num(math.Ceil(c.DurationS/MaxSeriesPoints*1000)/1000)+" s")
		}
	}
	if c.Seed > MaxSeed {
		bad("seed", limits.CountU(c.Seed)+" is too large: use a whole number from 0 to "+limits.CountU(MaxSeed))
	}
	if len(errs) == 0 && c.Hops != "" {
		c.validateHops(bad)
	}
	if len(errs) == 0 {
		if n := c.entryAttempts(); n <= MaxAttempts && c.ExpectedAttempts() > MaxAttempts {
			c.refuseAmplification(bad)
		} else if n > MaxAttempts {
			field := "sale_rps"
			if c.NormalRPS*(c.DurationS-c.SaleTimeS()) > c.SaleRPS*c.SaleTimeS() {
				field = "normal_rps"
			}
			if c.Arrivals != "" {
				field = "arrivals"
			}
			bad(field, "this run would send about "+limits.Count(int64(n))+" attempts, over the budget of "+
				limits.Count(MaxAttempts)+" a run: lower the traffic, the duration or the retries")
		}
	}
	return errors.Join(errs...)
}

// validateShapes checks the service shape and the patience (rules 3a and
// 4a): a shape that cannot exist, or a number given for a shape that does
// not use it, is refused with what to use instead.
func (c Config) validateShapes(bad func(field, msg string), real func(string, float64, float64, float64, string, bool) bool) {
	if m := serviceKeys.unknown(int(c.Service)); m != "" {
		bad("service", m)
	} else if c.Service != LognormalService {
		if c.ServiceP99MS != 0 {
			bad("service_p99_ms", limits.Num(c.ServiceP99MS)+" applies only to a lognormal service, and {service} is "+c.Service.String()+
				": set {service} to lognormal, or leave {service_p99_ms} out")
		}
	} else if c.ServiceP99MS == 0 {
		bad("service_p99_ms", "a lognormal service needs its 99th percentile: give {service_p99_ms} in ms, above the mean {service_ms} and at most "+
			strconv.FormatFloat(MaxLognormalTail, 'f', 2, 64)+" times it (a p99 of 600 ms, say, for a mean of 80 ms)")
	} else if real("service_p99_ms", c.ServiceP99MS, 0, maxMS, " ms", true) && c.ServiceMS >= minService && c.ServiceMS <= maxMS {
		m, q := c.ServiceMS, c.ServiceP99MS
		most := float64(MaxLognormalTail * m)
		switch {
		case q <= m:
			bad("service_p99_ms", limits.Num(q)+" ms is not above the mean {service_ms} of "+limits.Num(m)+
				" ms, and a lognormal's p99 is always above its mean: use a p99 above "+limits.Num(m)+" ms, or {service=constant} for a fixed time")
		case q > most:
			bad("service_p99_ms", limits.Num(q)+" ms is more than "+strconv.FormatFloat(MaxLognormalTail, 'f', 2, 64)+
				" times the mean {service_ms} of "+limits.Num(m)+" ms, a tail too heavy for any lognormal with that mean: use a p99 of at most "+
				strconv.FormatFloat(math.Floor(most*10)/10, 'f', -1, 64)+" ms, or a larger mean {service_ms}")
		}
	}
	if m := patienceKeys.unknown(int(c.Patience)); m != "" {
		bad("patience", m)
	} else if c.Patience == NoPatience {
		if c.PatienceMS != 0 {
			bad("patience_ms", limits.Num(c.PatienceMS)+" applies only to people with patience, and {patience} is none: set {patience} to exponential, or leave {patience_ms} out")
		}
	} else if c.PatienceMS == 0 {
		bad("patience_ms", "exponential patience needs its mean: give {patience_ms}, the mean time in ms a person waits before giving up (3000, say)")
	} else {
		real("patience_ms", c.PatienceMS, 0, maxMS, " ms", true)
	}
}

// ExpectedAttempts is the most attempts the run is expected to send: the
// expected number of people times 1 + Retries, and in a chain the most
// tries each hop may receive as well, every layer's retries multiplied
// (rule 40). Validate refuses a Config
// whose ExpectedAttempts is over MaxAttempts.
func (c Config) ExpectedAttempts() float64 {
	n := c.entryAttempts()
	for _, k := range c.hopAttempts(n) {
		n += k
	}
	return n
}

// entryAttempts is ExpectedAttempts at the entry alone: the expected
// number of people times 1 + Retries.
func (c Config) entryAttempts() float64 {
	// Each product is rounded on its own, so no platform fuses a
	// multiply-add here and Validate decides the same everywhere.
	sale := c.SaleTimeS() // a ramp's time counted at the sale's rate: an upper bound
	people := float64(c.NormalRPS*(c.DurationS-sale)) + float64(c.SaleRPS*sale)
	if rows, ok := c.rateRows(); ok {
		people = c.tablePeople(rows)
	}
	return people * float64(1+c.Retries)
}

// CapacityRPS is how many requests a second the workers can finish on
// average: Workers / ServiceMS, in requests per second (100 at the shop's
// numbers).
func (c Config) CapacityRPS() float64 {
	return float64(c.Workers) * 1000 / c.ServiceMS
}

// QueueBound is the queue size in force for the bounded and priority
// policies: Queue, or when it is 0, round(timeout x workers / service / 4),
// a quarter of the timeout's worth of work (rule 8), at least 1.
func (c Config) QueueBound() int {
	if c.Queue > 0 {
		return c.Queue
	}
	q := math.Round(c.TimeoutMS * float64(c.Workers) / c.ServiceMS / 4)
	if !(q >= 1) {
		return 1
	}
	if q > maxQueue {
		return maxQueue
	}
	return int(q)
}

// QueueSeconds is how long a full bounded queue takes to work through:
// QueueBound / CapacityRPS, in seconds (0.5 s at the shop's numbers; 10.24 s
// for Envoy's 1,024).
func (c Config) QueueSeconds() float64 {
	return float64(c.QueueBound()) / c.CapacityRPS()
}

// SaleEndS is when the sale ends, in seconds: its last wave's end.
func (c Config) SaleEndS() float64 {
	if c.SaleWaves > 1 {
		return float64(c.SaleStartS+float64(float64(c.SaleWaves-1)*c.SaleEveryS)) + c.SaleS
	}
	return c.SaleStartS + c.SaleS
}

// Drains reports the fluid view (rule 18) for a client with the given
// retries: after the sale an unbounded queue that holds more than a timeout's
// worth of work drains only if NormalRPS x FluidTries(retries), the fixed
// client's 1 + retries, is below CapacityAfterRPS (CapacityRPS, unless an
// incident lasts the rest of the run).
func (c Config) Drains(retries int) bool {
	return c.NormalRPS*c.FluidTries(retries) < c.CapacityAfterRPS()
}

// HoldsTimeout reports whether the policy can keep a request waiting as long
// as its client's timeout: the unbounded queues always can, a bounded queue
// when the bound is at least a timeout's worth of work, the queue timeout
// when its interval is at least the timeout. Only such a queue can fill with
// work nobody waits for, so only for it does the fluid view (Drains) decide
// whether a spike can leave it stuck.
func (c Config) HoldsTimeout() bool {
	switch {
	case c.Policy.Bounds():
		return c.QueueSeconds()*1000 >= c.TimeoutMS
	case c.Policy.spec().shed == shedOverLimit:
		return max(c.CoDelIntervalMS, c.CoDelTargetMS) >= c.TimeoutMS
	default:
		return true
	}
}

// SuggestedWorkers is the fewest workers whose capacity is over the sale
// rate: floor(SaleRPS x ServiceMS / 1000) + 1 (rule 21; 13 at the shop's
// numbers).
func (c Config) SuggestedWorkers() int {
	return int(math.Floor(c.SaleRPS*c.ServiceMS/1000)) + 1
}
