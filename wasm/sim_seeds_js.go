//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

// This file is the simulator's seeds control: with
// more than one seed, every policy's bars and table show the mean and the
// spread over seeds from the form's seed, as `shedsim --seeds N` prints
// them. The runs go to the page's workers after everything else a
// recompute asks for, so the chosen policy's single run paints first;
// sim/report (SeedsViewOf) computes and words what is drawn.

// seedsWork is a recompute's runs over seeds.
type seedsWork struct {
	// n is how many seeds the control asks for; 1 is none of this.
	n int
	// runs[p][k] is policy p's run at seed config.Seed+1+k (the first seed
	// is the comparison's own run); left is how many are still out, and
	// sent how many policies' runs are sent.
	runs       [][]sim.Result
	left, sent int
	// drawn, that the bars and the table show the seeds; headline is the
	// chosen policy's over the seeds, to announce.
	drawn    bool
	headline string
}

// more reports whether the recompute runs more than one seed.
func (s *seedsWork) more() bool { return s.n > 1 }

// seedsBegin marks a recompute's seeds as pending, and says so above the
// bars; with one seed that line is hidden.
func (w *simWidget) seedsBegin() {
	w.compare.showSeedsNote(report.SeedsRunning, w.later.seeds.more())
	if w.later.seeds.more() {
		w.results.SetAttribute("data-seeds", "pending")
	}
}

// startSeeds sends the seeds' runs to the workers once every policy's
// first run is back, a policy's at a call (39 runs at 40 seeds: all 234 in
// one task were 113 ms of the main thread's CPU at 4x in Chromium), and
// reports whether it sent any. The advice's runs, round after round, go
// before them (runs.startLater), so that the advice and shedsim:result do
// not wait for them.
func (w *simWidget) startSeeds() bool {
	l := &w.later
	s := &l.seeds
	if !s.more() || s.sent == len(sim.Policies) {
		return false
	}
	c := l.config
	if s.sent == 0 {
		s.runs = make([][]sim.Result, len(sim.Policies))
		s.left = (s.n - 1) * len(sim.Policies)
	}
	p := sim.Policies[s.sent]
	s.sent++
	s.runs[p] = make([]sim.Result, s.n-1)
	for k := range s.n - 1 {
		alt := c
		alt.Policy, alt.Seed = p, c.Seed+uint64(k+1)
		w.runs.startLater(&w.widget, alt, func(r sim.Result) {
			s.runs[p][k] = r
			s.left--
			w.progressSeeds()
		})
	}
	return true
}

// progressSeeds says how far the seeds have got, and draws them once all
// are back: each policy's runs folded in seed order, as the command line
// folds them.
func (w *simWidget) progressSeeds() {
	l := &w.later
	s := &l.seeds
	if s.left > 0 {
		return
	}
	sums := make([]report.SeedSummary, len(sim.Policies))
	for _, p := range sim.Policies {
		sums[p].Add(l.compared[p])
		for _, r := range s.runs[p] {
			sums[p].Add(r)
		}
	}
	c := l.config
	v := report.SeedsViewOf(c, s.n, sim.Policies, sums)
	p := w.compare
	p.showSeedsNote(v.Key, true)
	if p.bars != nil {
		var m markup.Markup
		markup.WriteSeedBars(&m, v, c.Policy)
		fill(p.bars, fromMarkup(&m))
	}
	if p.table != nil {
		var m markup.Markup
		markup.WriteTable(&m, p.tableID, "compare seeds", v.Caption, "Every policy over seeds", "policy", v.Table, adapter.PolicyKeys, c.Policy.String(), false)
		fill(p.table, fromMarkup(&m))
	}
	if p.about != nil {
		p.about.SetTextContent("")
	}
	for _, e := range p.measuredLater() {
		measured(e)
	}
	s.drawn = true
	s.headline = c.Policy.Title() + ": " + v.Bars[c.Policy].Text
	// The headline, pinned beside the chosen run's chart, goes on to say
	// what the policy did over the seeds, which the bars now show.
	w.summary.SetTextContent(report.SeedsHeadline(l.compared[c.Policy], sums[c.Policy]))
	w.results.RemoveAttribute("data-seeds")
	w.announceResult()
	w.collectIfDone()
}
