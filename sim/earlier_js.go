//go:build js && wasm

package sim

// earlier is the smaller of a and b: min, which the compiler makes a
// select under WebAssembly (and V8 a conditional move), where
// earlier.go's borrow from bits.Sub64 costs a dozen instructions, since
// WebAssembly has no carry flag. Not where the smaller goes on to compute
// the address of a load: there the compiler keeps the branch (its
// branchelim pass, after Go issue 26306), which is why newcomers reads the
// earliest worker back from the tree's memory.
func earlier(a, b uint64) uint64 { return min(a, b) }
