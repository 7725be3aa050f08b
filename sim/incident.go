package sim

import (
	"math"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// Incidents are the triggers other than a sale (MODEL.md rules 22 to 24):
// workers lost for a while (a deploy, a crash) and service times multiplied
// for a while (a slow dependency). Bronson et al., "Metastable Failures in
// Distributed Systems" (HotOS 2021), name the two kinds of trigger, a load
// spike and a capacity decrease; Huang et al. (OSDI 2022) trigger their
// experiments with a capacity drop.

// maxSlowFactor is the largest slowdown: a hundred times slower.
const maxSlowFactor = 100

// HasIncident reports whether c has a capacity loss or a slowdown.
func (c Config) HasIncident() bool { return c.LossWorkers > 0 || c.SlowFactor > 0 }

// LossEndS is when the lost workers come back, in seconds: LossStartS +
// LossS, or DurationS for a loss that lasts the rest of the run.
func (c Config) LossEndS() float64 { return incidentEnd(c.LossStartS, c.LossS, c.DurationS) }

// SlowEndS is when the slowdown ends, in seconds: SlowStartS + SlowS, or
// DurationS for one that lasts the rest of the run.
func (c Config) SlowEndS() float64 { return incidentEnd(c.SlowStartS, c.SlowS, c.DurationS) }

func incidentEnd(start, length, duration float64) float64 {
	if length == 0 {
		return duration
	}
	return start + length
}

// Spike reports whether the sale changes the traffic: a sale rate other
// than the normal one, for some time.
func (c Config) Spike() bool { return c.SaleRPS != c.NormalRPS && c.SaleS > 0 }

// PeopleStartS and PeopleEndS bound "the sale's people", whose outcome
// Result.Sale reports (rule 15): those who first arrive in [PeopleStartS,
// PeopleEndS). It is the sale, unless the run has an incident and no spike
// (SaleRPS = NormalRPS): then it is the incidents', from the first start to
// the last end (the run's end, for one that lasts the rest of the run).
func (c Config) PeopleStartS() float64 {
	if c.incidentTriggered() {
		s := math.Inf(1)
		if c.LossWorkers > 0 {
			s = c.LossStartS
		}
		if c.SlowFactor > 0 {
			s = min(s, c.SlowStartS)
		}
		return s
	}
	return c.SaleStartS
}

// PeopleEndS: see PeopleStartS.
func (c Config) PeopleEndS() float64 {
	if c.incidentTriggered() {
		return c.incidentsEndS()
	}
	return c.SaleEndS()
}

// incidentTriggered reports whether the run's trigger is an incident alone.
func (c Config) incidentTriggered() bool { return c.HasIncident() && !c.Spike() }

// incidentsEndS is when the last incident ends, in seconds.
func (c Config) incidentsEndS() float64 {
	e := 0.0
	if c.LossWorkers > 0 {
		e = c.LossEndS()
	}
	if c.SlowFactor > 0 {
		e = max(e, c.SlowEndS())
	}
	return e
}

// CalmS is when the triggers are over, in seconds: back to normal is
// measured from it (rule 17). It is the end of the sale's people
// (PeopleEndS), or, with a spike and an incident, whichever of the sale and
// the incidents ends last; an incident that lasts the rest of the run does
// not end, so only the sale counts then.
func (c Config) CalmS() float64 {
	end := c.PeopleEndS()
	if c.HasIncident() && c.Spike() {
		if c.LossWorkers > 0 && c.LossS > 0 {
			end = max(end, c.LossEndS())
		}
		if c.SlowFactor > 0 && c.SlowS > 0 {
			end = max(end, c.SlowEndS())
		}
	}
	return end
}

// WorkersAfter is how many workers are there at the run's end: Workers,
// less LossWorkers when the loss lasts the rest of the run.
func (c Config) WorkersAfter() int {
	if c.LossWorkers > 0 && c.LossS == 0 {
		return c.Workers - c.LossWorkers
	}
	return c.Workers
}

// ServiceAfterMS is the mean service time at the run's end, in ms:
// ServiceMS, times SlowFactor when the slowdown lasts the rest of the run.
func (c Config) ServiceAfterMS() float64 {
	if c.SlowFactor > 0 && c.SlowS == 0 {
		return c.ServiceMS * c.SlowFactor
	}
	return c.ServiceMS
}

// CapacityAfterRPS is the capacity once the incidents that end are over,
// in requests per second: WorkersAfter / ServiceAfterMS. Without an
// incident that lasts the rest of the run it is CapacityRPS. The fluid
// view (Drains) compares the normal traffic with it.
func (c Config) CapacityAfterRPS() float64 {
	if c.WorkersAfter() == c.Workers && c.ServiceAfterMS() == c.ServiceMS {
		return c.CapacityRPS()
	}
	return float64(c.WorkersAfter()) * 1000 / c.ServiceAfterMS()
}

// CapacityDuringRPS is the capacity while every incident is on (the lost
// workers gone, the service slowed), in requests per second.
func (c Config) CapacityDuringRPS() float64 {
	s := c.ServiceMS
	if c.SlowFactor > 0 {
		s *= c.SlowFactor
	}
	return float64(c.Workers-c.LossWorkers) * 1000 / s
}

// validateIncidents checks the incidents' fields, with Validate's real for
// the ranges; durOK says whether DurationS is valid.
func (c Config) validateIncidents(real func(string, float64, float64, float64, string, bool) bool, durOK bool) []error {
	var errs []error
	bad := func(field, says string) { errs = append(errs, NewFieldError(field, says)) }
	if c.LossWorkers < 0 || c.LossWorkers > max(c.Workers, 1) {
		bad("loss_workers", limits.Count(int64(c.LossWorkers))+" is out of range: use a whole number from 0 (no loss) to "+
			limits.Count(int64(max(c.Workers, 1)))+", the {workers} there are")
	}
	c.validateSpan(bad, real, durOK, "loss_start_s", "loss_s", c.LossWorkers != 0, c.LossStartS, c.LossS, "loss_workers")
	if c.SlowFactor != 0 {
		real("slow_factor", c.SlowFactor, 1, maxSlowFactor, " times the service time (0 for no slowdown)", false)
	}
	c.validateSpan(bad, real, durOK, "slow_start_s", "slow_s", c.SlowFactor != 0, c.SlowStartS, c.SlowS, "slow_factor")
	return errs
}

// validateSpan checks an incident's start and length: within the run, and
// ending at least a 10 s window before the run's end (or lasting the rest
// of it), and both 0 when there is no such incident, what being the field
// that makes one.
func (c Config) validateSpan(bad func(field, says string), real func(string, float64, float64, float64, string, bool) bool, durOK bool,
	startKey, lenKey string, on bool, start, length float64, what string) {
	if !on {
		if start != 0 {
			bad(startKey, limits.Num(start)+" s, but {"+what+"} is 0, so there is nothing to start: set {"+what+"} too, or make this 0")
		}
		if length != 0 {
			bad(lenKey, limits.Num(length)+" s, but {"+what+"} is 0, so there is nothing to last: set {"+what+"} too, or make this 0")
		}
		return
	}
	startOK := real(startKey, start, 0, maxDuration, " s", false)
	lenOK := real(lenKey, length, 0, maxDuration, " s (0 for the rest of the run)", false)
	if !durOK || !startOK || !lenOK {
		return
	}
	if start >= c.DurationS {
		bad(startKey, limits.Num(start)+" s is not in the "+limits.Num(c.DurationS)+" s run: start it before "+limits.Num(c.DurationS)+" s, or make {duration_s} longer")
		return
	}
	if length > 0 && start+length+10 > c.DurationS {
		bad(lenKey, "it ends at "+limits.Num(start+length)+" s, too late for a "+limits.Num(c.DurationS)+" s run: end it by "+
			limits.Num(c.DurationS-10)+" s, so that a 10 s window after it can show recovery, make it 0 to last the rest of the run, or make {duration_s} longer")
	}
}

// startIncidents sets up c's incidents in e: the slowdown's times, the
// loss's events, and who is measured from when.
func (e *engine) startIncidents() {
	c := e.cfg
	e.incidents = true
	if c.incidentTriggered() {
		e.peopleStart = int64(math.Round(c.PeopleStartS() * 1e9))
		e.peopleEnd = min(int64(math.Round(c.PeopleEndS()*1e9)), e.end)
		e.calm = min(int64(math.Round(c.CalmS()*1e9)), e.end)
	} else {
		// With a spike the sale's people stay the sale's, to the
		// nanosecond newEngine and startShape gave them (a sale in waves
		// ends where its rounded waves add up to, which rounding
		// PeopleEndS as one number may miss by tens of ns), and CalmS is
		// the later of the sale's end and the ends of the incidents that
		// end.
		if c.LossWorkers > 0 && c.LossS > 0 {
			e.calm = max(e.calm, int64(math.Round(c.LossEndS()*1e9)))
		}
		if c.SlowFactor > 0 && c.SlowS > 0 {
			e.calm = max(e.calm, int64(math.Round(c.SlowEndS()*1e9)))
		}
		e.calm = min(e.calm, e.end)
	}
	if c.SlowFactor > 0 {
		e.slowFactor = c.SlowFactor
		e.slowStart = int64(math.Round(c.SlowStartS * 1e9))
		e.slowEnd = int64(math.Round(c.SlowEndS() * 1e9))
	}
	if c.LossWorkers > 0 {
		e.lossWorkers = c.LossWorkers
		e.lossStart = int64(math.Round(c.LossStartS * 1e9))
		e.lossEnd = int64(math.Round(c.LossEndS() * 1e9))
		e.events.push(event{at: e.lossStart, seq: nextSeq(&e.serviceSeq), kind: lossStarts})
		if e.lossEnd < e.end {
			e.events.push(event{at: e.lossEnd, seq: nextSeq(&e.serviceSeq), kind: lossEnds})
		}
	}
}

// started is when attempt a's service started, ns, as stretch noted it in
// its seq, which a queued attempt alone needs.
func started(a *attempt) int64 { return int64(a.seq) }

// stretch is the service time of a, a request a worker starts now, ns,
// given d, its draw from the service stream (rule 3): d times the slowdown's
// factor while it lasts (rule 23), then latency that grows with load (rule
// 26). Every factor that stretches a service composes here, one after
// another; serve calls it only when the run has one of them (e.incidents),
// so that the post's runs pay a single test for it.
func (e *engine) stretch(a *attempt, d float64) float64 {
	a.seq = uint64(e.now) // when its service started, should a loss take its worker (seq has done its work)
	return e.stretched(e.now, d, e.queue.len())
}

// stretched is d, a service time drawn for a service that starts at start
// (ns) with queued requests waiting, slowed as rules 23 and 26 say.
func (in *incidentState) stretched(start int64, d float64, queued int) float64 {
	d = in.slowed(start, d)
	if in.heap > 0 {
		d = float64(d * loadFactor(in.heap, queued))
	}
	return d
}

// slowed is d, a service time drawn for a service that starts at start
// (ns), times the slowdown's factor if the slowdown is on then (rule 23).
func (in *incidentState) slowed(start int64, d float64) float64 {
	if start >= in.slowStart && start < in.slowEnd {
		return float64(d * in.slowFactor)
	}
	return d
}

// incident handles a loss starting or ending (rule 22).
func (e *engine) incident(kind eventKind) {
	if kind == lossEnds {
		e.goneNS -= int64(e.down) * (e.end - e.now)
		e.free += e.down
		e.down, e.owed = 0, 0
		e.dispatch()
		return
	}
	k := e.lossWorkers
	// The idle workers go first.
	n := min(k, e.free)
	e.free -= n
	e.down += n
	e.goneNS += int64(n) * (e.end - e.now)
	k -= n
	// Then those serving, the most service left first: their requests are
	// lost, and the clients see the timeout.
	for ; k > 0; k-- {
		top := -1
		for j := range e.services.n {
			if ev := &e.services.buf[j]; top < 0 || e.services.buf[top].before(ev.at, ev.seq) {
				top = j
			}
		}
		if top < 0 {
			break
		}
		ev := e.services.remove(top)
		e.kill(ev)
		e.down++
		e.goneNS += e.end - e.now
	}
	// Any left are refusing: each goes when its refusal is done.
	e.owed = k
}

// kill takes the request of a serving worker that a loss takes away: the
// worker's time on it so far was wasted, and its client, who hears
// nothing, gives up at its deadline (rule 22).
func (e *engine) kill(ev event) {
	a := e.at(ev.a)
	booked := min(ev.at, e.end) - started(a)
	if ev.at >= e.deadline(a) {
		e.wastedNS -= booked
	} else {
		e.usefulNS -= booked
		if e.series != nil {
			e.series.rebook(started(a), e.end)
		}
	}
	e.wastedNS += e.now - started(a)
	e.killed++
	if e.lim != nil {
		e.lim.leave(e, ev.a, a, false, true)
	}
	if e.final(a) || e.gaveUp(a) { // nothing else will settle its person
		if e.deadline(a) < e.end {
			e.settle(a, e.expired(a), 0)
		} else {
			e.settle(a, unfinished, 0)
		}
	}
	e.release(ev.a, a)
}
