// Package sweep finds where a configuration tips over: it runs one Config
// over a range of one of its numeric fields (Run), over a grid of two
// (RunMap), or searches one field for the setting that meets a goal
// (Seek), each at several seeds.
//
// Every value is run at the same seeds, Base.Seed to Base.Seed+Seeds-1
// (common random numbers, as Java Modelling Tools' what-if analysis does
// "so steps are comparable"): the difference between two steps is then the
// knob's, not the luck of the draw. A run at one step and seed is exactly
// sim.Run of the Base Config with that field set to that value and that
// seed: the package runs nothing sim.Run would not.
//
// The runs of a request go through sim.Runs in batches, so they spread
// over every core natively (one engine under js/wasm). A request whose runs
// together would send more than MaxAttempts is refused before anything
// runs, with the size it asks for and the largest that fits.
package sweep
