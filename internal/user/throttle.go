package user

import (
	"slices"
	"time"
)

// The login throttle: after MaxFailedLogins failed logins for one email within FailedLoginWindow,
// further attempts for that email wait until the oldest of them leaves the window. It counts
// per email, not per client, so that guessing one account's password from many addresses is
// slowed as much as from one; a success clears the count.
const (
	MaxFailedLogins   = 5
	FailedLoginWindow = 15 * time.Minute
)

// MaxClientFailures is the most failed logins and password sets one client address may make
// within FailedLoginWindow, across every email: one address cannot try one password on many
// accounts, nor keep the hashing turns busy. A success does not count.
const MaxClientFailures = 20

// LoginWait is how long a login for an email must wait, given the times of its failed attempts
// in the window (any order); zero means it may go ahead.
func LoginWait(failures []time.Time, now time.Time) time.Duration {
	return waitFor(failures, MaxFailedLogins, now)
}

// waitFor is LoginWait for a limit of most failures in the window.
func waitFor(failures []time.Time, most int, now time.Time) time.Duration {
	var recent []time.Time
	for _, t := range failures {
		if now.Sub(t) < FailedLoginWindow {
			recent = append(recent, t)
		}
	}
	if len(recent) < most {
		return 0
	}
	// The attempt may go ahead once only most-1 failures remain in the window: when the
	// (len-most+1)-th oldest leaves it.
	slices.SortFunc(recent, time.Time.Compare)
	leaves := recent[len(recent)-most].Add(FailedLoginWindow)
	if d := leaves.Sub(now); d > 0 {
		return d
	}
	return 0
}
