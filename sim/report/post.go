package report

import (
	"math"

	"github.com/shedsim/shedsim/sim"
)

// postAnswered is the blog post's own answered share of the sale, a
// fraction, for the policies it gives one at its inputs (the shop's sale,
// sim.DefaultConfig): "the simulation's 8.4%" (the unbounded queue), "from
// 8.4% to 19.5%" (skip the abandoned), "answers 67.1% of the people who
// arrive during the sale" (the bounded queue of 50). The README's "What it
// measures against the post" sets them beside this model's means.
var postAnswered = [...]struct {
	policy sim.Policy
	share  float64
}{{sim.FIFO, 0.084}, {sim.Skip, 0.195}, {sim.Bounded, 0.671}}

// PostAnswered is the post's own answered share of the sale for c's policy,
// and true, where c is the post's inputs (sim.DefaultConfig under any
// policy and seed) and the post gives one for that policy; 0 and false
// otherwise.
func PostAnswered(c sim.Config) (float64, bool) {
	d := sim.DefaultConfig()
	d.Policy, d.Seed = c.Policy, c.Seed
	if c != d {
		return 0, false
	}
	for _, f := range postAnswered {
		if f.policy == c.Policy {
			return f.share, true
		}
	}
	return 0, false
}

// PostBesideSpread says where the post's own answered share for c's policy
// lies against the seeds' answered shares s: "The post's 8.4% is 1.9
// standard deviations above this mean, 6.5 ± 1.0%." ("" where c is not the
// post's inputs, the post gives no share for the policy, or no seed had
// anyone in the sale). Within one standard deviation it says so: "The
// post's 67.1% is within one standard deviation of this mean, 67.3 ± 1.2%."
func PostBesideSpread(c sim.Config, s Spread) string {
	post, ok := PostAnswered(c)
	if !ok || s.N == 0 {
		return ""
	}
	head := "The post's " + Percent(post) + " is "
	tail := " this mean, " + SpreadPercent(s) + "."
	d := post - s.Mean()
	sd := s.SD()
	if math.Abs(d) <= sd {
		return head + "within one standard deviation of" + tail
	}
	side := " above"
	if d < 0 {
		side = " below"
	}
	if sd == 0 { // one seed, or seeds that all agree
		return head + Number(math.Abs(d)*100, 1) + " points" + side + tail
	}
	return head + Number(math.Abs(d)/sd, 1) + " standard deviations" + side + tail
}
