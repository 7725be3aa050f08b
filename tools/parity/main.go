// Command parity prints the Result of sim.Run for a fixed list of Configs,
// one line each, so that the same program built for several platforms can
// be compared byte for byte (DESIGN.md, "Determinism").
//
// Each line is a label, a space and the compact JSON of the Result:
//
//	lab/fifo/r0/s150/t2000 {"model_version":1,"config":{...},...}
//	samples/sale {...}
//	random/07/codel/backoff {...}
//	series/sale {...}
//
// The list is the lab's 162 Configs (sim.Lab), every named sample
// (sim.Samples), 50 random valid Configs drawn from a fixed seed by a
// generator of this tool's own (half of them asking for a series), and
// every sample again asking for its series at the step the command line
// uses (sim.SeriesStep), in that order. The generator uses
// math/rand/v2's PCG, whose output is the same on every platform, and only
// operations that round the same everywhere, so the Configs themselves are
// identical on every platform; the engine's own randomness is its own
// business.
//
// Usage:
//
//	parity [-only lab|samples|random|series]
//
// The parity test (parity_test.go) builds this program natively, for
// js/wasm (run under Node) and for linux/arm64 (run under qemu-aarch64), and
// requires identical output.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "parity:", err)
		os.Exit(1)
	}
}

// Sets of Configs, in the order they are printed.
const (
	setLab     = "lab"
	setSamples = "samples"
	setRandom  = "random"
	setSeries  = "series"
)

// randomCount is how many random Configs the random set holds.
const randomCount = 50

// randomBudget is the most attempts a random Config may be expected to send
// (sim.Config.ExpectedAttempts), to keep the set quick under Node and qemu.
const randomBudget = 60_000

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("parity", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("only", "", "print only one set: lab, samples, random or series")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return nil // -h: the usage is all that was asked for
	} else if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: the only flag is -only lab|samples|random|series", fs.Arg(0))
	}
	switch *only {
	case "", setLab, setSamples, setRandom, setSeries:
	default:
		return fmt.Errorf("-only %q: use lab, samples, random or series", *only)
	}

	w := bufio.NewWriter(stdout)
	for _, c := range cases() {
		if *only != "" && c.Set != *only {
			continue
		}
		line, err := c.line()
		if err != nil {
			return err
		}
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return w.Flush()
}

// parityCase is one Config to run, with the label its line starts with.
type parityCase struct {
	Set    string // setLab, setSamples or setRandom
	Label  string // such as "lab/fifo/r0/s150/t2000"; no spaces
	Config sim.Config
}

// cases returns every Config the program runs, in order.
func cases() []parityCase {
	var out []parityCase
	for _, c := range sim.Lab() {
		label := fmt.Sprintf("lab/%s/r%d/s%s/t%s", c.Policy, c.Retries, num(c.SaleRPS), num(c.TimeoutMS))
		if c.Client != sim.Fixed {
			label += "/" + c.Client.String()
		}
		out = append(out, parityCase{setLab, label, c})
	}
	for _, s := range sim.Samples() {
		out = append(out, parityCase{setSamples, "samples/" + s.Key, s.Config})
	}
	for i, c := range randomConfigs() {
		out = append(out, parityCase{setRandom, fmt.Sprintf("random/%02d/%s/%s", i, c.Policy, c.Client), c})
	}
	for _, s := range sim.Samples() {
		c := s.Config
		c.SeriesStepS = sim.SeriesStep(c.DurationS)
		out = append(out, parityCase{setSeries, "series/" + s.Key, c})
	}
	return out
}

// line runs the case and returns its output line, newline included. A run
// that fails or panics is an error naming the case and its Config.
func (c parityCase) line() (line []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: sim.Run panicked: %v\nconfig: %s", c.Label, p, configJSON(c.Config))
		}
	}()
	res, err := sim.Run(c.Config)
	if err != nil {
		return nil, fmt.Errorf("%s: sim.Run: %w\nconfig: %s", c.Label, err, configJSON(c.Config))
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("%s: encoding the result: %w", c.Label, err)
	}
	line = make([]byte, 0, len(c.Label)+len(b)+2)
	line = append(line, c.Label...)
	line = append(line, ' ')
	line = append(line, b...)
	return append(line, '\n'), nil
}

