package sim_test

import (
	"fmt"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// Run the post's sale, into the unbounded queue, with seed 1.
func ExampleRun() {
	r, err := sim.Run(sim.DefaultConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("answered in the sale: %.1f%%\n", 100*r.Sale.AnsweredShare)
	fmt.Printf("served to nobody: %d\n", r.Wasted)
	fmt.Printf("back to normal after %g s\n", *r.BackToNormalS)
	// Output:
	// answered in the sale: 7.0%
	// served to nobody: 14625
	// back to normal after 90 s
}

// Compare two policies on the same seed.
func ExampleRun_policies() {
	for _, p := range []sim.Policy{sim.FIFO, sim.Bounded} {
		c := sim.DefaultConfig()
		c.Policy = p
		r, err := sim.Run(c)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-16s answered %.1f%%, refused %.1f%%, median wait %.0f ms\n",
			p.Title(), 100*r.Sale.AnsweredShare, 100*r.Sale.RefusedShare, *r.Sale.MedianWaitMS)
	}
	// Output:
	// Unbounded queue  answered 7.0%, refused 0.0%, median wait 1180 ms
	// Bounded queue    answered 69.5%, refused 30.5%, median wait 525 ms
}

func ExampleDefaultConfig() {
	c := sim.DefaultConfig()
	fmt.Printf("%d workers at %g ms: capacity %g a second\n", c.Workers, c.ServiceMS, c.CapacityRPS())
	fmt.Printf("%g a second, %g during the sale from %g s to %g s of %g s\n", c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleEndS(), c.DurationS)
	fmt.Printf("timeout %g ms, %d retries, policy %v, seed %d\n", c.TimeoutMS, c.Retries, c.Policy, c.Seed)
	fmt.Printf("automatic bound %d (%g s of work), suggested workers %d\n", c.QueueBound(), c.QueueSeconds(), c.SuggestedWorkers())
	// Output:
	// 8 workers at 80 ms: capacity 100 a second
	// 70 a second, 150 during the sale from 60 s to 120 s of 300 s
	// timeout 2000 ms, 0 retries, policy fifo, seed 1
	// automatic bound 50 (0.5 s of work), suggested workers 13
}

func ExampleConfig_Validate() {
	c := sim.DefaultConfig()
	c.Workers = 0
	c.TimeoutMS = -1
	err := c.Validate()
	fmt.Println(err)
	for _, fe := range sim.FieldErrors(err) {
		fmt.Println("field:", fe.Field)
	}
	// Output:
	// workers: 0 is out of range: use a whole number from 1 to 100,000
	// timeout_ms: -1 is too small: use a number above 0, up to 3,600,000 ms
	// field: workers
	// field: timeout_ms
}

func ExampleParsePolicy() {
	p, err := sim.ParsePolicy(" LIFO ")
	fmt.Println(p, "-", p.Title(), err)
	_, err = sim.ParsePolicy("random")
	first, _, _ := strings.Cut(err.Error(), ",") // the error goes on to list every policy
	fmt.Println(first)
	// Output:
	// lifo - Newest first (adaptive LIFO) <nil>
	// unknown policy "random": use one of fifo
}

func ExampleSampleByKey() {
	s, ok := sim.SampleByKey("retries")
	fmt.Println(ok, s.Name, "-", s.Config.Policy, s.Config.Retries)
	_, ok = sim.SampleByKey("nope")
	fmt.Println(ok)
	// Output:
	// true Unbounded, with 3 retries - fifo 3
	// false
}

func ExampleLab() {
	fmt.Println(len(sim.Lab()), "runs")
	// Output:
	// 162 runs
}
