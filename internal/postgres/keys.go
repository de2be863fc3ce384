package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
)

// KeyInfo is an API key as listings show it: never the key itself, only its prefix.
type KeyInfo struct {
	ID             uuid.UUID      `db:"id" json:"id"`
	CompanyID      uuid.UUID      `db:"company_id" json:"company_id"`
	Kind           auth.Kind      `db:"kind" json:"kind"`
	Prefix         string         `db:"prefix" json:"prefix"`
	AllowedDomains pq.StringArray `db:"allowed_domains" json:"allowed_domains"`
	HostnameCheck  bool           `db:"hostname_check" json:"hostname_check"`
	CreatedAt      time.Time      `db:"created_at" json:"created_at"`
	RevokedAt      *time.Time     `db:"revoked_at" json:"revoked_at"`
}

// NewKey is what is stored of a freshly generated key.
type NewKey struct {
	Kind           auth.Kind
	Prefix         string
	Hash           [32]byte
	AllowedDomains []string
	HostnameCheck  bool
}

// The new key and its notification commit together, like a revocation: every instance empties
// its key caches, the negative one included, so a key works at once even on an instance that
// had refused its hash before.
const insertKey = `
WITH inserted AS (
    INSERT INTO api_keys (id, company_id, kind, prefix, hash, allowed_domains, hostname_check)
    VALUES ($2, $1, $3, $4, $5, $6, $7)
    RETURNING id, company_id, kind, prefix, allowed_domains, hostname_check, created_at, revoked_at
)
SELECT inserted.*, pg_notify('` + cacheChannel + `', 'keys') IS NULL AS notified FROM inserted`

// CreateKey stores a key's hash for a company.
func (s *Store) CreateKey(ctx context.Context, companyID uuid.UUID, k NewKey) (KeyInfo, error) {
	domains := k.AllowedDomains
	if domains == nil {
		domains = []string{}
	}
	var row struct {
		KeyInfo
		Notified bool `db:"notified"`
	}
	err := s.db.GetContext(ctx, &row, insertKey, companyID, uuid.New(), k.Kind, k.Prefix,
		k.Hash[:], pq.StringArray(domains), k.HostnameCheck)
	return row.KeyInfo, translate(err)
}

// The revocation and its notification commit together: every instance listening on
// cacheChannel drops its cached keys as soon as the key is revoked. Revoking by key id alone
// (no company id) is deliberate: the operator holds only the id from `key list`.
const revokeKey = `
WITH revoked AS (
    UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
    WHERE id = $1
    RETURNING id, company_id, kind, prefix, allowed_domains, hostname_check, created_at, revoked_at
)
SELECT revoked.*, pg_notify('` + cacheChannel + `', 'keys') IS NULL AS notified FROM revoked`

// RevokeKey revokes a key at once on every instance; errs.NotFound when there is no such key.
func (s *Store) RevokeKey(ctx context.Context, keyID uuid.UUID) (KeyInfo, error) {
	var row struct {
		KeyInfo
		Notified bool `db:"notified"`
	}
	if err := s.db.GetContext(ctx, &row, revokeKey, keyID); err != nil {
		return KeyInfo{}, translate(err)
	}
	return row.KeyInfo, nil
}

const selectKeys = `
SELECT id, company_id, kind, prefix, allowed_domains, hostname_check, created_at, revoked_at
FROM api_keys WHERE company_id = $1 ORDER BY created_at, id`

// ListKeys lists a company's keys, oldest first.
func (s *Store) ListKeys(ctx context.Context, companyID uuid.UUID) ([]KeyInfo, error) {
	keys := []KeyInfo{}
	err := s.db.SelectContext(ctx, &keys, selectKeys, companyID)
	return keys, translate(err)
}

// The one query without a company id: the key is what tells which company a request is for.
// The company's plan comes along so a lead create needs no second lookup.
const selectKeyByHash = `
SELECT k.id, k.company_id, k.kind, k.allowed_domains, k.hostname_check,
       k.revoked_at IS NOT NULL AS revoked,
       c.plan, c.has_limit_override, c.lead_limit_override
FROM api_keys k JOIN companies c ON c.id = k.company_id
WHERE k.hash = $1`

// KeyByHash finds the key with that hash; errs.NotFound when there is none.
func (s *Store) KeyByHash(ctx context.Context, hash [32]byte) (auth.Principal, error) {
	var row struct {
		ID                uuid.UUID      `db:"id"`
		CompanyID         uuid.UUID      `db:"company_id"`
		Kind              auth.Kind      `db:"kind"`
		AllowedDomains    pq.StringArray `db:"allowed_domains"`
		HostnameCheck     bool           `db:"hostname_check"`
		Revoked           bool           `db:"revoked"`
		Plan              plan.Plan      `db:"plan"`
		HasLimitOverride  bool           `db:"has_limit_override"`
		LeadLimitOverride *int           `db:"lead_limit_override"`
	}
	if err := s.db.GetContext(ctx, &row, selectKeyByHash, hash[:]); err != nil {
		return auth.Principal{}, translate(err)
	}
	return auth.Principal{
		KeyID:          row.ID,
		CompanyID:      row.CompanyID,
		Kind:           row.Kind,
		AllowedDomains: row.AllowedDomains,
		HostnameCheck:  row.HostnameCheck,
		Revoked:        row.Revoked,
		Plan:           row.Plan,
		LeadLimit:      plan.LeadLimit(row.Plan, plan.Override{Set: row.HasLimitOverride, Limit: row.LeadLimitOverride}),
	}, nil
}

var _ auth.KeyStore = (*Store)(nil)
