package main

import (
	"io"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// seriesConfig applies --series and --series-step-s to c: --series asks
// for the series at sim.SeriesStep's step unless --series-step-s gives one.
// Only --series and --json print a series, so a step given for any other
// output is refused, as a step of 0 with --series is.
func seriesConfig(c sim.Config, set map[string]bool, o options) (sim.Config, error) {
	switch {
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
// report.WriteSeries does: the charts' sentences, then a row a step.
func writeSeries(w io.Writer, c sim.Config) error {
	r, err := sim.Run(c)
	if err != nil {
		return err
	}
	return report.WriteSeries(w, r)
}
