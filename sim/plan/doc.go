// Package plan is the queueing capacity planner: given an arrival rate and a
// mean service time, it finds the fewest servers that keep the share of
// requests that wait at all, or that wait longer than a limit, under a
// target.
//
// It uses Erlang C, the classic formula for the M/M/c queue: requests arrive
// as a Poisson process, service times are exponential, and c identical
// servers take from one first-come, first-served queue of unlimited size
// that nobody leaves (MODEL.md rule 20). It sizes capacity for a load that is
// sustained; it knows nothing of timeouts, retries or shedding policies, which
// are what the simulator in package sim is for.
//
// The functions are pure and deterministic: the one exponential and the one
// logarithm are package portable's, and every product that feeds an addition
// is written float64(a*b) + c, so the page, Node and native builds agree to
// the bit.
//
// With a mean patience (Input.PatienceMS) it also answers with Erlang A, the
// M/M/c+M queue, where each person gives up after an exponential time in the
// queue (see erlanga.go): the fewest servers for a target on the share that
// wait, that still wait after a limit, or that give up, beside Erlang C's
// answer, and finite over capacity too (O. Garnett, A. Mandelbaum and
// M. Reiman, "Designing a call center with impatient customers", M&SOM 4(3),
// 2002; A. Mandelbaum and S. Zeltyn, "The M/M/n+G queue: summary of
// performance measures", 2005).
//
// Sources: L. Kleinrock, Queueing Systems, Volume 1: Theory (Wiley, 1975),
// section 3.5, "M/M/m: the m-server case"; D. Gross, J. F. Shortle,
// J. M. Thompson and C. M. Harris, Fundamentals of Queueing Theory, 4th ed.
// (Wiley, 2008), section 2.3, "Multiserver queues (M/M/c)"; and the Erlang B
// recursion as given in the Wikipedia article "Erlang (unit)".
package plan
