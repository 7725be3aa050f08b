// Command shedsim runs the load shedding simulation of the post
// "Backpressure and load shedding" and prints what the post prints.
//
//	shedsim                                        the post's tables
//	shedsim --timeline                             answered per 10 s, every policy
//	shedsim --policy fifo --retries 1 --spike 150  one run, your numbers
//	shedsim --sample retries                       one of the post's situations
//	shedsim --seeds 20                             every policy over 20 seeds
//	shedsim --clients --retries 3                  every client strategy side by side
//	shedsim --lab                                  the lab's 162 runs, as JSON
//	shedsim plan --rate-rps 150 --service-ms 80    Erlang C: how many workers
//
// Every Config field is a flag, its JSON key with dashes (--sale-rps). Bad
// input is one line on stderr and exit status 2.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
)

// memoryLimit is the soft limit the command holds its heap to, in bytes
// (debug.SetMemoryLimit; GOMEMLIMIT, if set, takes its place). Without it
// the garbage collector lets the heap grow to twice what it last found
// live, and the worst valid command (BenchmarkWorstCaseMemory's, which
// holds the whole of sim.MaxAttempts in flight) would pass the 0.8 GB the
// docs promise; with the limit it stays under (sim/PERF.md). A command
// that stays under the limit never notices it.
const memoryLimit = 640 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "shedsim: "+err.Error())
		if _, ok := err.(usageError); ok {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// usageError is bad input: a flag, a value or a Config field. It exits 2.
type usageError struct{ msg string }

// Error is the message, with every quoted value in it cut to its first
// quoteChars characters and its length (quoteArg): a 100 KB value given
// to a flag is not echoed whole, whoever words the message.
func (e usageError) Error() string { return cutQuotes(e.msg) }
