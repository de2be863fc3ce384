//go:build soak

package soak

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/postgres"
)

// storedFigures is what the database holds, held against what the clients were told.
type storedFigures struct {
	leads      int            // leads of the company
	duplicates int            // leads beyond the first with the same marker
	lost       int            // acknowledged leads not in the database
	unanswered int            // stored leads whose request never got a 201 (its answer was lost)
	lostAfter  map[string]int // those by what their request's last attempt got
	// answeredFailed are stored leads whose request was last answered with an error status,
	// which the contract says means nothing was stored.
	answeredFailed []answeredFailed
}

// answeredFailed is a request answered with an error status whose lead is stored nonetheless.
type answeredFailed struct {
	req    *request
	leadID string
}

// The checks read the tables directly: they judge the store, so they do not go through it.
const (
	selectStoredLeads = `
SELECT id::text, coalesce(details->>'note', '') FROM leads WHERE company_id = $1`

	// The counter and the lead are written by one statement at one now(), so the lead's
	// created_at falls in the month it was counted in.
	selectLeadsByMonth = `
SELECT date_trunc('month', created_at AT TIME ZONE 'UTC')::date::text, count(*)
FROM leads WHERE company_id = $1 GROUP BY 1`

	selectCounters = `
SELECT month::text, count FROM lead_counters WHERE company_id = $1`

	selectIdempotencyKeys = `
SELECT k.key, k.lead_id::text,
       EXISTS (SELECT 1 FROM leads l WHERE l.company_id = k.company_id AND l.id = k.lead_id)
FROM idempotency_keys k WHERE k.company_id = $1`
)

// verify checks the database against every request: each acknowledged lead id is stored with
// its request's marker, no marker is stored twice, no lead comes from nowhere, every stored
// idempotency key points at its stored lead, and each month's counter equals that month's leads.
func verify(ctx context.Context, dsn string, companyID uuid.UUID, requests []*request) (storedFigures, []string, error) {
	store, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 2, StatementTimeout: time.Minute})
	if err != nil {
		return storedFigures{}, nil, err
	}
	defer store.Close()
	db := store.DB()

	markerOf := map[string]string{} // lead id -> marker
	idsOf := map[string][]string{}  // marker -> lead ids
	err = scan(ctx, db, selectStoredLeads, companyID, func(rows *sql.Rows) error {
		var id, marker string
		if err := rows.Scan(&id, &marker); err != nil {
			return err
		}
		markerOf[id] = marker
		idsOf[marker] = append(idsOf[marker], id)
		return nil
	})
	if err != nil {
		return storedFigures{}, nil, err
	}
	fig := storedFigures{leads: len(markerOf), lostAfter: map[string]int{}}
	var problems []string
	problem := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	known := make(map[string]bool, len(requests))
	for _, r := range requests {
		known[r.marker] = true
		kind := "plain"
		if r.idemKey != "" {
			kind = "idempotent"
		}
		ids := idsOf[r.marker]
		if len(ids) > 1 {
			fig.duplicates += len(ids) - 1
			problem("duplicate: %s request %s (key %q, %d attempts) is stored %d times: %v", kind, r.marker, r.idemKey, r.attempts, len(ids), ids)
		}
		switch m, ok := markerOf[r.leadID]; {
		case r.leadID == "":
			if len(ids) > 0 {
				fig.unanswered++
				fig.lostAfter[r.lastFail]++
				if r.lastFail != "transport" {
					fig.answeredFailed = append(fig.answeredFailed, answeredFailed{r, ids[0]})
				}
			}
			if r.idemKey != "" {
				problem("idempotent request %s never got a 201, not even on replay", r.marker)
			}
		case !ok:
			fig.lost++
			problem("lost: %s request %s got 201 with lead %s (%d attempts), which is not in the database", kind, r.marker, r.leadID, r.attempts)
		case m != r.marker:
			problem("mismatch: %s request %s got 201 with lead %s, which holds request %s", kind, r.marker, r.leadID, m)
		}
	}
	for marker, ids := range idsOf {
		if !known[marker] {
			problem("stored leads %v carry marker %q, which no client sent", ids, marker)
		}
	}

	keyLead := map[string]string{}
	err = scan(ctx, db, selectIdempotencyKeys, companyID, func(rows *sql.Rows) error {
		var key, leadID string
		var exists bool
		if err := rows.Scan(&key, &leadID, &exists); err != nil {
			return err
		}
		keyLead[key] = leadID
		if !exists {
			problem("idempotency key %s answers with lead %s, which is not in the database", key, leadID)
		}
		return nil
	})
	if err != nil {
		return fig, problems, err
	}
	for _, r := range requests {
		if id, ok := keyLead[r.idemKey]; ok && r.leadID != "" && id != r.leadID {
			problem("idempotency key %s holds lead %s; the client was answered lead %s", r.idemKey, id, r.leadID)
		}
	}

	leadsIn, err := countsByMonth(ctx, db, selectLeadsByMonth, companyID)
	if err != nil {
		return fig, problems, err
	}
	counted, err := countsByMonth(ctx, db, selectCounters, companyID)
	if err != nil {
		return fig, problems, err
	}
	months := slices.Sorted(maps.Keys(leadsIn))
	for m := range counted {
		if _, ok := leadsIn[m]; !ok {
			months = append(months, m)
		}
	}
	for _, m := range months {
		if leadsIn[m] != counted[m] {
			problem("counter: lead_counters says %d leads in %s; the leads table holds %d", counted[m], m, leadsIn[m])
		}
	}
	return fig, problems, nil
}

func countsByMonth(ctx context.Context, db *sql.DB, query string, companyID uuid.UUID) (map[string]int, error) {
	out := map[string]int{}
	err := scan(ctx, db, query, companyID, func(rows *sql.Rows) error {
		var month string
		var n int
		if err := rows.Scan(&month, &n); err != nil {
			return err
		}
		out[month] = n
		return nil
	})
	return out, err
}

// scan runs query for the company and hands each row to fn.
func scan(ctx context.Context, db *sql.DB, query string, companyID uuid.UUID, fn func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, query, companyID)
	if err != nil {
		return fmt.Errorf("%s: %w", query, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
