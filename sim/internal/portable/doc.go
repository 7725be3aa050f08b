// Package portable holds the exponential and the logarithm written in plain
// Go, so that they return the same bits on every platform the engine runs on.
//
// The standard library's math.Exp and math.Log use assembly on some
// architectures (amd64 has both, arm64 has Exp) and pure Go elsewhere (wasm),
// and the two can differ in the last bit. The engine promises that native
// runs, Node and every browser agree to the byte, so it cannot call them.
// Exp and Log here are ports of the standard library's pure-Go fallbacks
// (themselves from FreeBSD's msun, e_exp.c and e_log.c), accurate to within
// one ulp, with one change: every product that feeds an addition is written
// float64(a*b) + c. The Go specification lets a compiler fuse a*b + c into
// one multiply-add instruction (arm64 does), which rounds once instead of
// twice; the explicit conversion forbids the fusion.
package portable
