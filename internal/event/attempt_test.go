package event_test

import (
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/event"
)

// The delivery rules: 2xx delivered, 410 failed with the endpoint disabled, anything else
// retried after the schedule's wait (or a longer Retry-After) until the schedule is spent.
func TestDecide(t *testing.T) {
	s := event.Schedule{time.Second, time.Minute}
	for _, tt := range []struct {
		name     string
		attempts int
		r        event.Result
		want     event.Outcome
	}{
		{"2xx", 1, event.Result{Status: 204}, event.Outcome{State: event.Delivered}},
		{"mail accepted", 1, event.Result{}, event.Outcome{State: event.Delivered}},
		{"410 disables", 1, event.Result{Status: 410}, event.Outcome{State: event.Failed, Disable: true}},
		{"500 retried after the first wait", 1, event.Result{Status: 500}, event.Outcome{State: event.Pending, RetryIn: time.Second}},
		{"timeout retried after the second wait", 2, event.Result{Err: "no answer in time"}, event.Outcome{State: event.Pending, RetryIn: time.Minute}},
		{"schedule spent", 3, event.Result{Status: 500}, event.Outcome{State: event.Failed}},
		{"a 3xx is not a delivery", 1, event.Result{Status: 302}, event.Outcome{State: event.Pending, RetryIn: time.Second}},
		{"longer Retry-After wins", 1, event.Result{Status: 429, RetryAfter: 30 * time.Second}, event.Outcome{State: event.Pending, RetryIn: 30 * time.Second}},
		{"shorter Retry-After keeps the schedule", 2, event.Result{Status: 503, RetryAfter: time.Second}, event.Outcome{State: event.Pending, RetryIn: time.Minute}},
		{"Retry-After bounded to a day", 1, event.Result{Status: 503, RetryAfter: 30 * 24 * time.Hour}, event.Outcome{State: event.Pending, RetryIn: 24 * time.Hour}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Decide(tt.attempts, tt.r); got != tt.want {
				t.Errorf("Decide(%d, %+v) = %+v, want %+v", tt.attempts, tt.r, got, tt.want)
			}
		})
	}
}

func TestParseSchedule(t *testing.T) {
	s, err := event.ParseSchedule("1s, 1s,2s")
	if err != nil || s.String() != "1s,1s,2s" {
		t.Errorf("= %v, %v", s, err)
	}
	for _, bad := range []string{"", "1s,,2s", "soon", "-1s", "0s", "200h"} {
		if _, err := event.ParseSchedule(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got := event.DefaultSchedule.String(); got != "5s,5m0s,30m0s,2h0m0s,5h0m0s,10h0m0s,14h0m0s,20h0m0s,24h0m0s" {
		t.Errorf("default schedule %s", got)
	}
}
