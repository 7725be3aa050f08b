package main

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// seriesConfig applies --series and --series-step-s to c: --series asks
// for the series at sim.SeriesStep's step unless --series-step-s gives one.
// Only --series and --json print a series, so a step given for any other
// output is refused, as a step of 0 with --series is.
func seriesConfig(c sim.Config, set map[string]bool, o options) (sim.Config, error) {
	switch {
	case set["csv"] && !o.series:
		return c, usageError{"--csv: only --series prints CSV here (and the sweep, map and seek subcommands): add --series, or leave out --csv"}
	case set["csv"] && set["json"]:
		return c, usageError{"--json and --csv print different things: give one"}
	case o.series && set["series-step-s"] && c.SeriesStepS == 0:
		return c, usageError{"--series-step-s: 0 asks for no series, which --series prints: give a step, or leave out --series-step-s for " +
			report.Seconds(sim.SeriesStep(c.DurationS)) + " at this duration"}
	case o.series && c.SeriesStepS == 0:
		c.SeriesStepS = sim.SeriesStep(c.DurationS)
	case set["series-step-s"] && !o.series && !o.json:
		return c, usageError{"--series-step-s: only --series and --json print the series: add --series, or leave out --series-step-s"}
	}
	return c, nil
}

// writeSeries runs c, which asks for a series, and prints it as
// report.WriteSeries does: the charts' sentences, then a row a step. A
// chain's prints each service's in turn, the entry's first, each under its
// name and who calls it.
func writeSeries(w io.Writer, c sim.Config) error {
	r, err := sim.Run(c)
	if err != nil {
		return err
	}
	if len(r.Hops) == 0 {
		return report.WriteSeries(w, r)
	}
	caller := report.EntryName
	if _, err := io.WriteString(w, caller+", which the people call:\n\n"); err != nil {
		return err
	}
	if err := report.WriteSeries(w, r); err != nil {
		return err
	}
	for _, h := range r.Hops {
		if _, err := io.WriteString(w, "\n"+h.Hop.Name+", which "+caller+" calls:\n\n"); err != nil {
			return err
		}
		if err := report.WriteSeries(w, h.Result); err != nil {
			return err
		}
		caller = h.Hop.Name
	}
	return nil
}

// seriesCSV is the header of writeSeriesCSV: each column's name and unit.
var seriesCSV = []string{"start_s", "end_s", "queue", "queue_work_s", "oldest_wait_ms", "busy_useful", "busy_wasted", "busy_refusing",
	"gone", "first_attempts", "retries", "completed", "answered", "capacity_rps"}

// seriesCSVChain is the columns a chain's CSV adds: the workers held for a
// call downstream (mean over the step), and the service, the entry's
// first, then each hop's.
var seriesCSVChain = []string{"busy_calling", "service"}

// writeSeriesCSV runs c, which asks for a series, and prints it as CSV, a
// row a step, the numbers as sim.SeriesPoint holds them (counts in the
// step; busy and gone workers as means over it), with the step's end, the
// queue's work at full capacity in seconds, and the capacity. A chain's
// has every service's rows, the entry's first, with seriesCSVChain's
// columns.
func writeSeriesCSV(w io.Writer, c sim.Config) error {
	r, err := sim.Run(c)
	if err != nil {
		return err
	}
	chain := len(r.Hops) > 0
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	cw := csv.NewWriter(w)
	header := seriesCSV
	if chain {
		header = append(header[:len(header):len(header)], seriesCSVChain...)
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	names, series := []string{report.EntryName}, []*sim.Series{r.Series}
	for _, h := range r.Hops {
		names, series = append(names, h.Hop.Name), append(series, h.Result.Series)
	}
	for k, s := range series {
		for _, p := range s.Points {
			end := min(p.StartS+s.StepS, c.DurationS)
			row := []string{num(p.StartS), num(end), strconv.Itoa(p.Queue), num(float64(p.Queue) / s.CapacityRPS), num(p.OldestWaitMS),
				num(p.BusyUseful), num(p.BusyWasted), num(p.BusyRefusing), num(p.Gone),
				strconv.Itoa(p.FirstAttempts), strconv.Itoa(p.Retries), strconv.Itoa(p.Completed), strconv.Itoa(p.Answered), num(s.CapacityRPS)}
			if chain {
				row = append(row, num(p.BusyCalling), names[k])
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
