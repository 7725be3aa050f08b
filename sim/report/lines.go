package report

import (
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// Line is a labelled sentence under the chart, such as "This run: back to
// normal 90 s after the sale."
type Line struct {
	Label string `json:"label"`
	Text  string `json:"text"`
}

// String joins the label and the text.
func (l Line) String() string { return l.Label + ": " + l.Text }

// FluidLine is the post's fluid view for one retry count: "retries=3:
// 70/s x 4 tries = 280/s against 100/s, never drains" (rule 18). For a
// client other than the post's it counts the tries that client makes once
// everyone times out (sim.Config.FluidTries) and says why.
func FluidLine(c sim.Config, retries int) string {
	verdict := "never drains"
	if c.Drains(retries) {
		verdict = "drains"
	}
	tries := c.FluidTries(retries)
	head := "retries=" + strconv.Itoa(retries)
	if c.Client != sim.Fixed {
		head += ", " + c.Client.String()
	}
	if c.Client == sim.Throttle {
		return fill("%s: the clients send at most %s x what is accepted, so with nothing accepted almost nothing reaches the service's %s/s: %s",
			head, Number(c.ThrottleK, 2), Number(c.CapacityAfterRPS(), 2), verdict)
	}
	load, capacity := apart(float64(c.NormalRPS*tries), c.CapacityAfterRPS(), 2)
	line := fill("%s: %s/s x %s = %s/s against %s/s, %s",
		head, Number(c.NormalRPS, 2), triesCount(tries), load, capacity, verdict)
	switch {
	case c.Patience == sim.ExponentialPatience && retries > 0 && c.Client != sim.Budget:
		line += " (" + outwaiters(c) + ")"
	case c.Client == sim.Budget && retries > 0:
		line += " (the budget is spent, and nothing answered refills it)"
	case c.Client == sim.Ratio && retries > 0:
		line += " (retries stay under " + Number(c.RatioMax*100, 1) + "% of requests, and 3 attempts)"
	}
	return line
}

// triesNumber is a count of tries, which a client strategy can make
// fractional: two decimals, or four when two would show 1 for more than 1
// (1.002 tries, beside a load of 70.14/s).
func triesNumber(tries float64) string {
	if s := Number(tries, 2); s != "1" || tries == 1 {
		return s
	}
	return Number(tries, 4)
}

// triesCount is a count of tries with its noun: "1 try", "1.11 tries",
// "4 tries".
func triesCount(tries float64) string {
	n := triesNumber(tries)
	if n == "1" {
		return n + " try"
	}
	return n + " tries"
}

// Fluid is the fluid view for retries 0 to max(3, c.Retries), as the post
// prints it. Adaptive throttling's does not depend on the retries: one line.
func Fluid(c sim.Config) []string {
	out := []string{}
	out = append(out, IncidentFluid(c)...) // first what an incident leaves, if any
	if c.Client == sim.Throttle {
		return append(out, FluidLine(c, c.Retries))
	}
	for r := 0; r <= max(3, c.Retries); r++ {
		out = append(out, FluidLine(c, r))
	}
	return out
}

// Outlook is the first line under the chart. For a queue that can hold a
// request as long as its timeout it is "Once everyone times out", the fluid
// arithmetic for this config: whether a queue full of abandoned work drains
// after the sale. For a policy that cannot hold anyone that long it is the
// longest wait this run measured in the queue, and so it is for a bound
// that holds more than a timeout's work when its backlog drains: then it
// says how many waited for nothing (the post's Envoy sample: "a 1,024
// queue holds 10.2 s of work against a 2 s timeout, so 69.6% of requests
// still wait for nothing").
//
// With an incident it starts with the incident's arithmetic
// (IncidentFluid): the capacity it leaves against the arrivals, and what
// is left when the capacity comes back.
func Outlook(r sim.Result) Line {
	l := outlook(r)
	switch c := r.Config; {
	case c.HasIncident():
		l = Line{"During and after " + incidentNoun(c), strings.Join(IncidentFluid(c), " ") + " " + l.String()}
	case c.HeapRequests > 0:
		if q := c.TippingQueue(); q > 0 && c.HoldsTimeout() && c.Drains(c.Retries) {
			// Drains holds only for a queue short of the tipping point.
			l.Text = fill("a queue shorter than %s drains%s, at up to %s/s; a longer one never does.",
				Count(q), onceOver(c), Number(c.CapacityAfterRPS()-float64(c.NormalRPS*c.FluidTries(c.Retries)), 2))
		}
		l = Line{"As the queue grows", strings.Join(IncidentFluid(c), " ") + " " + l.String()}
	}
	return l
}

// outlook is Outlook without the incidents' arithmetic.
func outlook(r sim.Result) Line {
	c := r.Config
	if !c.HoldsTimeout() && r.LongestQueueWaitMS < c.TimeoutMS {
		return Line{"Longest wait in the queue", fill("%s, against a %s timeout: no request can wait for nothing here.",
			Duration(r.LongestQueueWaitMS), Duration(c.TimeoutMS))}
	}
	tries := c.FluidTries(c.Retries)
	if c.Policy.Bounds() && c.HoldsTimeout() && c.Drains(c.Retries) && r.Sale.TimedOut > 0 && r.LongestQueueWaitMS >= c.TimeoutMS {
		return Line{"Longest wait in the queue", fill("%s, against a %s timeout: a queue of %s holds %s of work, so %s of %s waited for nothing.",
			Duration(r.LongestQueueWaitMS), Duration(c.TimeoutMS), Count(c.QueueBound()), Seconds(c.QueueSeconds()), Percent(r.Sale.TimedOutShare), SalePeople(c))}
	}
	if c.Policy == sim.Skip && c.Drains(c.Retries) {
		return Line{"Once everyone times out", fill("a worker drops each abandoned request at no cost, so a queue of them empties as fast as the workers reach it: at %s/s against %s/s, the service is back as soon as the arrivals fall under its capacity.",
			Number(float64(c.NormalRPS*tries), 2), Number(c.CapacityAfterRPS(), 2))}
	}
	if c.Client == sim.Throttle {
		return Line{"Once everyone times out", fill("the clients send at most %s x what is accepted, so with nothing accepted almost nothing reaches the service's %s/s: its queue drains, and the clients' throttle decides when people are answered again.",
			Number(c.ThrottleK, 2), Number(c.CapacityAfterRPS(), 2))}
	}
	load := float64(c.NormalRPS * tries)
	loadText, capacity := apart(load, c.CapacityAfterRPS(), 2)
	once, even := " once the sale ends", ", even after the sale"
	switch {
	case IncidentOnly(c):
		once, even = " once "+triggerEnds(c), ", even after "+Trigger(c)
	case NoSale(c):
		once, even = "", ""
	}
	why := ""
	if c.Patience == sim.ExponentialPatience && c.Retries > 0 {
		why = " (" + outwaiters(c) + ")"
	}
	if c.Drains(c.Retries) {
		return Line{"Once everyone times out", fill("each person sends %s%s, %s/s x %s = %s/s against %s/s: a backlog drains at %s/s%s.",
			triesCount(tries), why, Number(c.NormalRPS, 2), triesNumber(tries), loadText, capacity, Number(c.CapacityAfterRPS()-load, 2), once)}
	}
	return Line{"Once everyone times out", fill("each person sends %s%s, %s/s x %s = %s/s against %s/s: once the queue holds more than %s of work it never drains%s.",
		triesCount(tries), why, Number(c.NormalRPS, 2), triesNumber(tries), loadText, capacity, Duration(c.TimeoutMS), even)}
}

// outwaiters says what patience changes in the fluid view (rule 18a):
// "people give up after a mean of 3 s, so only the 3.6% who wait out the
// 10 s timeout retry".
func outwaiters(c sim.Config) string {
	return "people give up after a mean of " + Duration(c.PatienceMS) + ", so only the " + Percent(c.OutwaitShare()) +
		" who wait out the " + Duration(c.TimeoutMS) + " timeout retry"
}

// onceOver is " once the sale ends", " once the workers are back", or ""
// with no sale and no incident.
func onceOver(c sim.Config) string {
	switch {
	case IncidentOnly(c):
		return " once " + triggerEnds(c)
	case NoSale(c):
		return ""
	}
	return " once the sale ends"
}

// people is n people, counted: "1 person", "1,024 people".
func people(n int) string { return Count(n) + " " + plural(n, "person", "people") }

// requests is n requests, counted: "1 request", "1,024 requests".
func requests(n int) string { return Count(n) + " " + plural(n, "request", "requests") }

// answeredOf is "7.0% of the sale's people answered", or Nobody.
func answeredOf(r sim.Result) string {
	if r.Sale.People == 0 {
		return Nobody(r.Config)
	}
	return Percent(r.Sale.AnsweredShare) + " of " + SalePeople(r.Config) + " answered"
}

// tally is what a run that is not back did, for the end of a sentence:
// ": 7.0% of the sale's people answered, 14,625 requests served to
// nobody", then more. It leaves out a share of nobody and a count of none.
func tally(r sim.Result, more ...string) string {
	var parts []string
	if r.Sale.People > 0 {
		parts = append(parts, answeredOf(r))
	}
	if r.Wasted > 0 {
		parts = append(parts, requests(r.Wasted)+" served to nobody")
	}
	parts = append(parts, more...)
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

// ThisRun is the second line: what actually happened after the sale.
func ThisRun(r sim.Result) Line {
	text := Recovered(r) + "."
	switch {
	case r.BackToNormalS == nil && r.Recovery == sim.Stuck && r.Config.CollapsedAt(r.QueueAtEnd):
		c := r.Config
		text = fill("stuck: not back by %s. Its queue is past the tipping point: with %s waiting each service takes %s as long, and the capacity, %s/s, is under the %s/s the normal traffic sends%s.",
			Seconds(c.DurationS), Count(r.QueueAtEnd), times(c.LoadFactor(r.QueueAtEnd)), Number(c.CapacityAtRPS(r.QueueAtEnd), 2),
			Number(float64(c.NormalRPS*c.FluidTries(c.Retries)), 2), tally(r))
	case r.BackToNormalS == nil && r.Recovery == sim.Stuck && !r.Config.Drains(0):
		text = fill("stuck: not back by %s. The normal traffic alone, %s/s, is over the %s/s capacity%s.",
			Seconds(r.Config.DurationS), Number(r.Config.NormalRPS, 2), Number(r.Config.CapacityAfterRPS(), 2), tally(r))
	case r.BackToNormalS == nil && stuckBehindName(r) != "":
		l, _ := stuckBehind(r)
		offered, capacity := apart(l.OfferedRPS, l.CapacityRPS, 2)
		text = fill("stuck: not back by %s. Its own queue drains, but %s behind it never does: the normal traffic, times every layer's tries on the way, sends it %s/s against its %s/s, so the calls to it keep failing%s.",
			Seconds(r.Config.DurationS), l.Name, offered, capacity, tally(r))
	case r.BackToNormalS == nil && r.Recovery == sim.Stuck:
		text = fill("stuck: not back by %s. Retries keep the queue full%s.",
			Seconds(r.Config.DurationS), tally(r))
	case r.Recovery == sim.Unmeasured && r.Wasted > 0:
		text = fill("%s, so there is no one to be back to normal for; %s served to nobody.", Recovered(r), requests(r.Wasted))
	case r.Recovery == sim.Unmeasured:
		text = fill("%s, so there is no one to be back to normal for.", Recovered(r))
	case r.BackToNormalS == nil && r.Recovery == sim.Throttled:
		text = fill("not back by %s, with the queue empty: the clients refused %s of their own requests. Adaptive throttling remembers the last %s of failures and reopens only as fast as what it lets through is accepted; with nothing accepted it stays shut.",
			Seconds(r.Config.DurationS), Count(r.Client.Throttled), Seconds(r.Config.ClientWindowS))
	case r.BackToNormalS == nil && r.Recovery == sim.Overloaded:
		text = fill("not back by %s: even at normal traffic fewer than 90% of people are answered, and no queue of abandoned work explains it%s.",
			Seconds(r.Config.DurationS), tally(r, Percent(r.WorkerTimeS.Refusing/(float64(r.Config.Workers)*r.Config.DurationS))+" of the workers' time over the run spent refusing"))
	case r.BackToNormalS == nil:
		text = fill("not back by %s: a backlog too long for the run, not a stuck queue; a longer run would drain it.",
			Seconds(r.Config.DurationS))
	case r.Wasted > 0:
		text = fill("%s; %s served to nobody.", Recovered(r), requests(r.Wasted))
	}
	if l := r.Limit; l != nil {
		text += " " + LimitSentence(r)
	}
	return Line{"This run", text}
}

// limitCount is an adaptive limit as the words write it: "none" for one
// that sheds nothing now.
func limitCount(n int) string {
	if n >= sim.NoLimit {
		return "none"
	}
	return Count(n)
}

// LimitSentence says what an adaptive limit did over the run: its range,
// where it ended, what it refused, and its false sheds, the share of the
// attempts of people outside the sale it refused: "Envoy's adaptive
// concurrency kept its limit between 3 and 57 requests in flight (47 at
// the end) and refused 2,310 attempts, 1.2% of those outside the sale.";
// then whether it settled in the sale and after it (sim/MODEL.md rule
// 38), and what its measurements of the minimum round trip cost (rule
// 37). "" for a run without one.
func LimitSentence(r sim.Result) string {
	l := r.Limit
	if l == nil {
		return ""
	}
	s := fill("%s kept its limit between %s and %s requests in flight (%s at the end)", capital(r.Config.Policy.Noun()),
		Count(l.Lowest), Count(l.Highest), Count(l.AtEnd))
	switch {
	case l.Lowest == l.Highest:
		s = fill("%s kept its limit at %s requests in flight", capital(r.Config.Policy.Noun()), limitCount(l.Lowest))
	case l.Highest >= sim.NoLimit: // it shed only at times (rule 39)
		s = fill("%s shed only at times, its limit as low as %s requests in flight (%s at the end)", capital(r.Config.Policy.Noun()),
			Count(l.Lowest), limitCount(l.AtEnd))
	}
	if l.Refused == 0 {
		s += " and refused nobody."
	} else {
		outside := "none of those outside the sale"
		if l.NormalRefusedShare > 0 {
			outside = Percent(l.NormalRefusedShare) + " of those outside the sale"
		}
		s = fill("%s and refused %s %s, %s.", s, Count(l.Refused), plural(l.Refused, "attempt", "attempts"), outside)
	}
	return s + settled(r) + measured(l.Measurements)
}

// settled says when the limit settled (rule 38): " It settled 3 s into
// the sale and at once after it."; "" without a sale.
func settled(r sim.Result) string {
	in, after := r.Limit.SettledInSaleMS, r.Limit.SettledAfterSaleMS
	switch {
	case r.Config.SaleS <= 0:
		return ""
	case in == nil && after == nil:
		return " It did not settle, in the sale or after it."
	}
	s := " It did not settle in the sale and settled "
	if in != nil {
		s = " It settled at once in the sale and "
		if *in > 0 {
			s = " It settled " + Duration(*in) + " into the sale and "
		}
	}
	switch {
	case after == nil:
		return s + "did not settle after it."
	case *after == 0:
		return s + "at once after it."
	}
	return s + Duration(*after) + " after it."
}

// measured says what a limit's measurements cost (rule 37): " It fell to
// 3 while it measured the minimum round trip, 5 times for 1.8 s each on
// average, refusing 68.0% of the attempts that arrived meanwhile."; ""
// for none.
func measured(m *sim.Measurements) string {
	if m == nil || m.Count == 0 {
		return ""
	}
	times := Count(m.Count) + " times for " + Seconds(m.TimeMS/1000/float64(m.Count)) + " each on average"
	if m.Count == 1 {
		times = "once, for " + Seconds(m.TimeMS/1000)
	}
	s := fill(" It fell to %s while it measured the minimum round trip, %s", Count(m.Limit), times)
	if m.Attempts == 0 {
		return s + "."
	}
	return fill("%s, refusing %s of the attempts that arrived meanwhile.", s, Percent(float64(m.Refused)/float64(m.Attempts)))
}
