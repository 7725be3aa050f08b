package sim

// stream is a splitmix64 generator (Steele, Lea and Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014): 64 bits of state, one
// addition and a mix per draw. Each purpose (arrivals, the order draw,
// service times, retry jitter) has a stream of its own, so that changing how
// one is used leaves the others' sequences unchanged: the priority policy
// sees the same service times as the bounded queue for the same seed.
type stream struct{ state uint64 }

// Stream purposes. The values are part of the determinism promise: changing
// one changes every Result.
const (
	streamArrivals uint64 = iota + 1
	streamOrders
	streamService
	streamJitter
	streamClient
	streamPatience
	streamLimiter // an adaptive limit's own draws (Vegas's probe jitter)
	streamErrors  // a hop's error answers (Hop.ErrorShare)
)

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// splitmixGamma is splitmix64's step: each draw adds it to the state
// (the golden ratio's fraction of 2^64, odd).
const splitmixGamma = 0x9e3779b97f4a7c15

func newStream(seed, purpose uint64) stream {
	return stream{state: mix64(seed) ^ mix64(purpose*splitmixGamma)}
}

// Uint64 returns the next 64 random bits.
func (s *stream) Uint64() uint64 {
	s.state += splitmixGamma
	return mix64(s.state)
}

// Float64 returns a uniform draw in [0, 1), with 53 random bits.
func (s *stream) Float64() float64 {
	return float64(s.Uint64()>>11) * 0x1p-53
}

// hopSeed is the seed hop k of a chain (1 for the first behind the entry)
// runs with: its own streams, drawn from the entry's seed, so that no two
// hops draw the same service times.
func hopSeed(seed uint64, k int) uint64 {
	return mix64(seed^mix64(uint64(k)*splitmixGamma)) & MaxSeed
}
