package report

import (
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// This file holds the simulator page's own words: its headline, titles,
// captions and the client comparison's lines, so that what the page says
// is written, and tested, here, and wasm/ only puts it into the DOM.

// Headline is the simulator's one-line status for its chosen run: "The
// unbounded queue: 7.0% of the sale's people answered, 0.0% refused, 93.0%
// timed out; back to normal 90 s after the sale."
func Headline(r sim.Result) string {
	return r.Config.Policy.Title() + ": " + SaleShares(r) + "; " + Recovered(r) + "."
}

// ComparisonTitle heads the bars of every policy: "Every policy, for the
// people who arrived during the sale".
func ComparisonTitle(c sim.Config) string {
	return "Every policy, for the people who arrived " + SaleArrivals(c)
}

// ComparisonCaption is the caption of the table of every policy.
func ComparisonCaption(c sim.Config) string {
	return "Every policy, for the people who first arrived " + SaleArrivals(c) + " (wasted work over the whole run)"
}

// TimelineTitle heads the chosen policy's chart over time.
func TimelineTitle(c sim.Config) string { return c.Policy.Title() + " over time" }

// TimelineCaption is the caption under the chosen policy's chart over
// time.
func TimelineCaption(c sim.Config) string {
	return "Answered, refused and timed out per " + Seconds(BarSeconds(c)) + " of arrivals with " + PolicyNoun(c.Policy) + "; " + SaleBand(c) + "."
}

// WindowsCaption is the caption of the chart's table of windows.
const WindowsCaption = "Answered per 10 s of arrivals; sale windows are marked"

// WindowTable is r's windows as a table, the text alternative of its chart
// over time: one row a window, "(sale)" after the sale's windows' labels.
// InSale reports which rows those are.
func WindowTable(r sim.Result) (t Table, inSale []bool) {
	c := r.Config
	t.Header = []string{"Window", "People", "Answered", "Refused", "Timed out", "Still waiting", "Attempts"}
	for _, w := range r.Windows {
		label := Seconds(w.StartS) + " to " + Seconds(min(w.StartS+10, c.DurationS))
		sale := InBand(c, w.StartS)
		if sale {
			label += " (" + bandMark(c) + ")"
		}
		inSale = append(inSale, sale)
		t.Rows = append(t.Rows, []string{label, Count(w.People), WindowAnswered(w), Count(w.Refused), Count(w.TimedOut), Count(w.Unfinished), Count(w.Attempts)})
	}
	return t, inSale
}

// SampleOf is the sample whose Config is c, and what the page says about
// it; "custom" and an invitation to pick one when c is none of them.
func SampleOf(c sim.Config) (key, about string) {
	for _, s := range sim.Samples() {
		if s.Config == c {
			return s.Key, s.About
		}
	}
	return "custom", "Your own numbers: pick a sample to start from one of the post's situations."
}

// ClientsNote says who keeps a budget, a ratio or a throttle.
const ClientsNote = "Budgets, ratios and throttling are kept by the sending side as a whole: one upstream service, such as the app's backend, " +
	"sending every person's requests, as in the SRE book and the AWS SDKs; not by each person's phone. " +
	"Every strategy still sends at most 1 + retries attempts per person."

// ClientsFluidLead introduces each client strategy's fluid view.
const ClientsFluidLead = "Once everyone times out, each strategy's fluid view: does a queue full of abandoned work drain?"

// ClientsLead introduces the client comparison for c's policy.
func ClientsLead(c sim.Config) string {
	lead := "Every client strategy with " + PolicyNoun(c.Policy) + " and " + UpToRetries(c.Retries) +
		", everything else as above. The bars are the attempts each person sent, out of the most a client may send: " + strconv.Itoa(1+c.Retries) + "."
	if c.Retries == 0 {
		lead += " With no retries the strategies differ only where a client refuses its own requests: adaptive throttling."
	}
	return lead
}

// ClientsCaption is the caption of the client comparison's table, for the
// people who first arrived arrivals ("during the sale").
func ClientsCaption(arrivals string) string {
	return "Every client strategy, for the people who first arrived " + arrivals + " (retries in load over the whole run)"
}

// ClientBarText is the line beside a client strategy's bar under c: its
// attempts per person, the retries' share of the load, and its return to
// normal: "1.9 attempts per person; retries are 43.2% of the load; stuck".
func ClientBarText(c sim.Config, r ClientRow) string {
	per, load := Nobody(c), "no attempts at all"
	if r.People > 0 {
		per = AttemptsPerPerson(r.AttemptsPerPerson)
	}
	if r.Attempts > 0 {
		load = "retries are " + Percent(r.ExtraLoad) + " of the load"
	}
	return per + "; " + load + "; " + clientBack(c, r)
}

// clientBack is a client row's return to normal under c, in words: as
// Recovered says it when the run is back or unmeasured, and shorter when
// it is not back.
func clientBack(c sim.Config, r ClientRow) string {
	switch {
	case r.BackToNormalS != nil || r.Recovery == sim.Unmeasured:
		return Recovered(sim.Result{Config: c, BackToNormalS: r.BackToNormalS, Recovery: r.Recovery})
	case r.Recovery == sim.Throttled:
		return "clients still throttling"
	}
	return string(r.Recovery) // stuck, backlog, overloaded
}
