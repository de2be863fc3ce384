package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/limits"
)

// endpointRow is a row of webhook_endpoints.
type endpointRow struct {
	ID             uuid.UUID      `db:"id"`
	CompanyID      uuid.UUID      `db:"company_id"`
	URL            string         `db:"url"`
	Events         pq.StringArray `db:"events"`
	Secret         string         `db:"secret"`
	PreviousSecret *string        `db:"previous_secret"`
	PreviousUntil  *time.Time     `db:"previous_secret_until"`
	DisabledAt     *time.Time     `db:"disabled_at"`
	DisabledReason *string        `db:"disabled_reason"`
	CreatedAt      time.Time      `db:"created_at"`
	Failing        bool           `db:"failing"`
}

// endpointColumns end with failing: whether the newest settled delivery failed, found through
// the endpoint's delivery index from its newest end.
const endpointColumns = `id, company_id, url, events, secret, previous_secret, previous_secret_until,
       disabled_at, disabled_reason, created_at,
       coalesce((SELECT d.state = 'failed' FROM event_deliveries d
           WHERE d.company_id = webhook_endpoints.company_id AND d.endpoint_id = webhook_endpoints.id
               AND d.state <> 'pending'
           ORDER BY d.created_at DESC LIMIT 1), false) AS failing`

func (r endpointRow) endpoint() event.Endpoint {
	e := event.Endpoint{ID: r.ID, CompanyID: r.CompanyID, URL: r.URL, Events: []event.Type{}, Secret: r.Secret,
		PreviousUntil: r.PreviousUntil, DisabledAt: r.DisabledAt, CreatedAt: r.CreatedAt, Failing: r.Failing}
	for _, t := range r.Events {
		e.Events = append(e.Events, event.Type(t))
	}
	if r.PreviousSecret != nil {
		e.PreviousSecret = *r.PreviousSecret
	}
	if r.DisabledReason != nil {
		e.DisabledReason = *r.DisabledReason
	}
	return e
}

func typeArray(types []event.Type) pq.StringArray {
	a := pq.StringArray{}
	for _, t := range types {
		a = append(a, string(t))
	}
	return a
}

// lockCompany holds a company's row until the transaction ends, so that counting its rows and
// adding one is not raced by another instance doing the same.
const lockCompany = `SELECT id FROM companies WHERE id = $1 FOR NO KEY UPDATE`

// insertEndpoint adds the endpoint unless the company has $6 already. It runs after
// lockCompany, in a statement of its own, so its count sees the endpoints committed meanwhile.
const insertEndpoint = `
INSERT INTO webhook_endpoints (id, company_id, url, events, secret)
SELECT $2, $1, $3, $4, $5
WHERE (SELECT count(*) FROM webhook_endpoints WHERE company_id = $1) < $6
RETURNING ` + endpointColumns

// CreateEndpoint stores a company's webhook endpoint with its signing secret; events empty
// means every type. A company's limits.WebhookEndpoints-th is its last:
// event.ErrTooManyEndpoints past it.
func (s *Store) CreateEndpoint(ctx context.Context, companyID uuid.UUID, url string, events []event.Type, secret string) (event.Endpoint, error) {
	var r endpointRow
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var id uuid.UUID
		if err := tx.GetContext(ctx, &id, lockCompany, companyID); err != nil {
			return translate(err)
		}
		err := tx.GetContext(ctx, &r, insertEndpoint, companyID, uuid.New(), url, typeArray(events), secret,
			limits.WebhookEndpoints)
		if errors.Is(err, sql.ErrNoRows) {
			return event.ErrTooManyEndpoints
		}
		return translate(err)
	})
	if err != nil {
		return event.Endpoint{}, err
	}
	return r.endpoint(), nil
}

const selectEndpoints = `
SELECT ` + endpointColumns + ` FROM webhook_endpoints WHERE company_id = $1 ORDER BY created_at, id`

