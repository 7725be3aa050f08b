package plan_test

import (
	"fmt"

	"github.com/shedsim/shedsim/sim/plan"
)

func ExampleCompute() {
	p, err := plan.Compute(plan.Input{RateRPS: 150, ServiceMS: 80, Target: 0.05})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("offered load: %g Erlangs\n", p.OfferedLoad)
	fmt.Printf("%d servers\n", p.Servers)
	fmt.Printf("with %d, %.2f%% of requests wait\n", p.OneFewer.Servers, 100*p.OneFewer.Wait)
	fmt.Printf("with %d, %.2f%%\n", p.Answer.Servers, 100*p.Answer.Wait)
	for _, r := range p.Nearby {
		fmt.Printf("%3d servers: %6.2f%% wait, p99 queue wait %5.1f ms\n", r.Servers, 100*r.Wait, r.P99QueueWaitMS)
	}
	// Output:
	// offered load: 12 Erlangs
	// 19 servers
	// with 18, 7.56% of requests wait
	// with 19, 4.35%
	//  15 servers:  31.92% wait, p99 queue wait  92.4 ms
	//  16 servers:  20.46% wait, p99 queue wait  60.4 ms
	//  17 servers:  12.66% wait, p99 queue wait  40.6 ms
	//  18 servers:   7.56% wait, p99 queue wait  27.0 ms
	//  19 servers:   4.35% wait, p99 queue wait  16.8 ms
	//  20 servers:   2.41% wait, p99 queue wait   8.8 ms
	//  21 servers:   1.29% wait, p99 queue wait   2.3 ms
	//  22 servers:   0.66% wait, p99 queue wait   0.0 ms
	//  23 servers:   0.33% wait, p99 queue wait   0.0 ms
}

func ExampleInput_Validate() {
	err := plan.Input{RateRPS: 150, ServiceMS: 80, Target: 5}.Validate()
	fmt.Println(err)
	// Output:
	// target: 5 is too large: use a fraction below 1 (and at least a billionth), such as 0.05 for 5%
}

func ExampleErlangC() {
	// The classic call centre: 10 Erlangs of calls, 11 to 14 agents.
	for c := 11; c <= 14; c++ {
		fmt.Printf("%d agents: %.4f\n", c, plan.ErlangC(c, 10))
	}
	// Output:
	// 11 agents: 0.6821
	// 12 agents: 0.4494
	// 13 agents: 0.2853
	// 14 agents: 0.1741
}
