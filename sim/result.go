package sim

// ModelVersion is the version of the model's rules (sim/MODEL.md): it
// goes up by one whenever a change to the engine changes any Result for
// the same Config and seed, so that two saved Results with the same
// ModelVersion and Config are the same run. Every Result carries it.
const ModelVersion = 1

// Result is what one run measured. Shares are fractions in [0, 1]. People are
// grouped by their first arrival; "the sale" means the people whose first
// arrival falls in [SaleStartS, SaleStartS+SaleS) (rule 15).
type Result struct {
	// ModelVersion is the version of the rules that made this Result
	// (ModelVersion, sim/MODEL.md's "The model's version"), so that a
	// saved Result says which rules it was made by.
	ModelVersion int `json:"model_version"`
	// Config is the configuration that ran.
	Config Config `json:"config"`
	// QueueBound is the bound in force for the bounded and priority policies
	// (Config.QueueBound), 0 for policies without one.
	QueueBound int `json:"queue_bound"`
	// Sale is how the people who first arrived during the sale fared.
	Sale Sale `json:"sale"`
	// People is everyone who arrived during the run.
	People int `json:"people"`
	// Attempts is every attempt sent during the run, retries included.
	Attempts int `json:"attempts"`
	// Wasted counts requests a worker finished after their client had
	// already given up, over the whole run (rule 4).
	Wasted int `json:"wasted"`
	// BackToNormalS is how long after the sale ends the first 10 s window
	// starts from which every later window answers at least 90% of its
	// people, in seconds; nil when the run never gets back (rule 17).
	BackToNormalS *float64 `json:"back_to_normal_s"`
	// Recovery says why a run is or is not back to normal (rule 18).
	Recovery Recovery `json:"recovery"`
	// Windows are the 10 s windows of the run, by first arrival.
	Windows []Window `json:"windows"`
	// WorkerTimeS is the workers' time by use, in seconds; it adds up to
	// Workers x DurationS (counting the time of workers gone).
	WorkerTimeS WorkerTime `json:"worker_time_s"`
	// AttemptsPerPerson is the mean attempts sent per sale person (0 when
	// nobody arrived during the sale).
	AttemptsPerPerson float64 `json:"attempts_per_person"`
	// LongestQueueWaitMS is the longest any request waited in the queue
	// before a worker took it, dropped it or refused it (or until the run
	// ended), in milliseconds.
	LongestQueueWaitMS float64 `json:"longest_queue_wait_ms"`
	// LongestQueue is the most requests that waited at once, not counting
	// those in service.
	LongestQueue int `json:"longest_queue"`
	// Client is what the sending side's client strategy did.
	Client ClientStats `json:"client"`
	// LostInService counts the requests lost with the worker serving them
	// when a capacity loss began (rule 22): their clients see the timeout.
	LostInService int `json:"lost_in_service,omitempty"`
	// QueueAtEnd is how many requests were waiting when the run ended, for
	// latency that grows with load (HeapRequests; 0 without it): whether
	// that queue is past its tipping point decides stuck from backlog
	// (rule 26).
	QueueAtEnd int `json:"queue_at_end,omitempty"`
	// Limit is what an adaptive concurrency limit did (rules 34 and on),
	// for a policy with one; nil otherwise.
	Limit *LimitStats `json:"limit,omitempty"`
	// Series is the run's time series, when the Config asks for one
	// (Config.SeriesStepS), and nil otherwise.
	Series *Series `json:"series,omitempty"`
	// CallsMade counts the calls this service made downstream, in a chain
	// (rule 40), CallsFailed those that failed, and ErrorAnswers its own
	// answers that were errors (Hop.ErrorShare).
	CallsMade    int `json:"calls_made,omitempty"`
	CallsFailed  int `json:"calls_failed,omitempty"`
	ErrorAnswers int `json:"error_answers,omitempty"`
	// Hops are the hops behind this service, the entry, in the order
	// they are called, for a Config with Hops (rule 40).
	Hops []HopResult `json:"hops,omitempty"`
}

// ClientStats is what the sending side did over the whole run (see Client).
type ClientStats struct {
	// Retries is the retries clients decided to make (some may still have
	// been waiting to be sent when the run ended).
	Retries int `json:"retries"`
	// RetriesSent is the retries that reached the service.
	RetriesSent int `json:"retries_sent"`
	// Declined is the retries the strategy would not make: the budget could
	// not pay, the ratio was reached, or 3 attempts were made (Ratio).
	Declined int `json:"declined"`
	// Throttled is the attempts the throttle client refused itself.
	Throttled int `json:"throttled"`
	// TokensSpent and TokensRefilled are the budget client's token flows;
	// TokensSpent <= BudgetTokens + TokensRefilled.
	TokensSpent    int64 `json:"tokens_spent"`
	TokensRefilled int64 `json:"tokens_refilled"`
}