func configJSON(c sim.Config) string {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Sprintf("%+v", c)
	}
	return string(b)
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// randomConfigs returns the random set: randomCount valid Configs drawn
// from PCG(1, 2), each expected to send at most randomBudget attempts
// (sim.Config.ExpectedAttempts, which rounds the same on every platform). A
// draw that fails Validate or is over budget is drawn again, so the set
// depends only on the generator below and on Validate.
func randomConfigs() []sim.Config {
	g := generator{r: rand.New(rand.NewPCG(1, 2)), hops: &generator{r: rand.New(rand.NewPCG(3, 4))}}
	out := make([]sim.Config, 0, randomCount)
	for draws := 0; len(out) < randomCount; draws++ {
		if draws > 1000*randomCount {
			panic("parity: the generator draws almost no valid Configs")
		}
		c := g.config()
		if n := c.ExpectedAttempts(); n > randomBudget {
			g.shrink(&c, randomBudget/n)
		}
		if c.Validate() != nil || c.ExpectedAttempts() > randomBudget {
			continue
		}
		out = append(out, c)
	}
	return out
}

// generator draws Configs across the fields' valid ranges, favouring the
// edges (zeros, bounds) and the regimes that matter (load near capacity).
//
// Every float it makes is an integer, or a quotient or product of two
// floats, each rounded once and the same way on every platform: no
// math.Exp or math.Pow, and no a*b + c that a compiler could fuse.
type generator struct {
	r *rand.Rand
	// hops draws the chains (rule 40) apart from r, so that adding them
	// left every other field of the set as it was
	hops *generator
}

// chance is true with probability p.
func (g generator) chance(p float64) bool { return g.r.Float64() < p }

// between is a whole number in [lo, hi].
func (g generator) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

// spread is a number in [lo, hi) whose decade is uniform: lo and hi are
// powers of ten, and the mantissa has three decimals.
func (g generator) spread(lo, hi float64) float64 {
	decades := 0
	for d := lo; d < hi; d = float64(d * 10) {
		decades++
	}
	d := lo
	for k := g.r.IntN(decades); k > 0; k-- {
		d = float64(d * 10)
	}
	mantissa := float64(g.between(1000, 9999)) / 1000 // [1, 10)
	return float64(mantissa * d)
}

// zeroOr is 0 with probability p, else spread(lo, hi).
func (g generator) zeroOr(p, lo, hi float64) float64 {
	if g.chance(p) {
		return 0
	}
	return g.spread(lo, hi)
}

// draw sets v, setting s's field, to a value in s's range: a whole number
// from its least to at most 1,000 past it, a time spread over decades,
// or another number in a thousandth of its range.
func (g generator) draw(s sim.Setting, v reflect.Value) {
	switch {
	case s.Kind == sim.Whole:
		v.SetInt(int64(g.between(int(s.Min), int(min(s.Max, s.Min+1000)))))
	case s.Time():
		v.SetFloat(min(g.spread(0.1, 100_000), s.Max))
	default:
		k := g.between(0, 999) // a thousandth of the range: never Max, which a MaxOpen setting refuses
		v.SetFloat(s.Min + float64(float64(s.Max-s.Min)*float64(k)/1000))
	}
}

// shrink scales the traffic down by about f (f < 1), and the workers with
// it, so that the load on the workers stays much the same.
func (g generator) shrink(c *sim.Config, f float64) {
	f = float64(f * float64(g.between(500, 999)) / 1000)
	c.NormalRPS = float64(c.NormalRPS * f)
	c.SaleRPS = float64(c.SaleRPS * f)
	if c.Arrivals != "" { // a rate table's rates (rule 2b)
		scale := c.ArrivalsScale
		if scale == 0 {
			scale = 1
		}
		c.ArrivalsScale = max(0.01, float64(scale*f))
	}
	c.Workers = max(1, int(math.Round(float64(float64(c.Workers)*f))))
	c.LossWorkers = min(c.LossWorkers, c.Workers)
}

