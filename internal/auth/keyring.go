package auth

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/cache"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/plan"
)

// Principal is what a valid key tells about a request: which key, which company, and the
// company facts a request needs (plan and monthly lead limit).
type Principal struct {
	KeyID          uuid.UUID
	CompanyID      uuid.UUID
	Kind           Kind
	AllowedDomains []string
	HostnameCheck  bool
	Revoked        bool
	Plan           plan.Plan
	LeadLimit      *int
}

// KeyStore finds a key by its hash; errs.NotFound when there is none.
type KeyStore interface {
	KeyByHash(ctx context.Context, hash [32]byte) (Principal, error)
}

// Keyring resolves keys to principals, caching what the store says so a request costs no
// database round trip; see package cache for how a revocation reaches every instance at once.
type Keyring struct {
	store KeyStore
	cache *cache.Map[[32]byte, Principal]
}

// NewKeyring builds a keyring over a store. It does not cache until its cache is live.
func NewKeyring(store KeyStore) *Keyring {
	return &Keyring{store: store, cache: cache.New[[32]byte, Principal]("keys", "companies")}
}

// Cache is the keyring's cache, to be connected to the change feed.
func (k *Keyring) Cache() cache.Follower { return k.cache }

// IsLive reports whether the keyring caches.
func (k *Keyring) IsLive() bool { return k.cache.IsLive() }

// Resolve checks a key's form and checksum, then finds its principal. A malformed, unknown or
// revoked key is errs.Unauthorized.
func (k *Keyring) Resolve(ctx context.Context, key string) (Principal, error) {
	if _, err := Parse(key); err != nil {
		return Principal{}, errs.Wrap(errs.Unauthorized, errs.CodeInvalidAPIKey, err)
	}
	h := Hash(key)
	p, err := k.cache.Get(ctx, h, func(ctx context.Context) (Principal, error) {
		return k.store.KeyByHash(ctx, h)
	})
	if errs.Is(err, errs.NotFound) {
		return Principal{}, errs.Wrap(errs.Unauthorized, errs.CodeInvalidAPIKey, err)
	}
	if err != nil {
		return Principal{}, err
	}
	if p.Revoked {
		return Principal{}, errs.Wrap(errs.Unauthorized, errs.CodeInvalidAPIKey, errors.New("key revoked"))
	}
	return p, nil
}
