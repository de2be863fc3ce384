package user

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRoles(t *testing.T) {
	tests := []struct {
		role Role
		area Area
		want bool
	}{
		{Owner, Leads, true},
		{Owner, Settings, true},
		{Owner, Team, true},
		{Member, Leads, true},
		{Member, Settings, false},
		{Member, Team, false},
		{Role(""), Leads, false},
		{Role("admin"), Team, false},
	}
	for _, tt := range tests {
		if got := tt.role.May(tt.area); got != tt.want {
			t.Errorf("%q.May(%d) = %v, want %v", tt.role, tt.area, got, tt.want)
		}
	}
	for _, s := range []string{"owner", "member"} {
		if r, err := ParseRole(s); err != nil || string(r) != s {
			t.Errorf("ParseRole(%q) = %q, %v", s, r, err)
		}
	}
	for _, s := range []string{"", "Owner", "admin"} {
		if _, err := ParseRole(s); err == nil {
			t.Errorf("ParseRole(%q) accepted", s)
		}
	}
}

func TestPasswordHash(t *testing.T) {
	h, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash %q: want argon2id with 19 MiB, 2 passes, 1 lane", h)
	}
	if !CheckPassword(h, "correct horse battery") {
		t.Error("the right password does not match")
	}
	for _, wrong := range []string{"", "correct horse batterY", "correct horse battery ", strings.Repeat("x", 2000)} {
		if CheckPassword(h, wrong) {
			t.Errorf("%q matches", wrong)
		}
	}
	h2, _ := HashPassword("correct horse battery")
	if h2 == h {
		t.Error("two hashes of one password are equal: no salt")
	}
	t.Run("malformed hashes match nothing", func(t *testing.T) {
		for _, bad := range []string{"", "plain", dummyHash[:len(dummyHash)-3],
			strings.Replace(h, "m=19456", "m=99999999", 1), strings.Replace(h, "argon2id", "argon2i", 1)} {
			if CheckPassword(bad, "correct horse battery") {
				t.Errorf("hash %q matches", bad)
			}
		}
	})
}

func TestPasswordRules(t *testing.T) {
	tests := []struct {
		name, pw string
		want     error
	}{
		{"ten characters", "abcdefghij", nil},
		{"ten accented characters", "áéíóöőúüűá", nil},
		{"nine characters", "abcdefghi", ErrPasswordTooShort},
		{"empty", "", ErrPasswordTooShort},
		{"too long", strings.Repeat("a", MaxPasswordBytes+1), ErrPasswordTooLong},
		{"NUL", "abcdefghij\x00", ErrPasswordInvalid},
		{"not UTF-8", "abcdefghij\xff", ErrPasswordInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := CheckPasswordRules(tt.pw); !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			if _, err := HashPassword(tt.pw); !errors.Is(err, tt.want) {
				t.Errorf("HashPassword: got %v, want %v", err, tt.want)
			}
		})
	}
}

// A login for an unknown user checks the dummy hash: it takes as long as a wrong password.
// The two are timed in turn, best of five each, so that a busy machine slows both alike; a
// round that misses the bound is measured again, since a check that skipped the hash would be
// dozens of times faster in every round.
func TestCheckPasswordTakesAsLongWithoutAHash(t *testing.T) {
	h, _ := HashPassword("correct horse battery")
	timeOf := func(hash string) time.Duration {
		start := time.Now()
		CheckPassword(hash, "wrong password!")
		return time.Since(start)
	}
	for round := range 3 {
		withHash, without := time.Hour, time.Hour
		for range 5 {
			withHash, without = min(withHash, timeOf(h)), min(without, timeOf(""))
		}
		if without >= withHash/2 && without <= withHash*2 {
			return
		}
		t.Logf("round %d: a check without a hash took %v, with one %v", round+1, without, withHash)
	}
	t.Error("in three rounds a check without a hash did not take as long as one with: an attacker could tell them apart")
}

func TestLoginWait(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ago := func(d ...time.Duration) []time.Time {
		var ts []time.Time
		for _, x := range d {
			ts = append(ts, now.Add(-x))
		}
		return ts
	}
	m := time.Minute
	tests := []struct {
		name     string
		failures []time.Time
		want     time.Duration
	}{
		{"none", nil, 0},
		{"four", ago(1*m, 2*m, 3*m, 4*m), 0},
		{"five in the window", ago(1*m, 2*m, 3*m, 4*m, 10*m), 5 * m},
		{"five, unordered", ago(4*m, 10*m, 1*m, 3*m, 2*m), 5 * m},
		{"five, the oldest just out", ago(1*m, 2*m, 3*m, 4*m, 15*m), 0},
		{"six: the second oldest decides", ago(1*m, 2*m, 3*m, 4*m, 10*m, 12*m), 5 * m},
		{"five at once", ago(0, 0, 0, 0, 0), 15 * m},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LoginWait(tt.failures, now); got != tt.want {
				t.Errorf("LoginWait = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNormalizeEmail(t *testing.T) {
	for in, want := range map[string]string{
		" Anna.Kovacs@Example.HU ": "anna.kovacs@example.hu",
		"a@b.hu":                   "a@b.hu",
	} {
		if got, err := NormalizeEmail(in); err != nil || got != want {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "anna", "Anna <a@b.hu>", "a b@c.hu", "a@b.hu, c@d.hu"} {
		if _, err := NormalizeEmail(bad); err == nil {
			t.Errorf("NormalizeEmail(%q) accepted", bad)
		}
	}
	if EmailKey(" A@B.hu") != EmailKey("a@b.hu") {
		t.Error("EmailKey differs by case or spaces")
	}
}
