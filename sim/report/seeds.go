package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/sweep"
)

// Spread is one measure over seeds: its mean, its sample standard
// deviation between seeds and its lowest and highest seed, in the
// measure's own unit. It is sim/sweep's, whose steps fold their seeds
// with it too, so that a sweep's step and `shedsim --seeds` compute the
// same statistics the same way.
type Spread = sweep.Spread

// SeedSummary folds the Results of one policy over seeds, in seed order:
// what `shedsim --seeds N` prints for a policy and what the page's seeds
// control shows, so that both print the same numbers for the same seeds.
type SeedSummary struct {
	// Seeds is how many runs were folded in.
	Seeds int
	// Answered, Refused and TimedOut are the sale's shares (fractions of its
	// people), over the seeds in which anyone arrived during the sale.
	Answered, Refused, TimedOut Spread
	// MedianWaitMS is the sale's median wait in milliseconds, over the seeds
	// that have one.
	MedianWaitMS Spread
	// Wasted is the work done for people who had already given up, in
	// attempts, over every seed.
	Wasted Spread
	// BackS is the seconds after the sale until the run was back to normal,
	// over the seeds that got back.
	BackS Spread
	// NotBack counts the seeds that did not get back, by how they ended.
	NotBack map[sim.Recovery]int
}

// Add folds in one seed's Result.
func (s *SeedSummary) Add(r sim.Result) {
	s.Seeds++
	if r.Sale.People > 0 { // a share of nobody is no share
		s.Answered.Add(r.Sale.AnsweredShare)
		s.Refused.Add(r.Sale.RefusedShare)
		s.TimedOut.Add(r.Sale.TimedOutShare)
	}
	if r.Sale.MedianWaitMS != nil {
		s.MedianWaitMS.Add(*r.Sale.MedianWaitMS)
	}
	s.Wasted.Add(float64(r.Wasted))
	if r.BackToNormalS != nil {
		s.BackS.Add(*r.BackToNormalS)
		return
	}
	if s.NotBack == nil {
		s.NotBack = map[sim.Recovery]int{}
	}
	s.NotBack[r.Recovery]++
}

// SummarizeSeeds folds Results, one per seed, into a SeedSummary.
func SummarizeSeeds(rs []sim.Result) SeedSummary {
	var s SeedSummary
	for _, r := range rs {
		s.Add(r)
	}
	return s
}

// notBackKinds is the ways a seed ended not back to normal, in the order
// they are named: alphabetical, as the command line has always listed them.
func (s SeedSummary) notBackKinds() []sim.Recovery {
	keys := make([]sim.Recovery, 0, len(s.NotBack))
	for k := range s.NotBack {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// SeedsTitle is the line above the seeds table: what ran, the seeds and
// what the cells mean, "8 workers at 80 ms (100/s), ..., no retries, seeds
// 1 to 10: mean ± standard deviation between seeds." for n seeds from
// c.Seed.
func SeedsTitle(c sim.Config, n int) string {
	describe := strings.TrimSuffix(Describe(c), ", seed "+strconv.FormatUint(c.Seed, 10))
	return describe + ", " + seedRange(c, n) + ": mean ± standard deviation between seeds."
}

// seedRange is "seeds 1 to 10", n seeds from c.Seed.
func seedRange(c sim.Config, n int) string {
	return "seeds " + strconv.FormatUint(c.Seed, 10) + " to " + strconv.FormatUint(c.Seed+uint64(max(n, 1)-1), 10)
}

// SeedsHeader is the header of the table of SeedRow rows.
var SeedsHeader = []string{"Policy", "Answered", "Refused", "Timed out", "Median wait", "Wasted", "Back to normal", "Not back"}

// SpreadPercent is a share's mean ± standard deviation in percent, one
// decimal always ("8.4 ± 1.2%"), or "-" if no seed had the share.
func SpreadPercent(s Spread) string {
	if s.N == 0 {
		return "-" // nobody arrived during the sale in any seed
	}
	return strconv.FormatFloat(s.Mean()*100, 'f', 1, 64) + " ± " + strconv.FormatFloat(s.SD()*100, 'f', 1, 64) + "%"
}

// SeedRow is the policy's row of the seeds table (SeedsHeader).
func SeedRow(p sim.Policy, s SeedSummary) []string {
	medCell, backCell := "-", "-"
	if s.MedianWaitMS.N > 0 {
		medCell = plusMinus(s.MedianWaitMS, 0) + " ms"
	}
	switch {
	case s.BackS.N > 0 && s.BackS.Max() == 0: // back in every such seed's first window (none is negative), as the other tables say it
		backCell = "at once"
	case s.BackS.N > 0:
		backCell = plusMinus(s.BackS, 1) + " s"
	}
	var nb []string
	for _, k := range s.notBackKinds() {
		nb = append(nb, strconv.Itoa(s.NotBack[k])+" "+string(k))
	}
	nbCell := "0"
	if len(nb) > 0 {
		nbCell = strings.Join(nb, ", ")
	}
	return []string{p.Title(), SpreadPercent(s.Answered), SpreadPercent(s.Refused), SpreadPercent(s.TimedOut), medCell,
		plusMinus(s.Wasted, 0), backCell, nbCell}
}

// plusMinus is a measure's mean ± standard deviation with at most
// decimals decimals: "1,081 ± 143".
func plusMinus(s Spread, decimals int) string {
	return Number(s.Mean(), decimals) + " ± " + Number(s.SD(), decimals)
}

// SeedsRecovery is the seeds' recovery as counts: "back in 37 of 40 seeds,
// stuck in 3", naming each way of not getting back with its count.
func SeedsRecovery(s SeedSummary) string {
	out := "back in " + Count(s.BackS.N) + " of " + Count(s.Seeds) + " " + plural(s.Seeds, "seed", "seeds")
	for _, k := range s.notBackKinds() {
		out += ", " + string(k) + " in " + Count(s.NotBack[k])
	}
	return out
}

// SeedsTable is the table `shedsim --seeds` prints: one SeedRow a policy,
// summaries[i] being policies[i]'s.
func SeedsTable(policies []sim.Policy, summaries []SeedSummary) Table {
	t := Table{Header: SeedsHeader, Groups: PolicyGroups(policies)}
	for i, p := range policies {
		t.Rows = append(t.Rows, SeedRow(p, summaries[i]))
	}
	return t
}

// SeedsNote is the line under the seeds table when some seeds brought
// nobody during the sale, so that the shares are over fewer seeds than ran
// ("" when every seed brought someone).
func SeedsNote(c sim.Config, s SeedSummary) string {
	if s.Answered.N >= s.Seeds {
		return ""
	}
	return "Shares are over the " + strconv.Itoa(s.Answered.N) + " of " + strconv.Itoa(s.Seeds) + " seeds in which anyone arrived " + Arrived(c) + "."
}
