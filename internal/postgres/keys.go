package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
)

// keyRow is a row of api_keys as listings read it, without the hash.
type keyRow struct {
	ID             uuid.UUID      `db:"id"`
	CompanyID      uuid.UUID      `db:"company_id"`
	Kind           auth.Kind      `db:"kind"`
	Prefix         string         `db:"prefix"`
	AllowedDomains pq.StringArray `db:"allowed_domains"`
	HostnameCheck  bool           `db:"hostname_check"`
	CreatedAt      time.Time      `db:"created_at"`
	RevokedAt      *time.Time     `db:"revoked_at"`
	PublicKey      *string        `db:"public_key"`
}

func (r keyRow) info() auth.KeyInfo {
	domains := []string(r.AllowedDomains)
	if domains == nil {
		domains = []string{}
	}
	return auth.KeyInfo{ID: r.ID, CompanyID: r.CompanyID, Kind: r.Kind, Prefix: r.Prefix, AllowedDomains: domains,
		HostnameCheck: r.HostnameCheck, CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt, PublicKey: deref(r.PublicKey)}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

const keyColumns = `id, company_id, kind, prefix, allowed_domains, hostname_check, created_at, revoked_at, public_key`

// The new key and its notification commit together, like a revocation: every instance empties
// its key caches, the negative one included, so a key works at once even on an instance that
// had refused its hash before.
const insertKey = `
WITH inserted AS (
    INSERT INTO api_keys (id, company_id, kind, prefix, hash, allowed_domains, hostname_check, public_key)
    VALUES ($2, $1, $3, $4, $5, $6, $7, $8)
    RETURNING ` + keyColumns + `
)
SELECT inserted.*, pg_notify('` + cacheChannel + `', 'keys') IS NULL AS notified FROM inserted`

// CreateKey stores a key's hash for a company.
func (s *Store) CreateKey(ctx context.Context, companyID uuid.UUID, k auth.NewKey) (auth.KeyInfo, error) {
	domains := k.AllowedDomains
	if domains == nil {
		domains = []string{}
	}
	var row struct {
		keyRow
		Notified bool `db:"notified"`
	}
	err := s.db.GetContext(ctx, &row, insertKey, companyID, uuid.New(), k.Kind, k.Prefix,
		k.Hash[:], pq.StringArray(domains), k.HostnameCheck, null(k.PublicKey))
	if err != nil {
		return auth.KeyInfo{}, translate(err)
	}
	return row.info(), nil
}

// The revocation and its notification commit together: every instance listening on
// cacheChannel drops its cached keys as soon as the key is revoked. The operator revokes by key
// id alone (it holds only the id from `key list`); the dashboard passes its company, so another
// company's key is not found.
const revokeKey = `
WITH revoked AS (
    UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
    WHERE id = $1 AND ($2::uuid IS NULL OR company_id = $2)
    RETURNING ` + keyColumns + `
)
SELECT revoked.*, pg_notify('` + cacheChannel + `', 'keys') IS NULL AS notified FROM revoked`

// RevokeKey revokes a key at once on every instance; errs.NotFound when there is no such key.
func (s *Store) RevokeKey(ctx context.Context, keyID uuid.UUID) (auth.KeyInfo, error) {
	return s.keyChange(ctx, revokeKey, keyID, nil)
}

// RevokeCompanyKey revokes a company's key; errs.NotFound when the company has no such key.
func (s *Store) RevokeCompanyKey(ctx context.Context, companyID, keyID uuid.UUID) (auth.KeyInfo, error) {
	return s.keyChange(ctx, revokeKey, keyID, &companyID)
}

// A public key's allowed domains and hostname check change with a notification, like a
// revocation, so the new list holds on every instance at once.
const updateKeyDomains = `
WITH updated AS (
    UPDATE api_keys SET allowed_domains = $3, hostname_check = $4
    WHERE id = $1 AND company_id = $2 AND kind = 'public'
    RETURNING ` + keyColumns + `
)
SELECT updated.*, pg_notify('` + cacheChannel + `', 'keys') IS NULL AS notified FROM updated`

// SetKeyDomains sets a company's public key's allowed domains (normalized) and hostname check;
// errs.NotFound when the company has no such public key.
func (s *Store) SetKeyDomains(ctx context.Context, companyID, keyID uuid.UUID, domains []string, hostnameCheck bool) (auth.KeyInfo, error) {
	if domains == nil {
		domains = []string{}
	}
	return s.keyChange(ctx, updateKeyDomains, keyID, &companyID, pq.StringArray(domains), hostnameCheck)
}

// keyChange runs a statement that changes one key and notifies, and returns the key.
func (s *Store) keyChange(ctx context.Context, query string, args ...any) (auth.KeyInfo, error) {
	var row struct {
		keyRow
		Notified bool `db:"notified"`
	}
	if err := s.db.GetContext(ctx, &row, query, args...); err != nil {
		return auth.KeyInfo{}, translate(err)
	}
	return row.info(), nil
}

const selectKeys = `
SELECT ` + keyColumns + `
FROM api_keys WHERE company_id = $1 ORDER BY created_at, id`

// ListKeys lists a company's keys, oldest first.
func (s *Store) ListKeys(ctx context.Context, companyID uuid.UUID) ([]auth.KeyInfo, error) {
	var rows []keyRow
	if err := s.db.SelectContext(ctx, &rows, selectKeys, companyID); err != nil {
		return nil, translate(err)
	}
	keys := make([]auth.KeyInfo, len(rows))
	for i, r := range rows {
		keys[i] = r.info()
	}
	return keys, nil
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
