package report

import (
	"math"
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// postAnswered is the blog post's own answered share of the sale, a
// fraction, for the policies it gives one at its inputs (the shop's sale,
// sim.DefaultConfig, with the client's timeout in ms): "the simulation's
// 8.4%" (the unbounded queue), "from 8.4% to 19.5%" (skip the abandoned),
// "answers 67.1% of the people who arrive during the sale" (the bounded
// queue of 50), and its table of timeouts for the unbounded queue, 3.5%
// at 1 s and 16.5% at 4 s. The README's "What it measures against the
// post" sets them beside this model's means.
var postAnswered = [...]struct {
	policy    sim.Policy
	timeoutMS float64
	share     float64
}{{sim.FIFO, 2000, 0.084}, {sim.Skip, 2000, 0.195}, {sim.Bounded, 2000, 0.671}, {sim.FIFO, 1000, 0.035}, {sim.FIFO, 4000, 0.165}}

// PostAnswered is the post's own answered share of the sale for c's policy,
// and true, where c is the post's inputs (sim.DefaultConfig under any
// policy and seed, and for the unbounded queue a timeout of 1, 2 or 4 s)
// and the post gives one for that policy; 0 and false otherwise.
func PostAnswered(c sim.Config) (float64, bool) {
	d := sim.DefaultConfig()
	d.Policy, d.Seed, d.TimeoutMS = c.Policy, c.Seed, c.TimeoutMS
	if c != d {
		return 0, false
	}
	for _, f := range postAnswered {
		if f.policy == c.Policy && f.timeoutMS == c.TimeoutMS {
			return f.share, true
		}
	}
	return 0, false
}

// PostBesideRun says, for one run of c at its seed that answered the
// share answered of the sale, why it differs from the post's own figure
// for the same inputs, where the post gives one (PostAnswered): "The post
// gives 3.5% here; seed 1 answers 2.6%. One seed is one draw of the
// traffic, and the post's figure came from a run of its own, so the two
// differ by a few points: the simulator sets the post's figure beside the
// mean over 40 seeds." ("" where the post gives none.)
func PostBesideRun(c sim.Config, answered float64) string {
	post, ok := PostAnswered(c)
	if !ok {
		return ""
	}
	return "The post gives " + Percent(post) + " here; seed " + strconv.FormatUint(c.Seed, 10) + " answers " + Percent(answered) +
		". One seed is one draw of the traffic, and the post's figure came from a run of its own, so the two differ by a few points: " +
		"the simulator sets the post's figure beside the mean over 40 seeds."
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
