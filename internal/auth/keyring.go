package auth

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"golang.org/x/sync/singleflight"

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

// refusedKeys bounds the negative cache. An attacker who cycles through more distinct keys than
// this pays one lookup per key, as it would with fresh keys; the failed-authentication limit
// per client bounds that.
const refusedKeys = 10_000

// lookupTimeout bounds a key lookup that several requests share, since it no longer ends with
// the request that started it.
const lookupTimeout = 10 * time.Second

// Keyring resolves keys to principals, caching what the store says so a request costs no
// database round trip; see package cache for how a key change reaches every instance at once.
// Unknown and revoked keys are remembered too (a negative cache), so that asking again costs
// no round trip either and a revoked key is answered as fast as one never issued.
type Keyring struct {
	store   KeyStore
	cache   *cache.Map[[32]byte, Principal]
	refused *cache.Set[[32]byte]
	loads   singleflight.Group // one lookup at a time per key, however many requests carry it
}

// NewKeyring builds a keyring over a store. It does not cache until its cache is live.
func NewKeyring(store KeyStore) *Keyring {
	return &Keyring{
		store: store,
		cache: cache.New[[32]byte, Principal]("keys", "companies"),
		// Every key change empties it: a key created after its hash was refused must work.
		refused: cache.NewSet[[32]byte](refusedKeys, "keys"),
	}
}

// Cache is the keyring's caches, to be connected to the change feed.
func (k *Keyring) Cache() cache.Follower { return cache.Group{k.cache, k.refused} }

// IsLive reports whether the keyring caches.
func (k *Keyring) IsLive() bool { return k.cache.IsLive() }

var errRevoked = errors.New("key revoked")

// Resolve checks a key's form and checksum, then finds its principal. A malformed, unknown or
// revoked key is errs.Unauthorized.
func (k *Keyring) Resolve(ctx context.Context, key string) (Principal, error) {
	// Only a key that passed Parse is ever cached, and only that key has its hash: a key found
	// in the cache needs no second check of its form. A key of no key's length is not hashed,
	// so a long one costs no more than Parse's refusal.
	var h [32]byte
	if len(key) == Public.keyLen() || len(key) == Private.keyLen() {
		h = Hash(key)
		if p, ok := k.cache.Cached(h); ok {
			return p, nil
		}
	}
	if _, err := Parse(key); err != nil {
		return Principal{}, errs.Wrap(errs.Unauthorized, errs.CodeInvalidAPIKey, err)
	}
	// Parse accepted the key: its length is a key's, so h is its hash.
	if refused, _ := k.refused.Has(h); refused {
		return Principal{}, errs.E(errs.Unauthorized, errs.CodeInvalidAPIKey)
	}
	p, err := k.lookup(ctx, h)
	if errs.Is(err, errs.NotFound) || errors.Is(err, errRevoked) {
		return Principal{}, errs.Wrap(errs.Unauthorized, errs.CodeInvalidAPIKey, err)
	}
	if err != nil {
		return Principal{}, err
	}
	return p, nil
}

// lookup asks the store, once for all the requests that ask about one key at the same time. Its
// answer is cached (a valid key) or joins the refused set before the shared load ends, even when
// every request that asked has given up, so a request that comes after it finds the key there
// instead of asking the store again. A request that looked in the cache and the set before the
// key joined them and reaches this after the shared load ended finds it there too: the load
// looks again before it asks the store.
func (k *Keyring) lookup(ctx context.Context, h [32]byte) (Principal, error) {
	ch := k.loads.DoChan(string(h[:]), func() (any, error) {
		if p, ok := k.cache.Cached(h); ok {
			return p, nil
		}
		refused, gen := k.refused.Has(h)
		if refused {
			return Principal{}, errs.E(errs.NotFound, errs.CodeInvalidAPIKey)
		}
		cached := k.cache.Generation()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lookupTimeout)
		defer cancel()
		p, err := k.store.KeyByHash(ctx, h)
		if err == nil && p.Revoked {
			err = errRevoked
		}
		switch {
		case err == nil:
			k.cache.Add(h, p, cached)
		case errs.Is(err, errs.NotFound) || errors.Is(err, errRevoked):
			k.refused.Add(h, gen)
		}
		return p, err
	})
	select {
	case <-ctx.Done():
		return Principal{}, errs.Wrap(errs.Unavailable, errs.CodeUnavailable, ctx.Err())
	case r := <-ch:
		p, _ := r.Val.(Principal)
		return p, r.Err
	}
}
