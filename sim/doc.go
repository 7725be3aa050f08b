// Package sim is a deterministic, discrete-event simulation of a checkout
// service during a sale, after the post "Backpressure and load shedding".
//
// People arrive as a Poisson process, each sends an attempt that waits for
// one of a fixed number of identical workers, and each attempt's client gives
// up after a timeout whether or not a worker is still busy with it. A Policy
// decides what happens to the request that does not fit: the unbounded queue
// (fifo), skip the abandoned (skip), a bounded queue (bounded), the queue
// timeout of Fail at Scale (codel), adaptive LIFO (lifo) and priority for
// orders (priority). Run returns a Result: who was answered, refused or timed
// out, how long the answered waited, the work wasted on people who had left,
// per-window shares and whether the service got back to normal.
//
// The engine is pure: no globals, no goroutines, no clock and no I/O. Time is
// virtual, in integer nanoseconds. Randomness comes from splitmix64 streams,
// one per purpose, and the only transcendental functions, the logarithm and
// the exponential behind exponential draws, are written in Go (package
// portable), so the same Config gives byte-identical Results natively,
// under Node and in every browser.
//
// The rules are those of MODEL.md, numbered there; comments here cite them
// as "rule N".
package sim
