package report

import (
	"io"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// This file is a chain's view (sim/MODEL.md rule 40): the entry and the
// hops behind it, a row each, which of them holds the others up, whose
// retries load it, and the fluid view of every layer's retries
// multiplied.

// EntryName labels the entry, the service the people call, in a chain's
// rows, drawing and lines. A hop's name cannot hold a space or a
// parenthesis (sim.ParseHops), so no hop is labelled the same.
const EntryName = "checkout (entry)"

// ChainService is one service of a chain as its view shows it: the
// entry, or a hop behind it. Shares are fractions in [0, 1].
type ChainService struct {
	// Name is the hop's, or EntryName for the entry.
	Name  string `json:"name"`
	Entry bool   `json:"entry,omitempty"`
	// Workers and CapacityRPS are its workers and what they serve of its
	// own work, Workers x 1000 / ServiceMS, per s: calls it makes
	// downstream hold its workers longer, so it serves fewer.
	Workers     int     `json:"workers"`
	CapacityRPS float64 `json:"capacity_rps"`
	// Calls is the calls it received during the sale (at the entry, the
	// people who first arrived then; behind it, the calls made to it
	// then), and Answered, Refused and TimedOut are shares of them, by
	// each call's last try.
	Calls    int     `json:"calls"`
	Answered float64 `json:"answered"`
	Refused  float64 `json:"refused"`
	TimedOut float64 `json:"timed_out"`
	// Tries is every try it received over the run, retries included.
	Tries int `json:"tries"`
	// Wasted is the tries it served after their caller had given up,
	// over the run.
	Wasted int `json:"wasted"`
	// Busy is its workers' busy share of their time over the run (serving,
	// refusing, or held for a call downstream); Calling is the part held
	// for a call, and Own the rest.
	Busy    float64 `json:"busy"`
	Own     float64 `json:"own"`
	Calling float64 `json:"calling"`
	// TriesPerPerson is the tries it received per person who came to the
	// entry, over the run: every layer's retries above it, multiplied.
	TriesPerPerson float64 `json:"tries_per_person"`
	// MostTries is the most tries a call to it may take, 1 + retries:
	// its proxy's, or at the entry its people's clients'.
	MostTries int `json:"most_tries"`
	// Retries is the retries made to it: its proxy's, or at the entry the
	// people's clients'; Declined those its budget declined.
	Retries  int `json:"retries"`
	Declined int `json:"declined"`
	// Budget says whether its proxy keeps a retry budget (rules 42 to 44).
	Budget bool `json:"budget,omitempty"`
	// BackToNormalS and Recovery are its own return to normal, over the
	// calls it received (rules 17 and 18); BackToNormalS is nil when it
	// is not back.
	BackToNormalS *float64     `json:"back_to_normal_s"`
	Recovery      sim.Recovery `json:"recovery"`
}

// Chain is a chain's view: its services, the entry first, then what they
// say together.
type Chain struct {
	Services []ChainService `json:"services"`
	// Bottleneck is the service the chain waits on (ChainBottleneck), or
	// -1 when no service's workers were busy most of the run.
	Bottleneck     int  `json:"bottleneck"`
	BottleneckLine Line `json:"bottleneck_line"`
	// Retries says where the retries come from: which layer made most.
	Retries Line `json:"retries"`
	// Fluid is the fluid view of each service once every try fails
	// (ChainFluid), a line each, the entry first.
	Fluid []string `json:"fluid"`
}

// BuildChain lays out r's chain, and reports false for a Result without
// hops.
func BuildChain(r sim.Result) (Chain, bool) {
	if len(r.Hops) == 0 {
		return Chain{}, false
	}
	c := r.Config
	perPerson := 0.0 // over the run, as the hops' (sim.HopResult.TriesPerPerson)
	if r.People > 0 {
		perPerson = float64(r.Attempts) / float64(r.People)
	}
	entry := chainService(r, EntryName, c.Workers, c.CapacityRPS(), perPerson, 1+c.Retries)
	entry.Entry = true
	ch := Chain{Services: []ChainService{entry}}
	for _, h := range r.Hops {
		s := chainService(h.Result, h.Hop.Name, h.Hop.Workers, float64(h.Hop.Workers)*1000/h.Hop.ServiceMS, h.TriesPerPerson, 1+h.Hop.Proxy.Retries)
		s.Budget = h.Hop.Proxy.Budget != sim.NoBudget
		ch.Services = append(ch.Services, s)
	}
	ch.Bottleneck = ChainBottleneck(ch.Services)
	ch.BottleneckLine = bottleneckLine(ch.Services, ch.Bottleneck)
	ch.Retries = retriesLine(ch.Services)
	hops := make([]sim.Hop, len(r.Hops))
	for k, h := range r.Hops {
		hops[k] = h.Hop
	}
	ch.Fluid = ChainFluid(c)
	return ch, true
}

// chainService is one service's row, from its own Result.
func chainService(r sim.Result, name string, workers int, capacity, triesPerPerson float64, mostTries int) ChainService {
	w := r.WorkerTimeS
	total := w.Useful + w.Wasted + w.Refusing + w.Idle + w.Gone + w.Calling
	s := ChainService{
		Name: name, Workers: workers, CapacityRPS: capacity,
		Calls: r.Sale.People, Answered: r.Sale.AnsweredShare, Refused: r.Sale.RefusedShare, TimedOut: r.Sale.TimedOutShare,
		Tries: r.Attempts, Wasted: r.Wasted,
		TriesPerPerson: triesPerPerson, MostTries: mostTries,
		Retries: r.Client.Retries, Declined: r.Client.Declined,
		BackToNormalS: r.BackToNormalS, Recovery: r.Recovery,
	}
	if total > 0 {
		s.Own = (w.Useful + w.Wasted + w.Refusing) / total
		s.Calling = w.Calling / total
		s.Busy = s.Own + s.Calling
	}
	return s
}

// ChainBottleneck is the index of the service a chain waits on: from the
// entry, follow the calls down while a service's workers spent more of
// their time held for a call than on their own work (a caller is busy
// because the hop it calls is slow); the service where that stops is the
// bottleneck, its workers busy with its own work. It is -1 when that
// service's workers were busy less than half the run: nothing held the
// chain up for long.
func ChainBottleneck(services []ChainService) int {
	k := 0
	for k+1 < len(services) && services[k].Calling > services[k].Own {
		k++
	}
	if services[k].Busy < 0.5 {
		return -1
	}
	return k
}

// bottleneckLine says which service is the bottleneck, and why: "payments:
// its workers were busy 94.6% of the run, 47.3% on their own work; the
// services before it spent most of theirs waiting on it."
func bottleneckLine(services []ChainService, k int) Line {
	if k < 0 {
		busiest := 0
		for i, s := range services {
			if s.Busy > services[busiest].Busy {
				busiest = i
			}
		}
		return Line{"Bottleneck", fill("none: no service's workers were busy half the run; the busiest, %s, %s.",
			services[busiest].Name, Percent(services[busiest].Busy))}
	}
	s := services[k]
	text := fill("%s: its workers were busy %s of the run, all on its own work", s.Name, Percent(s.Busy))
	if s.Calling > 0 {
		text = fill("%s: its workers were busy %s of the run, %s on its own work and %s waiting on %s",
			s.Name, Percent(s.Busy), Percent(s.Own), Percent(s.Calling), services[k+1].Name)
	}
	switch {
	case k == 1:
		text += "; the entry's workers spent more of theirs waiting on it than working"
	case k > 1:
		text += "; the services before it spent more of their workers' time waiting on the next than working"
	}
	return Line{"Bottleneck", text + "."}
}

// retriesLine says where the chain's retries come from: "the proxy to
// bank made the most, 1,330 of 1,444 (92.1%)."
func retriesLine(services []ChainService) Line {
	total, most := 0, 0
	for i, s := range services {
		total += s.Retries
		if s.Retries > services[most].Retries {
			most = i
		}
	}
	if total == 0 {
		return Line{"Retries", "none: no try was retried, at the entry or by a proxy."}
	}
	s := services[most]
	text := fill("%s made the most, %s of %s (%s)", retrier(s), Count(s.Retries), Count(total), Percent(float64(s.Retries)/float64(total)))
	if s.Declined > 0 {
		text += fill("; its budget declined %s more", Count(s.Declined))
	}
	return Line{"Retries", text + "."}
}

// retrier is who retries the tries s receives: "the proxy to bank", or at
// the entry "the people's clients".
func retrier(s ChainService) string {
	if s.Entry {
		return "the people's clients"
	}
	return "the proxy to " + s.Name
}

// ChainTable is the chain's services as a table, the entry first: the
// calls each received in the sale and the share answered, the tries and
// retries that multiplied them over the run, how the rest ended, the
// tries served to nobody, and its return to normal. It leaves out what
// the page's boxes of the chain say (workers, capacity, busy and calling
// shares) and the fluid view (capacity), so that a laptop's column holds
// it; on a phone it scrolls, the first columns first.
func ChainTable(ch Chain) Table {
	t := Table{Header: []string{"Service", "Calls", "Answered", "Tries / person", "Retries", "Declined", "Refused", "Timed out", "Wasted", "Back to normal"}}
	for _, s := range ch.Services {
		t.Rows = append(t.Rows, []string{s.Name, Count(s.Calls), PercentOf(s.Answered, s.Calls), triesNumber(s.TriesPerPerson),
			Count(s.Retries), Count(s.Declined), PercentOf(s.Refused, s.Calls), PercentOf(s.TimedOut, s.Calls), Count(s.Wasted),
			BackCell(Row{BackToNormalS: s.BackToNormalS, Recovery: s.Recovery})})
	}
	return t
}

// ChainCaption is the caption of a chain's table, for c.
func ChainCaption(c sim.Config) string {
	return "Each service, the entry first, for the calls it received " + SaleArrivals(c) +
		" (at the entry, the people who first arrived then); over the whole run, tries per person, retries, the retries a budget declined, and wasted tries, served after their caller had given up"
}

// ChainFluidLead introduces ChainFluid's lines.
const ChainFluidLead = "Once every try fails, each service receives the normal traffic times each layer's tries down to it " +
	"(the people's, then each proxy's 1 + retries, or what its limit lets through), against its own capacity; one that calls another serves fewer, its workers held for the call"

// ChainFluid is the fluid view of the chain of c's entry and hops (rule
// 18, generalised to rule 40's chain): once every try fails, each
// service receives the normal rate times every layer's tries above it
// and at it (the people's, sim.Config.FluidTries, then each proxy's 1 +
// retries), against its own capacity: "bank: 70/s x 1 x 2 x 2 = 280/s
// against 100/s, never drains". Below a proxy with a budget, which lets
// fewer retries through, the load is the most it can be. With adaptive
// throttling at the entry, one line: almost nothing reaches any service.
func ChainFluid(c sim.Config) []string {
	c = c.Resolved()
	hops := c.HopList()
	if c.Client == sim.Throttle {
		return []string{fill("%s: the clients send at most %s x what is accepted, so with nothing accepted almost nothing reaches the chain: every service drains",
			EntryName, Number(c.ThrottleK, 2))}
	}
	verdict := func(l sim.HopLoad) string {
		if l.Drains {
			return "drains"
		}
		return "never drains"
	}
	var out []string
	limited := ""
	for k, l := range c.ChainLoads() {
		loadText, capacityText := apart(l.OfferedRPS, l.CapacityRPS, 2)
		if k == 0 {
			out = append(out, fill("%s: %s/s x %s = %s/s against %s/s, %s", EntryName, Number(c.NormalRPS, 2), triesCount(l.Tries[0]), loadText, capacityText, verdict(l)))
			continue
		}
		factors := Number(c.NormalRPS, 2) + "/s x " + triesNumber(l.Tries[0])
		for _, t := range l.Tries[1:] {
			factors += " x " + Number(t, 2)
		}
		if h := hops[k-1]; h.Proxy.Budget != sim.NoBudget && limited == "" {
			limited = h.Name
		}
		line := fill("%s: %s = %s/s against %s/s, %s", l.Name, factors, loadText, capacityText, verdict(l))
		if limited != "" {
			line += " (the proxy to " + limited + " lets through only what its limit allows)"
		}
		out = append(out, line)
	}
	return out
}

// WriteChain writes r's chain to w, for the end of a run's text: the
// table of its services, the bottleneck, the retries and the fluid view.
// It writes nothing for a Result without hops.
func WriteChain(w io.Writer, r sim.Result) error {
	ch, ok := BuildChain(r)
	if !ok {
		return nil
	}
	var b strings.Builder
	b.WriteString("\nThe chain, with " + PolicyNoun(r.Config.Policy) + " at the entry. " + ChainCaption(r.Config) + ".\n\n")
	if _, err := ChainTable(ch).WriteTo(&b); err != nil {
		return err
	}
	b.WriteString("\n" + ch.BottleneckLine.String() + "\n" + ch.Retries.String() + "\n\n" + ChainFluidLead + ":\n")
	for _, l := range ch.Fluid {
		b.WriteString("  " + l + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// HopRun is hop k of r's chain (r.Hops[k]) as a run's own reports read it
// (Timeline, WindowTable): the hop's counts under r's Config, with the
// hop's workers, service and policy and without the entry's incidents,
// so that its chart spans the run and shades the entry's sale; the hop's
// own Config has no traffic of its own, so no sale to shade.
func HopRun(r sim.Result, k int) sim.Result {
	h := r.Hops[k]
	out := h.Result
	c := r.Config
	c.Hops = ""
	c.Workers, c.ServiceMS, c.Service, c.ServiceP99MS, c.ServiceHistogram = h.Hop.Workers, h.Hop.ServiceMS, h.Hop.Service, h.Hop.ServiceP99MS, ""
	c.Policy, c.Queue, c.TimeoutMS, c.Retries = h.Hop.Policy, h.Hop.Queue, h.Hop.TimeoutMS, h.Hop.Proxy.Retries
	if !IncidentOnly(c) { // the incidents strike the entry; with no sale they are the band
		c.LossWorkers, c.SlowFactor, c.HeapRequests = 0, 0, 0
	}
	out.Config = c
	return out
}

// HopChartTitle heads hop name's chart over time: "Calls to payments over
// time".
func HopChartTitle(name string) string { return "Calls to " + name + " over time" }

// HopChartCaption is the caption under hop name's chart over time, for
// HopRun's Config c.
func HopChartCaption(name string, c sim.Config) string {
	return "Answered, refused and timed out per " + Seconds(BarSeconds(c)) + " of the calls made to " + name + ", by when each call was made; " + SaleBand(c) + "."
}

// HopSummary says what a hop is, for a form's preview of the hops typed:
// "payments: 16 workers at 30 ms (533.3/s), a 1,500 ms timeout on the
// whole call, its proxy making up to 1 retry, 700 ms a try".
func HopSummary(h sim.Hop) string {
	s := fill("%s: %s %s at %s (%s/s)", h.Name, strconv.Itoa(h.Workers), plural(h.Workers, "worker", "workers"), Duration(h.ServiceMS),
		Number(float64(h.Workers)*1000/h.ServiceMS, 1))
	if h.Policy != sim.FIFO {
		s += ", " + PolicyNoun(h.Policy)
	}
	if h.ErrorShare > 0 {
		s += ", " + Percent(h.ErrorShare) + " of its answers errors"
	}
	s += ", a " + Duration(h.TimeoutMS) + " timeout on the whole call, its proxy making " + UpToRetries(h.Proxy.Retries)
	if h.Proxy.PerTryTimeoutMS > 0 {
		s += ", " + Duration(h.Proxy.PerTryTimeoutMS) + " a try"
	}
	if h.Proxy.Budget != sim.NoBudget {
		s += ", within a retry budget"
	}
	return s
}