// Endpoints lists a company's webhook endpoints, oldest first.
func (s *Store) Endpoints(ctx context.Context, companyID uuid.UUID) ([]event.Endpoint, error) {
	var rows []endpointRow
	if err := s.db.SelectContext(ctx, &rows, selectEndpoints, companyID); err != nil {
		return nil, translate(err)
	}
	out := make([]event.Endpoint, len(rows))
	for i, r := range rows {
		out[i] = r.endpoint()
	}
	return out, nil
}

const selectEndpoint = `
SELECT ` + endpointColumns + ` FROM webhook_endpoints WHERE company_id = $1 AND id = $2`

// Endpoint returns one of a company's endpoints; errs.NotFound when the company has none such.
func (s *Store) Endpoint(ctx context.Context, companyID, endpointID uuid.UUID) (event.Endpoint, error) {
	var r endpointRow
	if err := s.db.GetContext(ctx, &r, selectEndpoint, companyID, endpointID); err != nil {
		return event.Endpoint{}, translate(err)
	}
	return r.endpoint(), nil
}

// The admin commands name an endpoint or a delivery by its id alone, as `key revoke` does a
// key: these two find the company it belongs to, and every other query is the company's.
const (
	selectEndpointCompany = `SELECT company_id FROM webhook_endpoints WHERE id = $1`
	selectDeliveryCompany = `SELECT company_id FROM event_deliveries WHERE id = $1`
)

// EndpointCompany returns the company a webhook endpoint belongs to; errs.NotFound when none.
func (s *Store) EndpointCompany(ctx context.Context, endpointID uuid.UUID) (uuid.UUID, error) {
	var id uuid.UUID
	return id, translate(s.db.GetContext(ctx, &id, selectEndpointCompany, endpointID))
}

// DeliveryCompany returns the company a delivery belongs to; errs.NotFound when none.
func (s *Store) DeliveryCompany(ctx context.Context, deliveryID uuid.UUID) (uuid.UUID, error) {
	var id uuid.UUID
	return id, translate(s.db.GetContext(ctx, &id, selectDeliveryCompany, deliveryID))
}

// Removing an endpoint removes its deliveries; their jobs find nothing to do.
const deleteEndpoint = `
WITH deliveries AS (
    DELETE FROM event_deliveries WHERE company_id = $1 AND endpoint_id = $2
)
DELETE FROM webhook_endpoints WHERE company_id = $1 AND id = $2`

// RemoveEndpoint deletes a company's endpoint and its delivery log.
func (s *Store) RemoveEndpoint(ctx context.Context, companyID, endpointID uuid.UUID) error {
	res, err := s.db.ExecContext(ctx, deleteEndpoint, companyID, endpointID)
	return notFoundIfNone(res, err)
}

// rotateSecret makes $3 the secret; the one it replaces keeps signing until now() + $4 ms.
const rotateSecret = `
UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
    previous_secret_until = now() + $4 * interval '1 millisecond'
WHERE company_id = $1 AND id = $2
RETURNING ` + endpointColumns

// RotateSecret gives a company's endpoint a new secret; messages carry both signatures for
// grace.
func (s *Store) RotateSecret(ctx context.Context, companyID, endpointID uuid.UUID, secret string, grace time.Duration) (event.Endpoint, error) {
	var r endpointRow
	if err := s.db.GetContext(ctx, &r, rotateSecret, companyID, endpointID, secret, grace.Milliseconds()); err != nil {
		return event.Endpoint{}, translate(err)
	}
	return r.endpoint(), nil
}

const enableEndpoint = `
UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL
WHERE company_id = $1 AND id = $2
RETURNING ` + endpointColumns

// EnableEndpoint turns a disabled endpoint back on; events from then on reach it.
func (s *Store) EnableEndpoint(ctx context.Context, companyID, endpointID uuid.UUID) (event.Endpoint, error) {
	var r endpointRow
	if err := s.db.GetContext(ctx, &r, enableEndpoint, companyID, endpointID); err != nil {
		return event.Endpoint{}, translate(err)
	}
	return r.endpoint(), nil
}

// notFoundIfNone is the result of a statement that must touch a row.
func notFoundIfNone(res interface{ RowsAffected() (int64, error) }, err error) error {
	if err != nil {
		return translate(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errs.E(errs.NotFound, errs.CodeNotFound)
	}
	return nil
}
