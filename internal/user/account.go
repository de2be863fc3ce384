package user

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
)

// Store is what creating users, logging in and setting passwords need of the database.
type Store interface {
	CreateUser(ctx context.Context, companyID uuid.UUID, email string, role Role, passwordHash string, link *Link) (User, error)
	UserByEmail(ctx context.Context, email string) (User, string, error)
	ReserveLoginAttempt(ctx context.Context, emailKey [32]byte, max int, window time.Duration) (int64, []time.Time, error)
	ClearLoginAttempts(ctx context.Context, emailKey [32]byte) error
	SetPasswordByLink(ctx context.Context, link [32]byte, passwordHash string) (User, error)
}

// The verdicts of the account operations that a caller shows to a person.
var (
	// ErrEmailTaken: another user (of any company) has the email.
	ErrEmailTaken = errors.New("a user with this email already exists")
	// ErrBadLogin: no user has the email, it has no password yet, or the password is wrong.
	// The three are one error on purpose.
	ErrBadLogin = errors.New("wrong email or password")
	// ErrLinkInvalid: the one-time link is unknown, used or expired.
	ErrLinkInvalid = errors.New("the link is unknown, used or expired")
)

// ThrottledError is a login refused because of earlier failures for the email: it may be
// tried again after Wait.
type ThrottledError struct{ Wait time.Duration }

func (e *ThrottledError) Error() string {
	return "too many failed logins; try again in " + e.Wait.String()
}

// Create stores a user of a company. With a password it is set at once (after the password
// rules); without one the user gets a one-time link, whose token is returned to be sent to
// them.
func Create(ctx context.Context, s Store, companyID uuid.UUID, email string, role Role, password string) (u User, token string, err error) {
	if email, err = NormalizeEmail(email); err != nil {
		return User{}, "", err
	}
	if _, err := ParseRole(string(role)); err != nil {
		return User{}, "", err
	}
	var hash string
	var link *Link
	if password != "" {
		if hash, err = HashPassword(password); err != nil {
			return User{}, "", err
		}
	} else {
		var l Link
		token, l = NewLink(time.Now())
		link = &l
	}
	u, err = s.CreateUser(ctx, companyID, email, role, hash, link)
	if errs.Is(err, errs.Conflict) {
		return User{}, "", ErrEmailTaken
	}
	return u, token, err
}

// Login checks an email and password. Every attempt for an email is counted before the
// password is checked, so guesses sent in parallel are throttled too (*ThrottledError); an
// unknown email, a user without a password and a wrong password are all ErrBadLogin, and take
// the same time, since each checks a hash, which waits for its turn at g.
func Login(ctx context.Context, s Store, g Gate, email, password string) (User, error) {
	key := EmailKey(email)
	id, recent, err := s.ReserveLoginAttempt(ctx, key, MaxFailedLogins, FailedLoginWindow)
	if err != nil {
		return User{}, err
	}
	if id == 0 {
		// The database's clock counted the attempts; a second at least keeps the wait honest
		// if this process's clock runs a little ahead.
		return User{}, &ThrottledError{Wait: max(LoginWait(recent, time.Now()), time.Second)}
	}
	u, hash, err := s.UserByEmail(ctx, strings.ToLower(strings.TrimSpace(email)))
	if err != nil && !errs.Is(err, errs.NotFound) {
		return User{}, err
	}
	var match bool
	if err := g.hash(ctx, func() { match = CheckPassword(hash, password) }); err != nil {
		return User{}, err
	}
	if !match {
		return User{}, ErrBadLogin
	}
	if err := s.ClearLoginAttempts(ctx, key); err != nil {
		return User{}, err
	}
	return u, nil
}

// SetPassword sets the password of a one-time link's user, after the password rules, and uses
// the link up; the hash waits for its turn at g.
func SetPassword(ctx context.Context, s Store, g Gate, token, password string) (User, error) {
	var hash string
	var err error
	if gateErr := g.hash(ctx, func() { hash, err = HashPassword(password) }); gateErr != nil {
		return User{}, gateErr
	}
	if err != nil {
		return User{}, err
	}
	u, err := s.SetPasswordByLink(ctx, LinkHash(token), hash)
	if errs.Is(err, errs.NotFound) {
		return User{}, ErrLinkInvalid
	}
	return u, err
}
