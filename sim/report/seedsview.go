package report

import (
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// SeedsView is every policy over seeds as the page shows it (its seeds
// control): a bar a policy with the seeds' spread, the
// command line's table (`shedsim --seeds`, SeedsTable), and the words
// around them. The page only turns it into DOM.
type SeedsView struct {
	// Seeds is how many seeds ran, from the Config's seed.
	Seeds int
	// Key says how to read the bars and the table; Caption is the table's
	// (the end of the line `shedsim --seeds` prints above it, whose start
	// the form shows).
	Key     string
	Caption string
	// Bars are the policies', in the order of the summaries.
	Bars []SeedBar
	// Table is SeedsTable: the same cells `shedsim --seeds` prints.
	Table Table
}

// SeedBar is one policy's bar over seeds: the mean shares of the sale's
// people stacked, a line from the lowest to the highest seed's answered
// share, and, where the inputs are the post's, the post's own figure.
type SeedBar struct {
	Policy sim.Policy
	// People is false when nobody arrived during the sale in any seed:
	// then there are no shares, and the bar is empty.
	People bool
	// Answered, Refused and TimedOut are the mean shares over the seeds,
	// fractions of the sale's people; Low and High the lowest and the
	// highest seed's answered share.
	Answered float64
	Refused  float64
	TimedOut float64
	Low      float64
	High     float64
	// Post is the post's own answered share (PostAnswered), where HasPost.
	Post    float64
	HasPost bool
	// Text is the bar's words (SeedsBarText) and, where the inputs are
	// the post's, its figure.
	Text string
}

// SeedsViewOf is the view of summaries, one a policy in the order of
// policies, each over n seeds of c from c.Seed under that policy.
func SeedsViewOf(c sim.Config, n int, policies []sim.Policy, summaries []SeedSummary) SeedsView {
	v := SeedsView{Seeds: n,
		Caption: SeedsCaption,
		Table:   SeedsTable(policies, summaries),
	}
	for i, p := range policies {
		s := summaries[i]
		cp := c
		cp.Policy = p
		b := SeedBar{Policy: p, People: s.Answered.N > 0,
			Answered: s.Answered.Mean(), Refused: s.Refused.Mean(), TimedOut: s.TimedOut.Mean(),
			Low: s.Answered.Min(), High: s.Answered.Max(),
			Text: SeedsBarText(s)}
		if !b.People {
			b.Answered, b.Refused, b.TimedOut = 0, 0, 0
		}
		b.Post, b.HasPost = PostAnswered(cp)
		b.HasPost = b.HasPost && b.People
		if b.HasPost {
			b.Text += "; the post's figure: " + Percent(b.Post)
		}
		v.Bars = append(v.Bars, b)
	}
	v.Key = "Means over " + seedRange(c, n) + ": the line across each bar runs from the lowest to the highest seed's answered share, " +
		"and a tall tick marks the post's own figure where it gives one. The table is what shedsim --seeds " + strconv.Itoa(n) + " prints: " +
		"mean ± standard deviation between seeds; Back to normal is over the seeds that got back, Not back counts the others."
	return v
}

// spreadMean is a share's mean over seeds in percent, one decimal, as
// SpreadPercent writes it ("6.1%"), so that a bar and the table never
// round one mean two ways.
func spreadMean(x float64) string { return strconv.FormatFloat(x*100, 'f', 1, 64) + "%" }

// SeedsBarText is a policy's bar over seeds in words: "6.1% answered on
// average, 4.9 to 7.4% between seeds; back in 37 of 40 seeds, stuck in 3",
// or, when nobody arrived during the sale in any seed, "nobody arrived;
// back in 0 of 2 seeds, unmeasured in 2". The refused and timed out shares
// are in the table beside.
func SeedsBarText(s SeedSummary) string {
	if s.Answered.N == 0 {
		return "nobody arrived; " + SeedsRecovery(s)
	}
	return spreadMean(s.Answered.Mean()) + " answered on average, " + answeredRange(s) + " between seeds; " + SeedsRecovery(s)
}

// answeredRange is the lowest to the highest seed's answered share, one
// decimal, as the bars and the headline say it: "4.9 to 7.4%".
func answeredRange(s SeedSummary) string {
	return strconv.FormatFloat(s.Answered.Min()*100, 'f', 1, 64) + " to " + spreadMean(s.Answered.Max())
}

// SeedsCaption is the caption of the page's table over seeds, which the
// line above the bars (Key) says are which.
const SeedsCaption = "Every policy over the seeds: mean ± standard deviation between seeds."

// SeedsRunning is what the page says while the seeds' runs are out.
const SeedsRunning = "Running the other seeds: the bars and the table show them once every run is back."

// SeedsHeadline is the simulator's headline once its seeds are in: the
// chosen run's own (Headline), whose chart is drawn beside it, then its
// policy's summary s over the seeds, short enough for a phone's pinned
// bar, so that one seed's share is never the only figure at the top while
// the bars show the mean: "Unbounded queue: 7.0% of the sale's people
// answered, ...; back to normal 90 s after the sale. Over 40 seeds: 6.5%
// answered on average (4.4 to 8.8%); back in 40 of 40 seeds."
func SeedsHeadline(r sim.Result, s SeedSummary) string {
	over := " Over " + Count(s.Seeds) + " seeds: "
	if s.Answered.N == 0 {
		return Headline(r) + over + SeedsBarText(s) + "."
	}
	return Headline(r) + over + spreadMean(s.Answered.Mean()) + " answered on average (" + answeredRange(s) + "); " + SeedsRecovery(s) + "."
}
