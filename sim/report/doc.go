// Package report turns simulation Results into what people read: the rows
// of the post's tables, the bars of the policy comparison, the geometry of
// the timeline chart, the "Once everyone times out" and "This run" lines,
// a chain's services and its bottleneck, and advice on what to change,
// quoting numbers measured by running the alternatives. The page (through
// WebAssembly) and the command line share it, so both say the same thing
// in the same words.
package report
