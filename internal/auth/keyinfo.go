package auth

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
)

// KeyInfo is an API key as listings show it: never the key itself, only its prefix.
type KeyInfo struct {
	ID             uuid.UUID  `json:"id"`
	CompanyID      uuid.UUID  `json:"company_id"`
	Kind           Kind       `json:"kind"`
	Prefix         string     `json:"prefix"`
	AllowedDomains []string   `json:"allowed_domains"`
	HostnameCheck  bool       `json:"hostname_check"`
	CreatedAt      time.Time  `json:"created_at"`
	RevokedAt      *time.Time `json:"revoked_at"`
	// PublicKey is a public key in full, for the dashboard's snippet; "" for a private key and
	// for a public key stored before public keys were kept.
	PublicKey string `json:"-"`
}

// NewKey is what is stored of a freshly generated key: its hash, and a public key in full (a
// public key is public by design: every page that embeds the widget shows it).
type NewKey struct {
	Kind           Kind
	Prefix         string
	Hash           [32]byte
	AllowedDomains []string
	HostnameCheck  bool
	PublicKey      string // "" for a private key
}

// ErrDomainsOnPrivate refuses allowed domains on a private key, which may never be used from a
// browser.
var ErrDomainsOnPrivate = errors.New("allowed domains apply to public keys only: a private key may never be used from a browser")

// DomainError is an allowed-domain entry that NormalizeDomain refused.
type DomainError struct {
	Entry string
	Err   error
}

func (e *DomainError) Error() string { return fmt.Sprintf("domain %q: %v", e.Entry, e.Err) }
func (e *DomainError) Unwrap() error { return e.Err }

// NormalizeDomains normalizes every entry of a key's allowed-domain list; the first bad one is
// a *DomainError.
func NormalizeDomains(entries []string) ([]string, error) {
	out := make([]string, 0, len(entries))
	for _, d := range entries {
		n, err := NormalizeDomain(d)
		if err != nil {
			return nil, &DomainError{Entry: d, Err: err}
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Create generates a key of a kind with its allowed domains and returns the key, to be shown
// this once, and what is stored of it. Domains are normalized; on a private key they are
// ErrDomainsOnPrivate.
func Create(kind Kind, domains []string, hostnameCheck bool) (string, NewKey, error) {
	normalized, err := NormalizeDomains(domains)
	if err != nil {
		return "", NewKey{}, err
	}
	if kind == Private && len(normalized) > 0 {
		return "", NewKey{}, ErrDomainsOnPrivate
	}
	key, err := Generate(kind)
	if err != nil {
		return "", NewKey{}, err
	}
	nk := NewKey{Kind: kind, Prefix: DisplayPrefix(key), Hash: Hash(key), AllowedDomains: normalized, HostnameCheck: hostnameCheck}
	if kind == Public {
		nk.PublicKey = key
	}
	return key, nk, nil
}
