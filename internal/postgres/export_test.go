package postgres

import (
	"context"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
)

// GroupCreate is one create of a group StoreGroup stores.
type GroupCreate struct {
	Ctx       context.Context
	CompanyID uuid.UUID
	Lead      lead.Lead
	Limit     *int
}

// StoreGroup stores creates as a lead writer stores one group it took from the queue, and
// returns each one's outcome in order.
func StoreGroup(s *Store, creates []GroupCreate) ([]lead.Created, []error) {
	group := make([]*pendingLead, len(creates))
	for i, c := range creates {
		group[i] = &pendingLead{ctx: c.Ctx, create: leadCreate{companyID: c.CompanyID, lead: c.Lead, limit: c.Limit}, done: make(chan leadResult, 1)}
	}
	w := &leadWriters{s: s, maxBatch: len(creates)}
	w.store(group)
	created, errs := make([]lead.Created, len(group)), make([]error, len(group))
	for i, p := range group {
		r := <-p.done
		created[i], errs[i] = r.created, r.err
	}
	return created, errs
}
