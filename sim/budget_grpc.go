package sim

// grpcThrottle is gRPC's retry throttling (rule 44), read from
// grpc/proposal at commit 1fd061ad8e7c46422b326e5a60cf68d042476205
// (A6-client-retries.md, "Throttling Retry Attempts and Hedged RPCs"),
// with grpc/grpc-go at commit 4793ad0474669eafbd5346c8a3d098fdfa542498
// (clientconn.go, retryThrottler; stream.go, shouldRetry) for the order.
//
// The count starts at maxTokens and stays within [0, maxTokens]. A try that
// fails in a way the proxy retries (a retryable status) takes 1 token, a
// try answered (the call's success) adds tokenRatio, and a retry is allowed
// only while the count, after that failure's token is taken, is over
// maxTokens / 2. grpc-go takes the token before it looks at the count or at
// maxAttempts, so a call's last try, which it will not retry, still takes
// one. Tokens are kept in thousandths, as A6 keeps tokenRatio's first three
// decimals.
//
// Its cost is O(1) an event.
type grpcThrottle struct {
	retryOn RetryOn
	milli   int64 // tokens, in thousandths
	most    int64 // maxTokens, in thousandths
	thresh  int64 // maxTokens / 2, in thousandths
	ratio   int64 // tokenRatio, in thousandths
}

func newGRPCThrottle(p Proxy) *grpcThrottle {
	most := int64(max(p.MaxTokens, 0)) * 1000
	return &grpcThrottle{retryOn: p.RetryOn, milli: most, most: most, thresh: most / 2, ratio: grpcMilli(p.TokenRatio)}
}

func (b *grpcThrottle) sent(t int64, retry bool) {}

func (b *grpcThrottle) ended(t int64, retry bool, end tryEnd) {
	switch end {
	case tryAnswered:
		b.milli = min(b.milli+b.ratio, b.most)
	case tryRefused, tryTimedOut:
		if (Proxy{RetryOn: b.retryOn}).retriesOn(end == tryRefused) {
			b.milli = max(b.milli-1000, 0)
		}
	}
}

func (b *grpcThrottle) allow(t int64) bool { return b.milli > b.thresh }
