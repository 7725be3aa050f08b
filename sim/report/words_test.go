package report_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// wordsConfig draws a small valid-looking Config from rng, with the edges a
// reader can type: rates of 0, a sale of 0 s or at the normal rate, no
// orders, tiny and huge service times. Validate may still refuse it.
func wordsConfig(rng *rand.Rand) sim.Config {
	logUniform := func(lo, hi float64) float64 {
		return math.Round(lo*math.Exp(rng.Float64()*math.Log(hi/lo))*1000) / 1000
	}
	c := sim.DefaultConfig()
	c.Policy = sim.Policies[rng.IntN(len(sim.Policies))]
	c.Client = sim.Clients[rng.IntN(len(sim.Clients))]
	c.Workers = 1 + rng.IntN(20)
	c.ServiceMS = logUniform(0.01, 3000)
	c.NormalRPS = logUniform(0.01, 300)
	if rng.IntN(10) == 0 {
		c.NormalRPS = 0
	}
	c.SaleRPS = logUniform(0.01, 500)
	switch rng.IntN(20) {
	case 0:
		c.SaleRPS = 0
	case 1, 2:
		c.SaleRPS = c.NormalRPS
	case 3:
		c.SaleRPS = math.Round(c.NormalRPS*997) / 1000 // a hair under: not the same rate
	}
	c.SaleStartS = float64(rng.IntN(60))
	c.SaleS = logUniform(0.01, 90)
	if rng.IntN(10) == 0 {
		c.SaleS = 0
	}
	c.DurationS = math.Ceil(c.SaleStartS+c.SaleS) + 10 + float64(rng.IntN(120))
	c.TimeoutMS = logUniform(0.1, 20000)
	c.Retries = rng.IntN(4)
	c.RetryDelayMS = logUniform(1, 5000)
	if rng.IntN(2) == 0 {
		c.Queue = 1 + rng.IntN(2000)
	}
	if rng.IntN(3) == 0 {
		c.RefusalCostMS = logUniform(0.1, 200)
	}
	c.OrderShare = float64(rng.IntN(101)) / 100
	if rng.IntN(5) == 0 {
		c.OrderShare = 0
	}
	c.Seed = rng.Uint64N(1 << 40)
	// Incidents, a third of the time each, sometimes with no sale: a loss
	// of some workers, a slowdown, for a while or the rest of the run.
	span := func() (start, length float64) {
		start = float64(rng.IntN(int(c.DurationS) - 10))
		if rng.IntN(4) > 0 {
			length = float64(1 + rng.IntN(max(1, int(c.DurationS)-10-int(start))))
		}
		return start, length
	}
	if rng.IntN(3) == 0 {
		c.LossWorkers = 1 + rng.IntN(c.Workers)
		c.LossStartS, c.LossS = span()
	}
	if rng.IntN(3) == 0 {
		c.SlowFactor = 1 + math.Round(rng.Float64()*900)/100
		c.SlowStartS, c.SlowS = span()
	}
	if c.HasIncident() && rng.IntN(2) == 0 {
		c.SaleRPS = c.NormalRPS
	}
	if rng.IntN(5) == 0 {
		c.HeapRequests = 1 + rng.IntN(2000)
	}
	// A shaped sale, a quarter of the time: ramps, waves, or both.
	if rng.IntN(4) == 0 && c.SaleS > 0 {
		if rng.IntN(2) == 0 {
			c.SaleRampS = math.Round(c.SaleS/2*rng.Float64()*100) / 100
		}
		if rng.IntN(2) == 0 {
			c.SaleWaves = 2 + rng.IntN(3)
			c.SaleEveryS = math.Ceil(c.SaleS) + float64(rng.IntN(30))
			c.DurationS = math.Ceil(c.SaleEndS()) + 10 + float64(rng.IntN(60))
		}
	}
	return c
}

