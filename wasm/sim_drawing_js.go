//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/markup"
)

// This file draws the chosen policy's run a step at a time, so that no
// task on the page's main thread is long: an hour's run is a
// chart of 360 windows, its table of 360 rows, the mechanism's three
// charts and their three tables of 360 steps, some 10,000 elements, which
// drawn in one task took hundreds of milliseconds at 4x CPU. Each step is
// a task of its own, after the browser has painted the one before; a
// table is written rowsPerStep rows a step.

// rowsPerStep is how many rows of a long table one step writes: 20 rows
// of 7 cells are some 170 elements. A step of 60 took up to 100 ms of the
// main thread's CPU at 4x in Chromium (the mechanism's tables of an hour
// are 1,080 rows).
const rowsPerStep = 20

// drawing is a queue of steps, each run as a task of its own after the
// browser has painted (task.afterPaint), in order; a recompute starts a
// new queue (reset). done runs once the queue is empty.
type drawing struct {
	t     *task
	steps []func()
	done  func()
}

// start makes d's task, in w.
func (d *drawing) start(w *widget) *drawing {
	d.t = w.task(d.step)
	return d
}

// reset drops the steps of the last recompute.
func (d *drawing) reset() {
	d.t.stop()
	d.steps = nil
}

// add queues steps after those queued, and starts the queue.
func (d *drawing) add(steps ...func()) {
	d.steps = append(d.steps, steps...)
	d.t.afterPaint()
}

// idle reports whether no step is queued.
func (d *drawing) idle() bool { return len(d.steps) == 0 }

// step is d.t: the first step queued, then the next, after a paint.
func (d *drawing) step() {
	if len(d.steps) == 0 {
		return
	}
	s := d.steps[0]
	d.steps = d.steps[1:]
	s()
	if len(d.steps) > 0 {
		d.t.afterPaint()
	} else if d.done != nil {
		d.done()
	}
}

// longTable writes tab into box as a table: its header at once, its rows
// in steps queued on d, rowsPerStep a step, after the steps queued
// already (the three tables of the mechanism, written in one step, would
// otherwise be 180 rows in it). Row i is the sale's where
// inSale[i] (WriteRows). The table is aria-busy until its last row is
// written.
func (d *drawing) longTable(box el, id, class, caption, label string, tab report.Table, inSale []bool) {
	var m markup.Markup
	markup.WriteTableHead(&m, id, class, caption, tab.Header)
	m.Raw("</tbody></table>")
	r := &tableRows{table: fromMarkup(&m), rows: tab.Rows, inSale: inSale}
	fill(box, tableWrap(label, r.table))
	r.body = r.table.Underlying().Call("querySelector", "tbody") // not dom/v2's QuerySelector, whose wrapping of every element type is 700 KB
	if len(tab.Rows) > 0 {
		r.table.SetAttribute("aria-busy", "true")
	}
	for i := 0; i < len(tab.Rows); i += rowsPerStep {
		d.steps = append(d.steps, r.step)
	}
}

// tableRows are a long table's rows, written rowsPerStep a step.
type tableRows struct {
	table  el
	body   js.Value // the table's <tbody>
	rows   [][]string
	inSale []bool
	next   int // the first row not written
}

// step writes the next rowsPerStep rows.
func (r *tableRows) step() {
	to := min(r.next+rowsPerStep, len(r.rows))
	var m markup.Markup
	markup.WriteRows(&m, r.rows[r.next:to], r.inSale[r.next:to])
	r.body.Call("insertAdjacentHTML", "beforeend", m.String())
	if r.next = to; to == len(r.rows) {
		r.table.RemoveAttribute("aria-busy")
	}
}

// drawLines is a step of w.drawing, a step after the chosen policy's
// headline: what the form says about its inputs, the chart's title and
// the lines under it (in the headline's task, they and the headline took
// over 50 ms of the main thread's CPU at 4x).
func (w *simWidget) drawLines() {
	if !w.later.chosenShown {
		return
	}
	v := *w.view
	w.form.show(v)
	if w.kind != "compare" { // which draws no chart
		w.timeline.render(v)
	}
}

// drawChart is a step of w.drawing: the chosen policy's chart, a step
// after its lines.
func (w *simWidget) drawChart() {
	if w.later.chosenShown {
		w.timeline.renderChart(*w.view)
	}
}

// drawChartTable is a step of w.drawing: the chosen policy's chart as a
// table, a step after the chart itself, its rows in later steps.
func (w *simWidget) drawChartTable() {
	if w.later.chosenShown {
		w.timeline.renderTable(w.drawing, *w.view)
	}
}

// mechanismSteps are the steps of w.drawing that draw the chosen run's
// mechanism (the page only, from its series): each of its charts two
// steps, after the chart's table, one to lay it out (report.MechanismCharts)
// and one to draw it (an hour's queue chart, both in one step, took 66 ms
// of the main thread's CPU at 4x), then their tables.
func (w *simWidget) mechanismSteps() []func() {
	l := &w.later
	if w.timeline.mech == nil || l.series == nil {
		return nil
	}
	charts := report.MechanismCharts(*l.series)
	var steps []func()
	if len(charts) == 0 {
		steps = append(steps, w.timeline.mech.clear) // the last run's
	}
	for i, ch := range charts {
		var c report.SeriesChart
		steps = append(steps, func() { c = ch() }, func() {
			if i == 0 {
				w.timeline.mech.clear()
			}
			w.timeline.mech.add(c)
		})
	}
	return append(steps, w.drawMechanismTables)
}

// drawMechanismTables is a step of w.drawing: the mechanism's tables,
// their rows in later steps.
func (w *simWidget) drawMechanismTables() {
	if w.later.chosenShown && w.later.series != nil {
		w.timeline.renderMechanismTables(w.drawing)
	}
}

// drawnWhole is w.drawing's done: the chosen policy is drawn whole.
func (w *simWidget) drawnWhole() {
	w.results.RemoveAttribute("aria-busy")
	w.collectIfDone()
}
