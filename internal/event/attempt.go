package event

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Schedule is the waits between a delivery's attempts: after the first attempt fails the next
// comes Schedule[0] later, and so on; when the schedule is spent the delivery has failed.
type Schedule []time.Duration

// DefaultSchedule retries over three days, as Standard Webhooks suggests.
var DefaultSchedule = Schedule{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
	5 * time.Hour, 10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour}

// maxRetryAfter bounds how long a receiver's Retry-After may put a retry off.
const maxRetryAfter = 24 * time.Hour

// ParseSchedule reads a schedule written as durations separated by commas, like "1s,1s,2s".
func ParseSchedule(s string) (Schedule, error) {
	var out Schedule
	for _, part := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || d <= 0 || d > 7*24*time.Hour {
			return nil, fmt.Errorf("%q: want positive durations up to 168h separated by commas, like 5s,5m,30m", part)
		}
		out = append(out, d)
	}
	return out, nil
}

func (s Schedule) String() string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = d.String()
	}
	return strings.Join(parts, ",")
}

// Result is what one attempt came to: the receiver's status (0 when there was no answer),
// what went wrong, the start of its answer, and a Retry-After it asked for.
type Result struct {
	Status     int
	Err        string
	Response   string
	RetryAfter time.Duration
}

// OK reports whether the target took the event: a webhook answered 2xx, or the mail server
// accepted the message (no error, no status).
func (r Result) OK() bool { return r.Err == "" && (r.Status == 0 || r.Status >= 200 && r.Status < 300) }

// Gone reports whether the receiver said the endpoint is gone for good (410).
func (r Result) Gone() bool { return r.Status == http.StatusGone }

// Outcome is what follows an attempt: the delivery's new state, when a pending one is tried
// again, and whether its endpoint is to be disabled.
type Outcome struct {
	State   State
	RetryIn time.Duration
	Disable bool
}

// LineRounds is how many rounds of its company's slots ahead of it a delivery waiting in line
// takes into account: its wait grows no further past them, so the jobs ahead are counted no
// further either.
const LineRounds = 300

// Held is the delivery slot of its company that a job holds for an attempt, let go when the
// attempt is recorded: handed to the company's next waiting delivery, which keeps it for
// HandOver at most. The zero Held holds none.
type Held struct {
	Slot     int
	Job      int64
	HandOver time.Duration
	// Chain asks the record to claim the company's next waiting delivery for the same worker
	// instead of handing the slot on: the claimed job keeps the slot for HandOver, its lease.
	Chain bool
	// Claimed says the job was claimed so, not fetched by River: its record settles its job.
	Claimed bool
}

// Claimed is a delivery claimed from its company's line, with its job; the zero Claimed is
// none.
type Claimed struct {
	Job        int64
	DeliveryID uuid.UUID
	// Delivery is the delivery as read with its claim, with its lead; nil when it was not read
	// so (its event has no lead to send), and then it is read on its own.
	Delivery *Delivery
}

// Decide applies the delivery rules to the attempts-th attempt (counting from 1): a 2xx is
// delivered; a 410 fails the delivery and disables its endpoint; anything else is tried again
// after the schedule's wait for that attempt, or the receiver's Retry-After when that is
// longer, until the schedule is spent and the delivery has failed.
func (s Schedule) Decide(attempts int, r Result) Outcome {
	switch {
	case r.OK():
		return Outcome{State: Delivered}
	case r.Gone():
		return Outcome{State: Failed, Disable: true}
	case attempts > len(s):
		return Outcome{State: Failed}
	}
	wait := s[attempts-1]
	if ra := min(r.RetryAfter, maxRetryAfter); ra > wait {
		wait = ra
	}
	return Outcome{State: Pending, RetryIn: wait}
}
