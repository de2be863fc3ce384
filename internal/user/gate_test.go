package user

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
)

// loginStore is a Store with one user, whose attempts are throttled when throttled is set.
type loginStore struct {
	hash      string
	throttled bool
}

func (s loginStore) CreateUser(context.Context, uuid.UUID, string, Role, string, *Link) (User, error) {
	return User{}, errors.New("not used")
}

func (s loginStore) UserByEmail(context.Context, string) (User, string, error) {
	return User{Email: "tulaj@ceg.hu"}, s.hash, nil
}

func (s loginStore) ReserveLoginAttempt(context.Context, [32]byte, int, time.Duration) (int64, []time.Time, error) {
	if s.throttled {
		return 0, []time.Time{time.Now()}, nil
	}
	return 1, nil, nil
}

func (s loginStore) ClearLoginAttempts(context.Context, [32]byte) error { return nil }

func (s loginStore) ReleaseLoginAttempt(context.Context, int64) error { return nil }

// LinkUser knows no link: every one-time link is made up.
func (s loginStore) LinkUser(context.Context, [32]byte) (User, error) {
	return User{}, errs.E(errs.NotFound, errs.CodeNotFound)
}

func (s loginStore) SetPasswordByLink(context.Context, [32]byte, string) (User, error) {
	return User{}, errors.New("not used")
}

// A login waits for its turn at the gate only to hash: with every turn taken, a throttled login
// is answered at once, and one that must hash waits until its context ends; with a turn free,
// it logs in.
func TestLoginTakesATurnOnlyToHash(t *testing.T) {
	const pw = "egy jó hosszú jelszó"
	hash, err := HashPassword(pw)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGate(1)
	g.turns <- struct{}{} // another hash holds the only turn
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var throttled *ThrottledError
	if _, err := Login(ctx, loginStore{hash: hash, throttled: true}, g, Attempt{Email: "tulaj@ceg.hu", Password: pw}); !errors.As(err, &throttled) {
		t.Errorf("a throttled login with every turn taken: %v, want *ThrottledError at once", err)
	}
	if _, err := Login(ctx, loginStore{hash: hash}, g, Attempt{Email: "tulaj@ceg.hu", Password: pw}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a login that must hash, every turn taken: %v, want to wait until its context ends", err)
	}
	<-g.turns
	if u, err := Login(context.Background(), loginStore{hash: hash}, g, Attempt{Email: "tulaj@ceg.hu", Password: pw}); err != nil || u.Email != "tulaj@ceg.hu" {
		t.Errorf("login with a free turn: %+v, %v", u, err)
	}
	if len(g.turns) != 0 {
		t.Errorf("the login kept its turn: %d taken", len(g.turns))
	}
}

// A made-up link is refused before any hash: with every turn taken it is answered at once, and
// no hash has run.
func TestMadeUpLinkTakesNoTurn(t *testing.T) {
	g := NewGate(1)
	g.turns <- struct{}{}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for range 50 {
		_, err := SetPassword(ctx, loginStore{}, g, PasswordSet{Token: "kitalalt", Password: "egy jó hosszú jelszó", Again: "egy jó hosszú jelszó"})
		if !errors.Is(err, ErrLinkInvalid) {
			t.Fatalf("a made-up link with every turn taken: %v, want ErrLinkInvalid at once", err)
		}
	}
	if g.Hashed() != 0 {
		t.Errorf("%d hashes ran for made-up links", g.Hashed())
	}
}
