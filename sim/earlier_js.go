//go:build js && wasm

package sim

// earlier is the smaller of a and b: min, which the compiler makes a
// select under WebAssembly (and V8 a conditional move), where
// earlier.go's borrow from bits.Sub64 costs a dozen instructions, since
// WebAssembly has no carry flag.
func earlier(a, b uint64) uint64 { return min(a, b) }