func (g generator) config() sim.Config {
	c := sim.DefaultConfig()
	c.Policy = sim.Policies[g.r.IntN(len(sim.Policies))]

	switch {
	case g.chance(0.6):
		c.Workers = g.between(1, 16)
	case g.chance(0.75):
		c.Workers = g.between(17, 300)
	default:
		c.Workers = g.between(1000, 100_000)
	}
	switch {
	case g.chance(0.05):
		c.ServiceMS = 0.001 // the smallest allowed
	case g.chance(0.8):
		c.ServiceMS = g.spread(1, 1000)
	default:
		c.ServiceMS = g.spread(0.001, 1e6)
	}

	// Times: a run of 10 s to a day, with a sale inside it that ends at
	// least 10 s before the end.
	switch {
	case g.chance(0.05):
		c.DurationS = 10
	case g.chance(0.9):
		c.DurationS = float64(g.between(100, 6000)) / 10
	default:
		c.DurationS = float64(g.between(600, 86_400))
	}
	room := int(c.DurationS) - 10 // whole seconds a sale may use
	switch {
	case g.chance(0.1):
		c.SaleStartS, c.SaleS = 0, 0
	case g.chance(0.1):
		c.SaleStartS = 0
		c.SaleS = float64(room) // ends exactly 10 s before the end
	default:
		c.SaleStartS = float64(g.between(0, room))
		c.SaleS = float64(g.between(0, room-int(c.SaleStartS)))
	}

	// Traffic: half the time relative to capacity, where the policies
	// differ; otherwise anywhere. Zero rates happen.
	capacity := c.CapacityRPS()
	switch {
	case g.chance(0.7):
		c.NormalRPS = float64(capacity * float64(g.between(0, 1200)) / 1000)
		c.SaleRPS = float64(capacity * float64(g.between(500, 3000)) / 1000)
	default:
		c.NormalRPS = g.spread(0.01, 10_000)
		c.SaleRPS = g.spread(0.01, 10_000)
	}
	if g.chance(0.05) {
		c.NormalRPS = 0
	}
	if g.chance(0.05) {
		c.SaleRPS = 0
	}
	if g.chance(0.05) {
		c.SaleRPS = c.NormalRPS // no sale
	}

	// Clients.
	switch {
	case g.chance(0.05):
		c.TimeoutMS = 0.001
	case g.chance(0.6): // a few services' worth, where the policies differ
		c.TimeoutMS = float64(c.ServiceMS * float64(g.between(4, 400)) / 4)
	case g.chance(0.8):
		c.TimeoutMS = g.spread(10, 100_000)
	default:
		c.TimeoutMS = g.spread(0.001, 1e6)
	}
	c.TimeoutMS = min(c.TimeoutMS, 3_600_000)
	switch {
	case g.chance(0.4):
		c.Retries = 0
	case g.chance(0.65):
		c.Retries = g.between(1, 3)
	default:
		c.Retries = g.between(4, 100)
	}
	c.RetryDelayMS = g.zeroOr(0.1, 0.1, 100_000)
	c.RetryJitterMS = g.zeroOr(0.5, 0.1, 100_000)

	// Policy knobs.
	switch {
	case g.chance(0.5):
		c.Queue = 0
	case g.chance(0.9):
		c.Queue = g.between(1, 2000)
	default:
		c.Queue = g.between(2000, 10_000_000)
	}
	c.RefusalCostMS = g.zeroOr(0.5, 0.001, 1000)
	switch {
	case g.chance(0.1):
		c.OrderShare = 0
	case g.chance(0.1):
		c.OrderShare = 1
	default:
		c.OrderShare = float64(g.between(0, 1000)) / 1000
	}
	c.CoDelTargetMS = g.zeroOr(0.1, 0.1, 1000)
	c.CoDelIntervalMS = g.spread(1, 10_000)

	// Client strategies and their knobs, each across its valid range.
	c.Client = sim.Clients[g.r.IntN(len(sim.Clients))]
	c.BackoffBaseMS = g.zeroOr(0.05, 0.1, 100_000)
	c.BackoffCapMS = min(g.zeroOr(0.05, 1, 1e6), 3_600_000)
	switch {
	case g.chance(0.1):
		c.BudgetTokens = 0
	case g.chance(0.9):
		c.BudgetTokens = g.between(1, 1000)
	default:
		c.BudgetTokens = g.between(1000, 1_000_000)
	}
	c.BudgetRefusalCost = g.between(1, 20)
	c.BudgetTimeoutCost = g.between(1, 20)
	if g.chance(0.05) {
		c.BudgetTimeoutCost = 1_000_000
	}
	c.BudgetRefill = g.between(0, 10)
	c.RatioMax = float64(g.between(0, 900)) / 1000
	c.ThrottleK = float64(g.between(1000, 100_000)) / 1000
	c.ClientWindowS = float64(g.between(10, 36_000)) / 10

	// The sale's shape: a ramp, and waves, when they fit.
	if g.chance(0.3) && c.SaleS >= 2 {
		c.SaleRampS = float64(g.between(1, int(c.SaleS)/2))
	}
	if g.chance(0.3) && c.SaleS > 0 {
		c.SaleWaves = g.between(2, 5)
		c.SaleEveryS = c.SaleS + float64(g.between(0, 100))
	}

	// Incidents: a third of the time a capacity loss, a third a slowdown,
	// each from a whole second for a while or the rest of the run.
	span := func() (start, length float64) {
		start = float64(g.between(0, room))
		if g.chance(0.8) {
			length = float64(g.between(1, max(1, room-int(start))))
		}
		return start, length
	}
	if g.chance(0.35) {
		c.LossWorkers = g.between(1, c.Workers)
		c.LossStartS, c.LossS = span()
	}
	if g.chance(0.2) {
		c.HeapRequests = g.between(1, 5000)
	}
	if g.chance(0.35) {
		c.SlowFactor = float64(g.between(1000, 100_000)) / 1000
		c.SlowStartS, c.SlowS = span()
	}

	// The service's shape and the people's patience (rules 3a and 4a).
	c.Service = sim.ServiceShapes[g.r.IntN(len(sim.ServiceShapes))]
	if c.Service == sim.LognormalService {
		// A p99 from just above the mean to the heaviest tail a log-normal
		// allows, 14.97 times it.
		f := float64(g.between(1001, 14_960)) / 1000
		c.ServiceP99MS = min(float64(c.ServiceMS*f), 3_600_000)
	}
	if g.chance(0.5) {
		c.Patience = sim.ExponentialPatience
		c.PatienceMS = min(float64(c.TimeoutMS*float64(g.between(1, 2000))/1000), 3_600_000)
	}

	// The service's own queue behind an adaptive limit (limit_queue).
	if g.chance(0.5) {
		c.LimitQueue = sim.LimitSkip
	}

	// The policies' own settings (sim.Policy.Declares): each 0, its
	// library's default, half the time; else anywhere in its range.
	for _, p := range sim.Policies {
		for _, s := range p.Declares() {
			if !g.chance(0.5) {
				g.draw(s, s.Of(&c))
			}
		}
	}

	switch {
	case g.chance(0.05):
		c.Seed = 0
	case g.chance(0.05):
		c.Seed = sim.MaxSeed
	default:
		c.Seed = g.r.Uint64N(sim.MaxSeed + 1)
	}

	// The series: none half the time; else the command line's step, or
	// one on no grid, unless it would make too many points.
	switch {
	case g.chance(0.5):
		c.SeriesStepS = 0
	case g.chance(0.5):
		c.SeriesStepS = sim.SeriesStep(c.DurationS)
	default:
		c.SeriesStepS = g.spread(0.1, 1000)
		if c.DurationS/c.SeriesStepS > sim.MaxSeriesPoints {
			c.SeriesStepS = sim.SeriesStep(c.DurationS)
		}
	}

	// Your own traffic (rules 2b, 3b), drawn last: a rate table a fifth
	// of the time, in place of the rates and the sale's shape, with a
	// scale, a shift and a threshold half the time each; a latency
	// histogram a fifth of the time, +Inf last half the time.
	if g.chance(0.2) {
		c.SaleRampS, c.SaleWaves, c.SaleEveryS = 0, 0, 0
		var rows []sim.RateRow
		t := 0
		for n := g.between(1, 20); n > 0; n-- {
			rows = append(rows, sim.RateRow{TimeS: float64(t), RPS: float64(g.between(0, 3000)) / 10})
			t += g.between(1, int(c.DurationS)/5+1)
		}
		c.Arrivals = sim.FormatRates(rows)
		if g.chance(0.5) {
			c.ArrivalsScale = float64(g.between(10, 300)) / 100
		}
		if g.chance(0.5) {
			c.ArrivalsShiftS = float64(g.between(-int(c.DurationS), int(c.DurationS)))
		}
		if g.chance(0.5) {
			c.SaleThresholdRPS = float64(g.between(1, 300))
		}
	}
	if g.chance(0.2) {
		c.Service, c.ServiceP99MS = sim.HistogramService, 0
		var bs []sim.Bucket
		le, n := float64(g.between(1, 50)), 0.0
		for k := g.between(1, 15); k > 0; k-- {
			n += float64(g.between(0, 100))
			bs = append(bs, sim.Bucket{LeMS: le, Count: n})
			le += float64(g.between(1, 200))
		}
		bs[len(bs)-1].Count++
		if g.chance(0.5) {
			bs = append(bs, sim.Bucket{LeMS: math.Inf(1), Count: bs[len(bs)-1].Count + float64(g.between(1, 20))})
		}
		c.ServiceHistogram = sim.FormatBuckets(bs)
	}

	// A chain (rule 40), drawn last, a quarter of the time: 1 to 3 hops,
	// each with its own service, policy and proxy.
	if h := g.hops; h != nil && h.chance(0.25) {
		var lines []string
		for k := h.between(1, sim.MaxHops-1); k > 0; k-- {
			timeout := h.spread(1, 60_000)
			line := fmt.Sprintf("h%d: workers=%d service_ms=%s policy=%s timeout_ms=%s retries=%d",
				k, h.between(1, 300), num(h.spread(0.01, 1000)), sim.Policies[h.r.IntN(len(sim.Policies))], num(timeout), h.between(0, 3))
			if h.chance(0.5) {
				line += " per_try_timeout_ms=" + num(float64(timeout*float64(h.between(1, 1000))/1000))
			}
			if h.chance(0.5) {
				line += " backoff=envoy backoff_base_ms=" + num(max(1, math.Round(h.spread(0.1, 100)))) + " backoff_max_ms=" + num(math.Round(h.spread(100, 10_000)))
			}
			if h.chance(0.3) {
				line += " errors=" + num(float64(h.between(0, 1000))/1000)
			}
			if h.chance(0.3) {
				line += " queue=" + strconv.Itoa(h.between(1, 2000))
			}
			if h.chance(0.5) { // a preset, read before the keys above
				presets := sim.ProxyPresetKeys()
				line += " proxy=" + presets[h.r.IntN(len(presets))]
			}
			if h.chance(0.5) {
				line += " budget=" + []string{"none", "envoy", "max-retries", "linkerd", "grpc"}[h.r.IntN(5)]
			}
			lines = append(lines, line)
		}
		c.Hops = strings.Join(lines, "\n")
	}
	return c
}
