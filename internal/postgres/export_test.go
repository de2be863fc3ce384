package postgres

import (
	"context"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/chat"
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
	group := make([]*pending[leadCreate, lead.Created], len(creates))
	for i, c := range creates {
		group[i] = &pending[leadCreate, lead.Created]{ctx: c.Ctx,
			in: leadCreate{companyID: c.CompanyID, lead: c.Lead, limit: c.Limit}, done: make(chan result[lead.Created], 1)}
	}
	s.leads.write(group)
	created, errs := make([]lead.Created, len(group)), make([]error, len(group))
	for i, p := range group {
		r := <-p.done
		created[i], errs[i] = r.out, r.err
	}
	return created, errs
}

// StoreTurnGroup stores chat turns as a turn writer stores one group it took from the queue,
// and returns each one's outcome in order.
func StoreTurnGroup(s *Store, companyID uuid.UUID, writes []chat.Write) []error {
	group := make([]*pending[turnWrite, bool], len(writes))
	for i, w := range writes {
		group[i] = &pending[turnWrite, bool]{ctx: context.Background(), in: newTurnWrite(companyID, w),
			done: make(chan result[bool], 1)}
	}
	s.turns.write(group)
	out := make([]error, len(group))
	for i, p := range group {
		r := <-p.done
		out[i] = lostRace(r.out, r.err)
	}
	return out
}
