package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
)

// takeSlot gives job $2 one of company $1's free delivery slots (or the one it holds already,
// should River run it again) until $3 ms from now. A slot another worker is taking is skipped,
// not waited for. No row back: every slot is held, or the company has none yet.
const takeSlot = `
UPDATE delivery_slots s SET job_id = $2, held_until = now() + $3 * interval '1 millisecond'
FROM (
    SELECT slot FROM delivery_slots
    WHERE company_id = $1 AND (held_until IS NULL OR held_until < now() OR job_id = $2)
    ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED
) free
WHERE s.company_id = $1 AND s.slot = free.slot
RETURNING s.slot`

// makeSlots gives company $1 its $2 slots, numbered from 0, the first time it needs them (and
// more, should the number grow).
const makeSlots = `
INSERT INTO delivery_slots (company_id, slot)
SELECT $1, generate_series(0, $2 - 1)
ON CONFLICT DO NOTHING`

// TakeSlot holds one of a company's n delivery slots for job until lease passes or FreeSlot;
// ok false when all n are held. Slots are rows, so the bound holds across instances.
func (s *Store) TakeSlot(ctx context.Context, companyID uuid.UUID, job int64, n int, lease time.Duration) (slot int, ok bool, err error) {
	for range 2 {
		err = s.db.GetContext(ctx, &slot, takeSlot, companyID, job, lease.Milliseconds())
		if !errors.Is(err, sql.ErrNoRows) {
			return slot, err == nil, translate(err)
		}
		res, err := s.db.ExecContext(ctx, makeSlots, companyID, n)
		if err != nil {
			return 0, false, translate(err)
		}
		if made, _ := res.RowsAffected(); made == 0 {
			return 0, false, nil // every slot is held
		}
	}
	return 0, false, nil
}

const freeSlot = `
UPDATE delivery_slots SET job_id = NULL, held_until = NULL
WHERE company_id = $1 AND slot = $2 AND job_id = $3`

// FreeSlot lets a company's slot go that job held.
func (s *Store) FreeSlot(ctx context.Context, companyID uuid.UUID, slot int, job int64) error {
	_, err := s.db.ExecContext(ctx, freeSlot, companyID, slot, job)
	return translate(err)
}
