package report_test

import (
	"fmt"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

func ExampleBuild() {
	v, err := report.Build(sim.DefaultConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	first := v.Rows[0]
	fmt.Println(first.Title, report.Percent(first.Answered))
	fmt.Println(v.Outlook.Label)
	// Output:
	// Unbounded queue 7.0%
	// Once everyone times out
}

func ExamplePercent() {
	fmt.Println(report.Percent(0.084))
	fmt.Println(report.Percent(0.671))
	fmt.Println(report.Percent(1))
	// Output:
	// 8.4%
	// 67.1%
	// 100.0%
}

func ExampleFluidLine() {
	c := sim.DefaultConfig()
	for r := 0; r <= 3; r++ {
		fmt.Println(report.FluidLine(c, r))
	}
	c.Client = sim.Budget
	fmt.Println(report.FluidLine(c, 3))
	// Output:
	// retries=0: 70/s x 1 try = 70/s against 100/s, drains
	// retries=1: 70/s x 2 tries = 140/s against 100/s, never drains
	// retries=2: 70/s x 3 tries = 210/s against 100/s, never drains
	// retries=3: 70/s x 4 tries = 280/s against 100/s, never drains
	// retries=3, budget: 70/s x 1 try = 70/s against 100/s, drains (the budget is spent, and nothing answered refills it)
}

func ExampleCount() {
	fmt.Println(report.Count(14309))
	// Output: 14,309
}

func ExampleDuration() {
	fmt.Println(report.Duration(98), report.Duration(1002), report.Duration(2000), report.Duration(10240))
	// Output: 98 ms 1,002 ms 2 s 10.2 s
}