var (
	reBroken   = regexp.MustCompile(`NaN|Inf\b|%!|%s|-0\.0%|(^|[\s(])-0\b`)
	reOneMany  = regexp.MustCompile(`(^|[^\d.,])1 (workers|people|requests|retries|attempts per person)\b`)
	reFromTo   = regexp.MustCompile(`from ([\d,.]+ s) to ([\d,.]+ s)`)
	reAgainst  = regexp.MustCompile(`([\d,.]+(?:e-\d+)?)/s against ([\d,.]+(?:e-\d+)?)/s`)
	reOver     = regexp.MustCompile(`capacity \(([\d,.]+)/s\) is over the sale's ([\d,.]+)/s`)
	reInsteadP = regexp.MustCompile(`([\d.]+%) (?:of [^,]*? |are )?answered instead of ([\d.]+%)`)
	reInsteadM = regexp.MustCompile(`of ([\d,.]+ m?s) instead of ([\d,.]+ m?s)`)
	reNormal   = regexp.MustCompile(`([\d,.]+(?:e-\d+)?)/s normally and a sale of ([\d,.]+(?:e-\d+)?)/s`)
)

// TestWordsOverRandomConfigs reads the simulator's words for random
// configs, edges included, as a reader of the post would: no broken
// numbers, no "1 workers", no share of nobody, and no two numbers that a
// sentence compares or spans printed alike when they differ. A helper's
// sweep of 10,000 configs found each of these once; this keeps them found.
// The post's shop and its bounded queue come first, so that every sentence
// checked is met at least once (the test counts, and says if one is not).
func TestWordsOverRandomConfigs(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 11))
	n := 150
	if testing.Short() {
		n = 30
	}
	pairs := []*regexp.Regexp{reFromTo, reAgainst, reOver, reInsteadP, reInsteadM, reNormal}
	met := map[*regexp.Regexp]int{}
	fixed := []sim.Config{shop(), shop(policy(sim.Bounded))}
	ran := 0
	for tries := 0; ran < n && tries < 20*n; tries++ {
		var c sim.Config
		if tries < len(fixed) {
			c = fixed[tries]
		} else {
			c = wordsConfig(rng)
		}
		if c.Validate() != nil || c.ExpectedAttempts() > 30_000 {
			continue
		}
		ran++
		v, err := report.Build(c)
		require.NoError(t, err)
		var b strings.Builder
		require.NoError(t, report.WriteView(&b, v))
		text := b.String()
		js, err := json.Marshal(c)
		require.NoError(t, err)
		flags := string(js)

		for _, re := range []*regexp.Regexp{reBroken, reOneMany} {
			assert.Empty(t, re.FindAllString(text, -1), "%s: %s", re, flags)
		}
		for _, re := range pairs {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				met[re]++
				if m[1] == m[2] && !(re == reAgainst && loadIsCapacity(c)) {
					t.Errorf("%q compares two numbers printed alike: %s", m[0], flags)
				}
			}
		}

		// The comparison: a share of nobody is "-", and every other share
		// is a percentage.
		for i, row := range report.ComparisonTable(v.Rows).Rows {
			r := v.Rows[i]
			for j, of := range []int{r.People, r.People, r.People, r.Orders} {
				if of == 0 {
					assert.Equal(t, "-", row[1+j], "%s, column %d: a share of nobody: %s", row[0], 1+j, flags)
				} else {
					assert.True(t, strings.HasSuffix(row[1+j], "%"), "%s, column %d: %q: %s", row[0], 1+j, row[1+j], flags)
				}
			}
		}

		// This run says "back to normal" exactly when the run is back.
		this := report.ThisRun(v.Chosen).Text
		assert.Equal(t, v.Chosen.BackToNormalS != nil, strings.HasPrefix(this, "back to normal"), "This run: %q: %s", this, flags)
		if v.Chosen.Recovery == sim.Unmeasured {
			for _, a := range v.Advice {
				assert.NotContains(t, a.Text, "not measured", "advice on an unmeasured run: %s", flags)
			}
		}
	}
	require.GreaterOrEqual(t, ran, n, "configs the generator could run")
	for _, re := range pairs {
		assert.Positive(t, met[re], "no sentence matched %s: the check never ran", re)
	}
}

// loadIsCapacity says whether "x/s against x/s" can be right: for some
// retry count the fluid view's load is exactly the capacity, which prints
// alike at any decimals.
func loadIsCapacity(c sim.Config) bool {
	for k := 0; k <= max(3, c.Retries); k++ {
		if float64(c.NormalRPS*c.FluidTries(k)) == c.CapacityRPS() {
			return true
		}
	}
	return false
}
