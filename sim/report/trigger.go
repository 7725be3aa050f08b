package report

import (
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// The words for what triggered a run: the sale, or with no sale an incident
// (MODEL.md rules 22 to 24), a capacity loss or a slowdown. The people the
// shares are of, the chart's band and back to normal follow the trigger.

// IncidentOnly reports whether c's trigger is an incident alone: a loss or
// a slowdown, and no sale (NoSale). The shares are then of the people who
// first arrived during the incidents (sim.Config.PeopleStartS).
func IncidentOnly(c sim.Config) bool { return c.HasIncident() && NoSale(c) }

// incidentKind is which incidents a Config has, for choosing its words: a
// slowdown alone, a loss alone, or both (a Config with neither is not
// asked).
type incidentKind int

const (
	slowdownAlone incidentKind = iota
	lossAlone
	lossAndSlowdown
)

// incidentsOf is c's incidents.
func incidentsOf(c sim.Config) incidentKind {
	switch {
	case c.LossWorkers > 0 && c.SlowFactor > 0:
		return lossAndSlowdown
	case c.LossWorkers > 0:
		return lossAlone
	}
	return slowdownAlone
}

// Trigger names what set c's run off, for a sentence: "the sale", "the
// loss of 3 workers", "the slowdown" or "the loss and the slowdown".
func Trigger(c sim.Config) string {
	if !IncidentOnly(c) {
		return "the sale"
	}
	if incidentsOf(c) == lossAlone {
		return lossNoun(c)
	}
	return [...]string{"the slowdown", "", "the loss and the slowdown"}[incidentsOf(c)]
}

// lossNoun is "the loss of 3 workers", "the loss of every worker".
func lossNoun(c sim.Config) string {
	if c.LossWorkers == c.Workers {
		return "the loss of every worker"
	}
	return "the loss of " + strconv.Itoa(c.LossWorkers) + " " + plural(c.LossWorkers, "worker", "workers")
}

// incidentNoun is "the loss", "the slowdown" or "the incidents".
func incidentNoun(c sim.Config) string {
	return [...]string{"the slowdown", "the loss", "the incidents"}[incidentsOf(c)]
}

// triggerEnds is "the workers are back", "the slowdown ends" or "the
// incidents end", for "once ...".
func triggerEnds(c sim.Config) string {
	return [...]string{"the slowdown ends", "the workers are back", "the incidents end"}[incidentsOf(c)]
}

// bandMark is the short mark of the windows in the band: "sale", "loss",
// "slowdown" or "incidents".
func bandMark(c sim.Config) string {
	if !IncidentOnly(c) {
		return "sale"
	}
	return [...]string{"slowdown", "loss", "incidents"}[incidentsOf(c)]
}

// HasBand reports whether c's chart shades a band: the sale's, or with no
// sale the incidents'.
func HasBand(c sim.Config) bool { return !NoSale(c) || IncidentOnly(c) }

// InBand reports whether a window starting at startS s is in the band.
func InBand(c sim.Config, startS float64) bool { return HasBand(c) && c.MeasuredAt(startS) }

// shape describes the sale's shape for Describe: " ramping up and down
// over 20 s", " in 2 waves 90 s apart", or "".
func shape(c sim.Config) string {
	s := ""
	if c.SaleRampS > 0 {
		s += " ramping up and down over " + Seconds(c.SaleRampS)
	}
	if c.SaleWaves > 1 {
		s += fill(" in %s waves %s apart", strconv.Itoa(c.SaleWaves), Seconds(c.SaleEveryS))
	}
	return s
}

// afterTrigger is what back to normal counts from, for "back to normal 10 s
// after ...": "the sale", "the loss of 3 workers", or with a sale and a later
// incident "the sale and the loss".
func afterTrigger(c sim.Config) string {
	if IncidentOnly(c) || c.CalmS() == c.SaleEndS() {
		return Trigger(c)
	}
	switch {
	case c.LossWorkers > 0 && c.LossS > 0 && c.LossEndS() == c.CalmS():
		return "the sale and the loss"
	}
	return "the sale and the slowdown"
}

// incidents describes c's incidents for Describe: ", 3 of 8 workers lost
// from 60 s to 90 s, service 3x slower from 60 s to 80 s", or "".
func incidents(c sim.Config) string {
	s := ""
	span := func(start, end float64) string {
		if end >= c.DurationS {
			return "from " + Seconds(start) + " to the end"
		}
		return "from " + Seconds(start) + " to " + Seconds(end)
	}
	if c.LossWorkers > 0 {
		s += fill(", %s of %s %s lost %s", strconv.Itoa(c.LossWorkers), strconv.Itoa(c.Workers), plural(c.Workers, "worker", "workers"), span(c.LossStartS, c.LossEndS()))
	}
	if c.SlowFactor > 0 {
		s += fill(", service %s slower %s", times(c.SlowFactor), span(c.SlowStartS, c.SlowEndS()))
	}
	return s
}

// times is a factor: "3x", "1.5x".
func times(f float64) string { return Number(f, 2) + "x" }

// arrivingDuring is the rate of new people while [from, to) s lasts: the
// sale's when it overlaps the sale and the sale is busier, else the normal.
func arrivingDuring(c sim.Config, from, to float64) float64 {
	if !NoSale(c) && from < c.SaleEndS() && to > c.SaleStartS {
		return max(c.NormalRPS, c.SaleRPS)
	}
	return c.NormalRPS
}

// IncidentFluid is the fluid view during and after c's incidents, and of
// latency that grows with the queue, one line each: "the loss of 3 workers: with 5 of 8 workers, 62.5/s against 70/s
// arriving: the queue grows 7.5/s, about 225 requests in its 30 s", then
// whether the queue drains once the capacity is back. Nil without
// either.
func IncidentFluid(c sim.Config) []string {
	var out []string
	if c.LossWorkers > 0 {
		left := c.Workers - c.LossWorkers
		capacity := float64(left) * 1000 / c.ServiceMS
		out = append(out, capital(lossNoun(c))+": "+fill("with %s of %s %s, ", strconv.Itoa(left), strconv.Itoa(c.Workers), plural(c.Workers, "worker", "workers"))+
			during(c, capacity, c.LossStartS, c.LossEndS(), c.LossS == 0))
	}
	if c.HeapRequests > 0 {
		out = append(out, loadFluid(c))
	}
	if c.SlowFactor > 0 {
		service := c.ServiceMS * c.SlowFactor
		capacity := float64(c.Workers) * 1000 / service
		out = append(out, "The slowdown: "+fill("with service %s slower (%s), ", times(c.SlowFactor), Duration(service))+
			during(c, capacity, c.SlowStartS, c.SlowEndS(), c.SlowS == 0))
	}
	return out
}

// loadFluid is the fluid view of latency that grows with the queue (rule
// 26): the capacity with q waiting, the tipping point, and whether the
// policy's queue can reach it.
func loadFluid(c sim.Config) string {
	h := Count(c.HeapRequests)
	s := fill("Latency that grows with the queue: the memory holds %s waiting requests, so with q waiting each service takes %s/(%s - q) times as long, and the capacity is %s/s x (1 - q/%s)",
		h, h, h, Number(c.CapacityAfterRPS(), 2), h)
	q := c.TippingQueue()
	tries := Number(float64(c.NormalRPS*c.FluidTries(c.Retries)), 2)
	switch {
	case q < 0:
		return s + ": even a full heap keeps up with the normal traffic."
	case q == 0:
		return s + fill(": under the %s/s of normal traffic even with nobody waiting.", tries)
	}
	s += fill(": under the %s/s the normal traffic sends once %s wait, and from there the queue only grows", tries, Count(q))
	if c.Policy.Bounds() && c.QueueBound() < q {
		return s + fill(". A bound of %s keeps it short of that: at most %s as long, %s/s.",
			Count(c.QueueBound()), times(c.LoadFactor(c.QueueBound())), Number(c.CapacityAtRPS(c.QueueBound()), 2))
	}
	return s + ", even at normal traffic and with no retries."
}

// during is the arithmetic of capacity against the arrivals from start to
// end s, and what is left when the capacity comes back (or that it does
// not, for an incident that lasts the rest of the run).
func during(c sim.Config, capacity, start, end float64, rest bool) string {
	arriving := arrivingDuring(c, start, end)
	if arriving == 0 {
		return fill("%s/s, and nobody arrives: nothing waits.", Number(capacity, 2))
	}
	capText, arrText := apart(capacity, arriving, 2)
	s := fill("%s/s against %s/s arriving: ", capText, arrText)
	if capacity >= arriving {
		s += fill("the workers keep up, with %s/s to spare", Number(capacity-arriving, 2))
		if rest {
			return s + ", for the rest of the run."
		}
		return s + "."
	}
	grow := arriving - capacity
	length := min(end, c.DurationS) - start
	queued := float64(grow * length)
	s += fill("the queue grows %s/s", Number(grow, 2))
	if rest {
		return s + ", for the rest of the run: the capacity does not come back."
	}
	s += fill(", about %s in its %s", requests(int(queued+0.5)), Seconds(length))
	full := c.CapacityAfterRPS()
	if queued/full*1000 < c.TimeoutMS || !c.HoldsTimeout() {
		return s + fill(". Once it is over, %s/s against %s/s: %s.", Number(full, 2), Number(c.NormalRPS, 2), drainsAt(c, full))
	}
	return s + fill(", more than the %s timeout's worth of work at %s/s: its clients give up while it waits, and what they send next decides whether it drains (below).",
		Duration(c.TimeoutMS), Number(full, 2))
}

// drainsAt says whether a queue drains at normal traffic against capacity
// full: "it drains at 30/s", "it never drains".
func drainsAt(c sim.Config, full float64) string {
	if c.NormalRPS < full {
		return "it drains at " + Number(full-c.NormalRPS, 2) + "/s"
	}
	return "it never drains"
}
