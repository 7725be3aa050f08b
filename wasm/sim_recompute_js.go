//go:build js && wasm

package main

import (
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/sim/version"
	"github.com/shedsim/shedsim/wasm/adapter"
)

// This file is the simulator's recompute: a change's runs, every policy
// first, then the chosen one's later parts (advice, clients, seeds), a
// step per task so that the page's main thread stays free.

// laterWork is a recompute's runs, which the page's workers answer in
// any order, and what of them is drawn so far.
type laterWork struct {
	config sim.Config
	// startMS is when the recompute began (now()), for its timings.
	startMS float64
	// compared is every policy's run, in the order of sim.Policies, without
	// its windows, for the comparison and report.Advise (see next);
	// chosenShown, that the chosen policy's is drawn; drawn, that the bars
	// and table show them.
	compared    []sim.Result
	chosenShown bool
	drawn       bool
	// chosen is the chosen policy's run, whole (its windows too), once
	// back; rows, every policy's row, once drawn.
	chosen *sim.Result
	rows   []report.Row
	// series is the chosen run with its series (the page only), which the
	// page asks for and takes off chosen, so that chosen is the run every
	// other part of the page and the downloads know.
	series *sim.Result
	// altRuns are the advice's runs back so far (report.AdviceRuns lists
	// them, a round at a time: adviseRound), altsLeft those of the round
	// still out; advised, that the advice is drawn.
	altRuns  []sim.Result
	altsLeft int
	advised  bool
	// sent, that the advice's first round and the seeds are sent, a task
	// after the comparison is drawn.
	sent bool
	// clients are the client comparison's runs, in the order of
	// sim.Clients (the page only), clientsLeft those still out;
	// clientsDrawn, that the comparison is drawn.
	clients      []sim.Result
	clientsLeft  int
	clientsDrawn bool
	// download is a download asked for before the advice was in: "csv",
	// "json" or "".
	download string
	// announce: the input was committed, and its headline is to be
	// announced when drawn.
	announce bool
	// seeds are the runs over more seeds than one (sim_seeds_js.go).
	seeds seedsWork
	// collected, that its garbage is to be collected once the browser is
	// idle (sim_gc_js.go).
	collected bool
}

// compute validates vals and sends their runs to the page's workers, or
// marks what is wrong. The chosen policy's run goes first; each answer is
// drawn as it comes (advance), so what the reader changed shows as soon
// as its own run is back. A new valid input cancels the runs of the last.
func (w *simWidget) compute(vals map[string]string) {
	c, errs := adapter.ConfigFromStrings(w.start, vals, adapter.ViewRuns, adapter.SeedsKey)
	if len(errs) == 0 {
		if err := c.Validate(); err != nil {
			errs = adapter.SimErrors(err, nil)
		}
	}
	n, e := adapter.SeedsFor(c, vals[adapter.SeedsKey], len(errs) == 0)
	if e != nil {
		errs = append(errs, *e)
	}
	fields := w.form.fields
	rest := markAll(fields, errs)
	if len(errs) > 0 {
		// What is still to come belongs to the last valid input, whose
		// results stay on show: it finishes.
		problem := firstProblem(fields, errs)
		w.form.previewTables() // a table's field says what it reads, or nothing, as it is typed
		if len(rest) > 0 && !w.page {
			w.showError("This widget's settings have a problem: " + strings.Join(rest, "; "))
		}
		w.setStale(true, "Not updated: "+problem)
		w.dispatch("shedsim:invalid", adapter.Invalid(errs))
		return
	}
	if !w.page {
		w.showError("")
	}
	w.runs.cancel()
	w.drawing.reset()
	first := w.view == nil
	w.later = laterWork{config: c, startMS: now(), compared: samePolicies(w.later, c), seeds: seedsWork{n: n}}
	w.seedsBegin()
	w.timings = timings{}
	w.showTimings()
	l := &w.later
	w.results.SetAttribute("data-rows", "pending")
	w.results.SetAttribute("data-advice", "pending")
	w.results.SetAttribute("aria-busy", "true")
	w.markBusy()
	if first {
		// Nothing on show is the last input's: not dimmed (the page's
		// loader puts the prerendered default run back, if this is it).
		w.dim.stop()
		w.compare.placeholders(c)
	}
	// The chosen policy first, whole, then every policy's totals, then
	// the clients': the workers take them in this order.
	chosen := c
	if w.page {
		chosen.SeriesStepS = sim.SeriesStep(c.DurationS)
	}
	w.runs.start(&w.widget, chosen, true, func(r sim.Result) {
		if r.Series != nil {
			withSeries := r
			l.series = &withSeries
		}
		r.Series, r.Config.SeriesStepS = nil, 0 // the series changes nothing else (sim's TestSeriesInvariants)
		l.chosen = &r
		w.advancing.after(0)
	})
	for _, p := range sim.Policies {
		if l.compared[p].Config.Workers != 0 {
			continue // only the policy changed: this run stands
		}
		alt := c
		alt.Policy = p
		w.runs.start(&w.widget, alt, false, func(r sim.Result) {
			l.compared[p] = r
			w.advancing.after(0)
		})
	}
	if w.clients != nil {
		l.clients = make([]sim.Result, len(sim.Clients))
		for i, cl := range sim.Clients {
			if cl == c.Client {
				continue // the chosen policy's run itself (ClientRun)
			}
			alt := c
			alt.Client = cl
			l.clientsLeft++
			w.runs.start(&w.widget, alt, false, func(r sim.Result) {
				l.clients[i] = r
				l.clientsLeft--
				w.advancing.after(0)
			})
		}
	}
	// What the runs of the last input allow (the comparison, when only the
	// policy changed) is drawn in a task after this one, the reader's.
	w.advancing.after(0)
}

