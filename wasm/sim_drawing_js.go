//go:build js && wasm

package main

import "github.com/shedsim/shedsim/sim/report"

// This file draws the chosen policy's run a step at a time, so that no
// task on the page's main thread is long (issue 10): an hour's run is a
// chart of 360 windows, its table of 360 rows, the mechanism's three
// charts and their three tables of 360 steps, some 10,000 elements, which
// drawn in one task took hundreds of milliseconds at 4x CPU. Each step is
// a task of its own, after the browser has painted the one before; a
// table is written rowsPerStep rows a step.

// rowsPerStep is how many rows of a long table one step writes: 60 rows
// of 7 cells are some 500 elements, a few milliseconds to write and lay
// out at 1x.
const rowsPerStep = 60

// drawing is a queue of steps, each run as a task of its own after the
// browser has painted (task.afterPaint), in order; a recompute starts a
// new queue (reset). done runs once the queue is empty. longestMS and
// totalMS are the steps' since the reset, timed with now().
type drawing struct {
	t                  *task
	steps              []func()
	done               func()
	longestMS, totalMS float64
}

func newDrawing(w *widget, done func()) *drawing {
	d := &drawing{done: done}
	d.t = w.task(d.step)
	return d
}

// reset drops the steps of the last recompute.
func (d *drawing) reset() {
	d.t.stop()
	d.steps = nil
	d.longestMS, d.totalMS = 0, 0
}

// add queues steps after those queued, and starts the queue.
func (d *drawing) add(steps ...func()) {
	d.steps = append(d.steps, steps...)
	d.t.afterPaint()
}

// step is d.t: the first step queued, then the next, after a paint.
func (d *drawing) step() {
	if len(d.steps) == 0 {
		return
	}
	s := d.steps[0]
	d.steps = d.steps[1:]
	start := now()
	s()
	ms := now() - start
	d.longestMS, d.totalMS = max(d.longestMS, ms), d.totalMS+ms
	if len(d.steps) > 0 {
		d.t.afterPaint()
	} else if d.done != nil {
		d.done()
	}
}

// longTable writes tab into box as a table: its header and first
// rowsPerStep rows at once, the rest in steps queued on d, rowsPerStep a
// step, after the steps queued already. The first cell of each row is
// its header, and rowClass(i) (nil: none) is row i's class. The table is
// aria-busy until its last row is written.
func (d *drawing) longTable(box el, id, class, caption, label string, tab report.Table, rowClass func(i int) string) {
	rows := func(m *markup, from, to int) {
		for i, row := range tab.Rows[from:to] {
			if rowClass != nil && rowClass(from+i) != "" {
				m.open("tr", "class", rowClass(from+i))
			} else {
				m.open("tr")
			}
			m.elem("th", "scope", "row", row[0])
			for _, cell := range row[1:] {
				m.elem("td", cell)
			}
			m.close("tr")
		}
	}
	first := min(rowsPerStep, len(tab.Rows))
	var m markup
	if first < len(tab.Rows) {
		m.open("table", "id", id, "class", class, "aria-busy", "true")
	} else {
		m.open("table", "id", id, "class", class)
	}
	m.elem("caption", caption)
	m.open("thead")
	m.open("tr")
	for _, col := range tab.Header {
		m.elem("th", "scope", "col", col)
	}
	m.close("tr")
	m.close("thead")
	m.open("tbody")
	rows(&m, 0, first)
	m.close("tbody")
	m.close("table")
	table := fromMarkup(&m)
	fill(box, tableWrap(label, table))
	body := table.Underlying().Call("querySelector", "tbody") // not dom/v2's QuerySelector, whose wrapping of every element type is 700 KB
	for from := first; from < len(tab.Rows); from += rowsPerStep {
		to := min(from+rowsPerStep, len(tab.Rows))
		d.steps = append(d.steps, func() {
			var r markup
			rows(&r, from, to)
			body.Call("insertAdjacentHTML", "beforeend", r.String())
			if to == len(tab.Rows) {
				table.RemoveAttribute("aria-busy")
			}
		})
	}
	if len(d.steps) > 0 && d.t.timeout.IsUndefined() {
		d.t.afterPaint()
	}
}
