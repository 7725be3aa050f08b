package adapter

import (
	"slices"
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// SeedsKey is the simulator's seeds control: how many
// seeds to run, from the form's seed, as `shedsim --seeds N` runs them.
// It is not a sim.Config key but the page's own state: a field of the
// form, a key of the URL (?seeds=10) and an attribute of the widgets that
// show every policy (kinds simulator, full and compare).
const SeedsKey = "seeds"

// pageSeeds are the seeds the control offers: one run, as the page has
// always shown, or the mean and spread over 10 or 40. More would make a
// reader wait: 40 seeds of every policy are 240 runs, 4.5 s on one worker
// of this project's loaded machine (sim/PERF.md).
var pageSeeds = []int{1, 10, 40}

// seedsDefault is the control's default, one seed: left out of the URL.
const seedsDefault = "1"

// SeedsFor reads the seeds control's value v for c, whose runs it will
// be: one of pageSeeds, and, with runs (c is valid, and runs), for more
// than one, seeds that stay under sim.MaxSeed. Each run is held to the
// page's budget (PageBudget), and they go to the workers, so 40 seeds of
// the largest run slow the answer, never the page. A problem is a
// FieldMsg for the field "seeds" that says what to choose instead.
func SeedsFor(c sim.Config, v string, runs bool) (int, *FieldMsg) {
	x, err := sim.ParseWhole(v) // as every number is read: " 10 " and 1e1 are 10
	n := slices.Index(pageSeeds, int(min(max(x, 0), 100)))
	if err != nil || n < 0 || float64(pageSeeds[n]) != x {
		return 0, &FieldMsg{SeedsKey, strconv.Quote(shortText(v)) + " is not a number of seeds the page runs: choose 1, 10 or 40 " +
			"(shedsim --seeds runs any number up to 1,000 on the command line)"}
	}
	n = pageSeeds[n]
	if n == 1 || !runs {
		return n, nil
	}
	if c.Seed > sim.MaxSeed-uint64(n-1) {
		return 0, &FieldMsg{SeedsKey, "these seeds pass the largest seed, 9007199254740991: choose a smaller seed, or fewer seeds"}
	}
	return n, nil
}

// SeedsOptions are the seeds control's choices: value and words.
func SeedsOptions() [][2]string {
	return [][2]string{{"1", "1: one run"}, {"10", "10: mean and spread"}, {"40", "40: mean and spread"}}
}

// WithSeeds is vals with the seeds of the settings given (a URL's query,
// a widget's attributes), or the default when they give none: what the
// form shows and the URL keeps, read or refused by SeedsFor when run.
func WithSeeds(vals, given map[string]string) map[string]string {
	if v, ok := given[SeedsKey]; ok {
		vals[SeedsKey] = v
	} else {
		vals[SeedsKey] = seedsDefault
	}
	return vals
}

// PageKeys are the simulator's keys in its URL and in a widget's link to
// the page: every Config key, then seeds; PageDefaults their defaults,
// which the URL leaves out.
var (
	PageKeys     = append(ConfigKeys(), SeedsKey)
	PageDefaults = WithSeeds(ConfigStrings(sim.DefaultConfig()), nil)
)

var PolicyKeys = func() []string {
	var out []string
	for _, p := range sim.Policies {
		out = append(out, p.String())
	}
	return out
}()
