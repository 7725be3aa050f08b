//go:build !(js && wasm)

package sim

import "math/bits"

// earlier is the smaller of a and b, computed rather than branched to:
// which of two workers is free first is a coin toss the processor cannot
// predict, and the compiler makes min a branch in a loop. (Under
// WebAssembly, earlier_js.go's min is the same number, by other means.)
func earlier(a, b uint64) uint64 {
	_, borrow := bits.Sub64(a, b, 0) // 1 if a < b
	return b ^ (a^b)&-borrow
}