// advance draws the next part the runs answered so far allow: the chosen
// policy as soon as its run is back, every policy side by side once
// theirs are, then the advice's first round sent, then (once their runs
// are back too) the advice and the client comparison. Each part is a task
// of its own on the main thread, timed as a step: an answer is decoded in
// its own task and asks for advance in a task after it (w.advancing; the
// big link's chosen run, decoded and drawn in one, took 60 ms of CPU at
// 4x), and one that drew a part runs advance again in a task after it, so
// that an answer that completes several parts (a change of policy alone,
// whose other runs stand) does not draw them all in one long task.
func (w *simWidget) advance() {
	if w.advanceStep() {
		w.advancing.after(0)
	}
	w.collectIfDone()
}

// advanceStep draws the first part that is due, if any, and reports
// whether it drew one.
func (w *simWidget) advanceStep() bool {
	l := &w.later
	c := l.config
	start := now()
	defer func() {
		w.timings.step = max(w.timings.step, now()-start)
		w.showTimings()
	}()
	if !l.chosenShown && l.chosen != nil {
		v := report.ChosenView(c, *l.chosen)
		v.Rows = l.rows
		w.summary.SetTextContent(report.Headline(v.Chosen)) // the rest a step at a time (drawLines)
		w.view = &v
		w.setStale(false, "")
		l.chosenShown = true
		w.timings.draw += now() - start
		w.timings.first = now() - l.startMS
		w.announceResult()
		steps := append([]func(){w.drawLines, w.drawChart, w.drawChartTable}, w.chainSteps()...)
		w.drawing.add(append(steps, w.mechanismSteps()...)...)
		return true
	}
	if !l.drawn {
		if _, more := l.next(); more {
			return false
		}
		l.rows = report.Rows(l.compared)
		if !l.seeds.more() { // else the seeds draw them (progressSeeds)
			w.compare.draw(c, l.rows, false)
			for _, e := range w.compare.measuredLater() {
				measured(e)
			}
		}
		l.drawn = true
		w.results.RemoveAttribute("data-rows")
		w.timings.draw += now() - start
		w.timings.build = now() - l.startMS
		if l.chosenShown {
			w.view.Rows = l.rows
		}
		return true
	}
	if !l.sent {
		// The advice's first round, where it is shown (the page and kind
		// "full": another widget measures none), then the seeds, a
		// policy's a step, which wait for every round of it
		// (runs.startLater).
		l.sent = true
		if w.advice != nil {
			w.adviseRound()
		}
		return true
	}
	if w.startSeeds() {
		return true
	}
	if !l.chosenShown {
		return false
	}
	if !l.advised {
		if l.altsLeft > 0 {
			return false
		}
		if w.advice != nil {
			adv, err := report.AdviseFrom(c, l.compared, l.altRuns)
			if err != nil {
				panic(err)
			}
			w.view.Advice = adv
			w.advice.render(adv, c)
		}
		w.results.RemoveAttribute("data-advice")
		l.advised = true
		w.timings.advice = now() - start
		console("shedsim: " + f1(w.timings.first) + " ms until your policy was drawn, " + f1(w.timings.build) + " ms until every policy was, " + f1(w.timings.draw) + " ms drawing, " + f1(w.timings.advice) +
			" ms the advice; " + report.Count(int(c.ExpectedAttempts())) + " attempts expected per run")
		w.dispatch("shedsim:result", `{"view":`+adapter.MustJSON(*w.view)+`,"first_ms":`+adapter.Fnum(w.timings.first)+`,"build_ms":`+adapter.Fnum(w.timings.build)+`,"advice_ms":`+adapter.Fnum(w.timings.advice)+`,"version":`+adapter.MustJSON(version.Stamped())+`}`)
		if l.download != "" {
			w.download(l.download)
		}
		return true
	}
	if w.clients == nil || l.clientsDrawn || l.clientsLeft > 0 {
		return false
	}
	l.clients[c.Client] = *l.chosen
	cv := report.ClientView{Config: c, Rows: report.ClientRows(l.clients)}
	w.clients.render(cv)
	l.clientsDrawn = true
	measured(w.clients.section)
	w.timings.clients = now() - l.startMS
	w.timings.draw += now() - start
	w.dispatch("shedsim:clients", `{"view":`+adapter.MustJSON(cv)+`,"clients_ms":`+adapter.Fnum(w.timings.clients)+`}`)
	return true
}

// next is the next policy of the comparison still to run; false when all
// have run. A run's Config has a worker; one not run yet is zero.
func (l *laterWork) next() (sim.Policy, bool) {
	for _, p := range sim.Policies {
		if l.compared[p].Config.Workers == 0 {
			return p, true
		}
	}
	return 0, false
}

// samePolicies is a new comparison for c: the runs of the last one where
// c differs from its config in the policy alone (the other policies' runs
// are then the same), none otherwise.
func samePolicies(last laterWork, c sim.Config) []sim.Result {
	out := make([]sim.Result, len(sim.Policies))
	same := last.config
	same.Policy = c.Policy
	if last.compared != nil && same == c {
		copy(out, last.compared)
	}
	return out
}
