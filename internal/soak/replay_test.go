//go:build soak

package soak

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// replayFigures is what sending idempotent requests again after the run found.
type replayFigures struct {
	sent      int // requests replayed
	same      int // acknowledged ones answered with the same lead id, marked replayed
	resolved  int // unacknowledged ones that now got their 201
	committed int // of those, how many had been stored by an attempt whose answer was lost
}

// replay sends again, with everything up, every idempotent request that needed a retry or never
// got its 201, and a sample of the others, as a client does after an outage. An acknowledged
// request must come back 201 with its first lead id and Idempotent-Replayed; an unacknowledged
// one gets its 201 now, so afterwards every idempotent request must have exactly one lead.
func (l *load) replay(sample int) (replayFigures, []string) {
	var picked []*request
	var rest []*request
	for _, r := range l.requests {
		switch {
		case r.idemKey == "":
		case r.attempts > 1 || r.leadID == "":
			picked = append(picked, r)
		default:
			rest = append(rest, r)
		}
	}
	rand.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	picked = append(picked, rest[:min(sample, len(rest))]...)

	var (
		mu       sync.Mutex
		fig      = replayFigures{sent: len(picked)}
		problems []string
		work     = make(chan *request)
		wg       sync.WaitGroup
	)
	for range 8 {
		wg.Go(func() {
			for r := range work {
				first := r.leadID
				a, err := l.replayOne(r)
				mu.Lock()
				switch {
				case err != nil:
					problems = append(problems, fmt.Sprintf("replay of %s (key %s): %v", r.marker, r.idemKey, err))
				case first == "":
					r.leadID = a.leadID
					fig.resolved++
					if a.replayed {
						fig.committed++
					}
				case a.leadID != first:
					problems = append(problems, fmt.Sprintf("replay of key %s returned lead %s; its first 201 was lead %s", r.idemKey, a.leadID, first))
				case !a.replayed:
					problems = append(problems, fmt.Sprintf("replay of key %s returned lead %s without Idempotent-Replayed: true", r.idemKey, first))
				default:
					fig.same++
				}
				mu.Unlock()
			}
		})
	}
	for _, r := range picked {
		work <- r
	}
	close(work)
	wg.Wait()
	return fig, problems
}

// replayOne sends r until it gets a 201; with everything up, a few tries are plenty.
func (l *load) replayOne(r *request) (answer, error) {
	var last string
	for range 20 {
		r.attempts++
		a, err := l.post(r)
		switch {
		case err != nil:
			last = err.Error()
		case a.status == http.StatusCreated && a.leadID != "":
			return a, nil
		case a.status >= 500 || a.status == http.StatusConflict:
			last = fmt.Sprintf("%d %s", a.status, a.body)
		default:
			return a, fmt.Errorf("%d %s", a.status, a.body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return answer{}, fmt.Errorf("no 201 in 20 tries with everything up; last: %s", last)
}