// Sale is how the people who first arrived during the sale fared. People =
// Answered + Refused + TimedOut + Unfinished; a person's outcome is that of
// their last attempt, and answered if any attempt was (rule 14).
type Sale struct {
	People   int `json:"people"`
	Answered int `json:"answered"`
	Refused  int `json:"refused"`
	TimedOut int `json:"timed_out"`
	// Unfinished counts people whose last attempt was still in the system
	// when the run ended (0 unless the run ends soon after the sale).
	Unfinished int `json:"unfinished"`
	// GaveUp counts the timed-out people who gave up before the client's
	// timeout (rule 4a): part of TimedOut, and 0 with no patience.
	GaveUp int `json:"gave_up,omitempty"`
	// GaveUpShare is GaveUp / People, part of TimedOutShare.
	GaveUpShare float64 `json:"gave_up_share,omitempty"`
	// AnsweredShare, RefusedShare and TimedOutShare are of People, and 0
	// when nobody arrived during the sale: a share of nobody, which the
	// reports show as "-".
	AnsweredShare  float64 `json:"answered_share"`
	RefusedShare   float64 `json:"refused_share"`
	TimedOutShare  float64 `json:"timed_out_share"`
	Orders         int     `json:"orders"`
	OrdersAnswered int     `json:"orders_answered"`
	// OrdersAnsweredShare is OrdersAnswered / Orders, and 0 when there
	// were no orders (OrderShare 0, say).
	OrdersAnsweredShare float64 `json:"orders_answered_share"`
	// MedianWaitMS and P99WaitMS are over answered sale people: the time to
	// an answer, the answer's time minus the person's first arrival,
	// service and retries included, in milliseconds, to within 0.05% (rule
	// 16); nil when nobody was answered. The wait in the queue alone is
	// P99QueueWaitMS.
	MedianWaitMS *float64 `json:"median_wait_ms"`
	P99WaitMS    *float64 `json:"p99_wait_ms"`
	// RefusingShare is the share of the workers' time during the sale
	// (Workers x SaleS) spent refusing (rule 12): the post's "about a
	// sixth of the workers' time goes to refusing" at 20 ms. With the
	// sale's rate the normal one, it is the share in the sale's window; 0
	// when the sale lasts no time.
	RefusingShare float64 `json:"refusing_share"`
	// WaitedShare and MeanWaitMS are over the sale people's attempts that a
	// worker took into service (whether answered in time or not): the share
	// that had waited in the queue at all (a positive time), and their mean
	// wait in the queue, from the attempt's arrival to its service's start,
	// in milliseconds (0 for those that did not wait). With Poisson
	// arrivals, exponential service, no timeout in reach and no bound,
	// they are Erlang C's P(wait), C(c, a), and its mean wait in queue,
	// C / (c mu - lambda). Both are 0 when no sale attempt was served.
	WaitedShare float64 `json:"waited_share"`
	MeanWaitMS  float64 `json:"mean_wait_ms"`
	// P99QueueWaitMS is the 99th percentile of the same attempts' wait in
	// the queue, from arrival to the start of service, service left out
	// (0 for those that did not wait), in milliseconds, to within 0.05%
	// (rule 16's histogram); nil when no sale attempt was served. It is
	// the planner's p99 wait (rule 20, plan.Row.P99QueueWaitMS), not
	// P99WaitMS, the time to an answer, which includes the service.
	P99QueueWaitMS *float64 `json:"p99_queue_wait_ms"`
}

// Window is one 10 s window of people, grouped by first arrival.
type Window struct {
	StartS     float64 `json:"start_s"`
	People     int     `json:"people"`
	Answered   int     `json:"answered"`
	Refused    int     `json:"refused"`
	TimedOut   int     `json:"timed_out"`
	Unfinished int     `json:"unfinished"`
	// GaveUp is the timed-out people who gave up before the timeout
	// (rule 4a), part of TimedOut.
	GaveUp int `json:"gave_up,omitempty"`
	// AnsweredShare is Answered / (People - Unfinished): people still in
	// flight when the run ends have not failed yet. It is 1 for a window with
	// nobody settled.
	AnsweredShare float64 `json:"answered_share"`
	// Attempts is every attempt this window's people sent.
	Attempts int `json:"attempts"`
}

// WorkerTime is the workers' time by use, in seconds. Work still in progress
// when the run ends counts up to the end.
type WorkerTime struct {
	// Useful is serving requests answered in time.
	Useful float64 `json:"useful"`
	// Wasted is serving requests whose client had given up by the end.
	Wasted float64 `json:"wasted"`
	// Refusing is the refusal cost paid (rule 12).
	Refusing float64 `json:"refusing"`
	// Idle is the rest.
	Idle float64 `json:"idle"`
	// Gone is the time of the workers a capacity loss took away (rule 22);
	// with it the five add up to Workers x DurationS.
	Gone float64 `json:"gone,omitempty"`
	// Calling is workers held for a call downstream, in a chain (rule
	// 40): not serving, and not free to.
	Calling float64 `json:"calling,omitempty"`
}

// Recovery says how a run ended after the sale (rule 18).
type Recovery string

const (
	// Normal: back to normal within the run.
	Normal Recovery = "normal"
	// Backlog: not back by the end, but the fluid view says the queue would
	// drain: the backlog was too long for the run.
	Backlog Recovery = "backlog"
	// Stuck: not back, and the fluid view says the queue never drains:
	// retries keep it full, a metastable failure.
	Stuck Recovery = "stuck"
	// Overloaded: not back, under a policy whose queue cannot hold a
	// timeout's worth of work (Config.HoldsTimeout), so no backlog of
	// abandoned requests explains it: even normal traffic gets fewer than 90%
	// answered, refusals that cost workers their time, say.
	Overloaded Recovery = "overloaded"
	// Throttled: not back, with the service's queue empty at the end: the
	// clients refuse their own requests. Adaptive throttling (Client
	// Throttle) remembers ClientWindowS of failures and reopens only as fast
	// as what it lets through is accepted, which takes minutes after a
	// collapse; with nothing accepted at all it stays shut.
	Throttled Recovery = "throttled"
	// Unmeasured: not back, because nobody first arrived after the sale (a
	// normal rate of 0, say): rule 17 has no one to measure, whatever the
	// queue holds.
	Unmeasured Recovery = "unmeasured"
)
