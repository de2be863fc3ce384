package user

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
)

// Store is what creating users, logging in and setting passwords need of the database. The
// login throttle's attempts are counted under keys (EmailKey, ClientKey, a device's): an attempt
// is reserved before its hash and released or cleared when it succeeds.
type Store interface {
	CreateUser(ctx context.Context, companyID uuid.UUID, email string, role Role, passwordHash string, link *Link) (User, error)
	UserByEmail(ctx context.Context, email string) (User, string, error)
	LinkUser(ctx context.Context, link [32]byte) (User, error)
	ReserveLoginAttempt(ctx context.Context, key [32]byte, max int, window time.Duration) (int64, []time.Time, error)
	ReleaseLoginAttempt(ctx context.Context, id int64) error
	ClearLoginAttempts(ctx context.Context, key [32]byte) error
	SetPasswordByLink(ctx context.Context, link [32]byte, passwordHash string) (User, error)
}

// The verdicts of the account operations that a caller shows to a person.
var (
	// ErrEmailTaken: the address is already a member of the company.
	ErrEmailTaken = errors.New("the address is already a member of the company")
	// ErrBadLogin: no user has the email, it has no password yet, or the password is wrong.
	// The three are one error on purpose.
	ErrBadLogin = errors.New("wrong email or password")
	// ErrLinkInvalid: the one-time link is unknown, used or expired.
	ErrLinkInvalid = errors.New("the link is unknown, used or expired")
	// ErrPasswordsDiffer: the password and its repetition differ.
	ErrPasswordsDiffer = errors.New("the two passwords differ")
)

// ThrottledError is a login or password set refused because of earlier failures: for the
// email, or (Client) from the client's address. It may be tried again after Wait.
type ThrottledError struct {
	Wait   time.Duration
	Client bool
}

func (e *ThrottledError) Error() string {
	return "too many failed attempts; try again in " + e.Wait.String()
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

// Attempt is one login as the person typed it, with where it came from.
type Attempt struct {
	Email, Password string
	// Client is the client's address: its failures count against MaxClientFailures.
	Client string
	// Device is the browser's verified device cookie, nil without one.
	Device *Device
}

// Login checks an email and password. Every attempt is counted before the password is checked,
// so guesses sent in parallel are throttled too (*ThrottledError): under the email, and under
// the client's address across emails. A browser whose device cookie names the email's user is
// counted under its device instead, and not against its address, so that nobody else's guesses
// hold the owner out. An unknown email, a user without a password and a wrong password are all
// ErrBadLogin, and take the same time, since each checks a hash, which waits for its turn at g.
func Login(ctx context.Context, s Store, g Gate, a Attempt) (User, error) {
	u, hash, err := s.UserByEmail(ctx, strings.ToLower(strings.TrimSpace(a.Email)))
	if err != nil && !errs.Is(err, errs.NotFound) {
		return User{}, err
	}
	key := EmailKey(a.Email)
	var clientAttempt int64
	if err == nil && a.Device != nil && a.Device.UserID == u.ID {
		key = deviceKey(*a.Device)
	} else {
		id, wait, err := reserve(ctx, s, ClientKey(a.Client), MaxClientFailures)
		if err != nil {
			return User{}, err
		}
		if id == 0 {
			return User{}, &ThrottledError{Wait: wait, Client: true}
		}
		clientAttempt = id
	}
	id, wait, err := reserve(ctx, s, key, MaxFailedLogins)
	if err == nil && id == 0 {
		// Refused before any hash: the address made no failed attempt.
		err = &ThrottledError{Wait: wait}
	}
	if err != nil {
		return User{}, errors.Join(err, release(ctx, s, clientAttempt))
	}
	var match bool
	if err := g.hash(ctx, func() { match = CheckPassword(hash, a.Password) }); err != nil {
		return User{}, err
	}
	if !match {
		return User{}, ErrBadLogin
	}
	if err := s.ClearLoginAttempts(ctx, key); err != nil {
		return User{}, err
	}
	return u, release(ctx, s, clientAttempt)
}

// reserve records an attempt under key unless most are already recorded in the window; the
// attempt's id, or 0 and how long to wait. The database's clock counted the attempts; a second
// at least keeps the wait honest if this process's clock runs a little ahead.
func reserve(ctx context.Context, s Store, key [32]byte, most int) (int64, time.Duration, error) {
	id, recent, err := s.ReserveLoginAttempt(ctx, key, most, FailedLoginWindow)
	if err != nil || id != 0 {
		return id, 0, err
	}
	return 0, max(waitFor(recent, most, time.Now()), time.Second), nil
}

// release forgets a reserved attempt that did not fail (0: none was reserved).
func release(ctx context.Context, s Store, id int64) error {
	if id == 0 {
		return nil
	}
	return s.ReleaseLoginAttempt(ctx, id)
}

// PasswordSet is a one-time link's form as sent, with where it came from.
type PasswordSet struct {
	Token, Password, Again string
	// Client is the client's address, whose budget the hash is counted against.
	Client string
}

// SetPassword sets the password of a one-time link's user and uses the link up. Everything
// cheap is checked before the hash (the link exists, is unused and unexpired; the two passwords
// agree and keep the rules; the client's address is within its budget), so made-up links cost
// no hash; the hash waits for its turn at g.
func SetPassword(ctx context.Context, s Store, g Gate, p PasswordSet) (User, error) {
	link := LinkHash(p.Token)
	if _, err := s.LinkUser(ctx, link); errs.Is(err, errs.NotFound) {
		return User{}, ErrLinkInvalid
	} else if err != nil {
		return User{}, err
	}
	if p.Password != p.Again {
		return User{}, ErrPasswordsDiffer
	}
	if err := CheckPasswordRules(p.Password); err != nil {
		return User{}, err
	}
	attempt, wait, err := reserve(ctx, s, ClientKey(p.Client), MaxClientFailures)
	if err != nil {
		return User{}, err
	}
	if attempt == 0 {
		return User{}, &ThrottledError{Wait: wait, Client: true}
	}
	var hash string
	if gateErr := g.hash(ctx, func() { hash, err = HashPassword(p.Password) }); gateErr != nil {
		return User{}, gateErr
	}
	if err != nil {
		return User{}, err
	}
	u, err := s.SetPasswordByLink(ctx, link, hash)
	if errs.Is(err, errs.NotFound) {
		return User{}, ErrLinkInvalid
	}
	if err != nil {
		return User{}, err
	}
	return u, release(ctx, s, attempt)
}
