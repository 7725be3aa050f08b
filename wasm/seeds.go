package main

import (
	"slices"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// seedsKey is the simulator's seeds control (issue 10, item 3): how many
// seeds to run, from the form's seed, as `shedsim --seeds N` runs them.
// It is not a sim.Config key but the page's own state: a field of the
// form, a key of the URL (?seeds=10) and an attribute of the widgets that
// show every policy (kinds simulator, full and compare).
const seedsKey = "seeds"

// pageSeeds are the seeds the control offers: one run, as the page has
// always shown, or the mean and spread over 10 or 40. More would make a
// reader wait: 40 seeds of every policy are 240 runs, 4.5 s on one worker
// of this project's loaded machine (README, "Speed and size").
var pageSeeds = []int{1, 10, 40}

// SeedsBudget is the most attempts the seeds' runs of one input may be
// expected to simulate (sim.Config.ExpectedAttempts, over every policy
// and seed): room for the post's stuck case (3 retries) at 40 seeds,
// 24,768,000 attempts, and for 10 seeds of anything PageBudget admits
// (60 runs of at most a sixth of it, 20,000,000). The runs go to the
// page's workers, so a big input slows the answer, never the page.
const SeedsBudget = 25_000_000

// seedsDefault is the control's default, one seed: left out of the URL.
const seedsDefault = "1"

// SeedsFor reads the seeds control's value v for c, whose runs it will
// be: one of pageSeeds, and, with runs (c is valid, and runs), for more
// than one, seeds that stay under sim.MaxSeed and runs within
// SeedsBudget. A problem is a FieldMsg for the field "seeds" that says
// what to choose instead.
func SeedsFor(c sim.Config, v string, runs bool) (int, *FieldMsg) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || !slices.Contains(pageSeeds, n) {
		return 0, &FieldMsg{seedsKey, strconv.Quote(shortText(v)) + " is not a number of seeds the page runs: choose 1, 10 or 40 " +
			"(shedsim --seeds runs any number up to 1,000 on the command line)"}
	}
	if n == 1 || !runs {
		return n, nil
	}
	if c.Seed > sim.MaxSeed-uint64(n-1) {
		return 0, &FieldMsg{seedsKey, report.Count(n) + " seeds from seed " + strconv.FormatUint(c.Seed, 10) + " pass the largest seed, " +
			strconv.FormatUint(sim.MaxSeed, 10) + ": choose fewer seeds, or a smaller seed"}
	}
	total := c.ExpectedAttempts() * float64(n*len(sim.Policies))
	if total <= SeedsBudget {
		return n, nil
	}
	return 0, &FieldMsg{seedsKey, report.Count(n) + " seeds of every policy would simulate about " + report.Count(int(min(total, 1e15))) +
		" attempts, over the page's " + report.Count(SeedsBudget) + " for seeds: choose fewer seeds, lower the traffic or the retries, or run shedsim --seeds " +
		strconv.Itoa(n) + " on the command line"}
}

// seedsOptions are the seeds control's choices: value and words.
func seedsOptions() [][2]string {
	return [][2]string{{"1", "1: one run"}, {"10", "10: mean and spread"}, {"40", "40: mean and spread"}}
}

// withSeeds is vals with the seeds of the settings given (a URL's query,
// a widget's attributes), or the default when they give none: what the
// form shows and the URL keeps, read or refused by SeedsFor when run.
func withSeeds(vals, given map[string]string) map[string]string {
	if v, ok := given[seedsKey]; ok {
		vals[seedsKey] = v
	} else {
		vals[seedsKey] = seedsDefault
	}
	return vals
}

// pageKeys are the simulator's keys in its URL and in a widget's link to
// the page: every Config key, then seeds; pageDefaults their defaults,
// which the URL leaves out.
var (
	pageKeys     = append(ConfigKeys(), seedsKey)
	pageDefaults = withSeeds(ConfigStrings(sim.DefaultConfig()), nil)
)

// writeSeedBars writes every policy's mean shares over seeds as stacked
// bars (SeedsView's), each with a line from the lowest to the highest
// seed's answered share and, where the inputs are the post's, a tall tick
// at the post's own figure.
func writeSeedBars(m *markup, v report.SeedsView, chosen sim.Policy) {
	m.open("ul", "class", "policy-bars")
	for _, b := range v.Bars {
		bar := strings.TrimSuffix(shareBarHTML(b.Answered, b.Refused, b.TimedOut), "</svg>")
		if b.People {
			bar += `<line class="seed-range" x1="` + num(b.Low*100) + `" x2="` + num(b.High*100) + `" y1="5" y2="5"></line>`
		}
		if b.HasPost {
			x := num(b.Post * 100)
			bar += `<line class="post-mark" x1="` + x + `" x2="` + x + `" y1="-2" y2="10"></line>`
		}
		writeShareRow(m, "data-policy", b.Policy.String(), b.Policy.Title(), b.Policy == chosen, bar+"</svg>", b.Text)
	}
	m.close("ul")
}

// writeSeedsTable writes the seeds' table, shedsim --seeds' cells, the
// chosen policy's row marked.
func writeSeedsTable(m *markup, tableID string, v report.SeedsView, chosen sim.Policy) {
	keys := make([]string, len(v.Bars))
	for i, b := range v.Bars {
		keys[i] = b.Policy.String()
	}
	writeTable(m, tableID, "compare seeds", v.Caption, "Every policy over seeds", "policy", v.Table, keys, chosen.String(), false)
}
