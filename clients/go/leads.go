package leadclient

import (
	"context"
	"iter"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/oapi-codegen/nullable"
)

// LeadFilter selects the leads ListLeads yields; a zero field selects every lead.
type LeadFilter struct {
	// Status is the leads' status now: LeadStatusNew, LeadStatusOverLimit,
	// LeadStatusContacted…
	Status LeadStatus
	// Source is where the leads came from: "form", "api", "chat" or "manual".
	Source LeadSource
	// Since and Until bound the creation time: Since ≤ created_at < Until.
	Since, Until time.Time
	// Email selects one person's leads: those with this address, whatever its letters' case.
	Email string
	// PageSize is how many leads each request fetches, 1 to 200; 0 leaves it to the service (50).
	PageSize int
}

// params is the filter as the generated client sends it, starting after cursor ("" for the
// first page).
func (f LeadFilter) params(cursor string) *ListLeadsParams {
	p := &ListLeadsParams{Cursor: optional(cursor)}
	if f.Status != "" {
		p.Status = &f.Status
	}
	if f.Source != "" {
		p.Source = &f.Source
	}
	if !f.Since.IsZero() {
		p.Since = &f.Since
	}
	if !f.Until.IsZero() {
		p.Until = &f.Until
	}
	if f.PageSize != 0 {
		p.Limit = &f.PageSize
	}
	if f.Email != "" {
		p.Email = &f.Email
	}
	return p
}

// ListLeads yields the company's leads that f selects, newest first, fetching the next page
// only when the loop wants more: break out of the loop to stop. Paging is by position, so
// leads created meanwhile do not shift it and none is yielded twice. An error ends the
// sequence: it is yielded once, with a zero StoredLead. Needs a private key.
//
//	for l, err := range lc.ListLeads(ctx, leadclient.LeadFilter{Status: leadclient.LeadStatusNew}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(l.LeadId, *l.Email)
//	}
func (c *SDK) ListLeads(ctx context.Context, f LeadFilter) iter.Seq2[StoredLead, error] {
	return func(yield func(StoredLead, error) bool) {
		cursor := ""
		for {
			page, err := c.ListLeadsPage(ctx, f, cursor)
			if err != nil {
				yield(StoredLead{}, err)
				return
			}
			for _, l := range page.Data {
				if !yield(l, nil) {
					return
				}
			}
			if page.NextCursor == nil {
				return
			}
			cursor = *page.NextCursor
		}
	}
}

// ListLeadsPage fetches one page of the leads f selects: the first with cursor "", then each
// following one with the NextCursor of the page before (nil after the last page). Keep the
// cursor to resume a walk later; ListLeads does the walking for you.
func (c *SDK) ListLeadsPage(ctx context.Context, f LeadFilter, cursor string) (*LeadList, error) {
	params := f.params(cursor)
	var page LeadList
	err := c.read(ctx, &page, func(ctx context.Context) (*http.Response, error) {
		return c.api.ListLeads(ctx, params, c.withKey)
	})
	if err != nil {
		return nil, err
	}
	return &page, nil
}

// GetLead returns one of the company's leads; an id that is not the company's lead is an
// *APIError with ErrorCodeLeadNotFound. Needs a private key.
func (c *SDK) GetLead(ctx context.Context, leadID uuid.UUID) (*StoredLead, error) {
	return readLead[StoredLead](ctx, c, func(ctx context.Context) (*http.Response, error) {
		return c.api.GetLead(ctx, leadID, c.withKey)
	})
}

// LeadMessages returns the transcript of the chat that made the lead, oldest first; none for
// a lead that did not come from a chat. Needs a private key.
func (c *SDK) LeadMessages(ctx context.Context, leadID uuid.UUID) ([]LeadMessage, error) {
	msgs, err := readLead[LeadMessages](ctx, c, func(ctx context.Context) (*http.Response, error) {
		return c.api.ListLeadMessages(ctx, leadID, c.withKey)
	})
	if err != nil {
		return nil, err
	}
	return msgs.Data, nil
}

// SetLeadStatus moves the lead to a lifecycle status (LeadStatusNew, LeadStatusContacted,
// LeadStatusQualified, LeadStatusWon or LeadStatusLost; LeadStatusOverLimit is only ever given
// by the service and is ErrorCodeInvalidStatus here) and returns the lead as it now is; the
// service keeps the change in the lead's history. Setting the status a lead has changes
// nothing, which makes the call safe to retry. Needs a private key.
func (c *SDK) SetLeadStatus(ctx context.Context, leadID uuid.UUID, status LeadStatus) (*StoredLead, error) {
	return readLead[StoredLead](ctx, c, func(ctx context.Context) (*http.Response, error) {
		return c.api.UpdateLead(ctx, leadID, LeadUpdate{Status: &status}, c.withKey)
	})
}

// SetLeadAssignee gives the lead to a user of the company (a dashboard user's id), or to
// nobody with uuid.Nil, and returns the lead as it now is; the service keeps the change in the
// lead's history. A user who is not the company's is an *APIError with
// ErrorCodeInvalidAssignee. Giving a lead to whoever has it changes nothing, which makes the
// call safe to retry. Needs a private key.
func (c *SDK) SetLeadAssignee(ctx context.Context, leadID, assigneeID uuid.UUID) (*StoredLead, error) {
	body := LeadUpdate{AssigneeId: nullable.NewNullNullable[string]()}
	if assigneeID != uuid.Nil {
		body.AssigneeId = nullable.NewNullableWithValue(assigneeID.String())
	}
	return readLead[StoredLead](ctx, c, func(ctx context.Context) (*http.Response, error) {
		return c.api.UpdateLead(ctx, leadID, body, c.withKey)
	})
}

// readLead runs an idempotent call about one lead and decodes its answer.
func readLead[T any](ctx context.Context, c *SDK, send sendFunc) (*T, error) {
	var v T
	if err := c.read(ctx, &v, send); err != nil {
		return nil, err
	}
	return &v, nil
}

// DeleteLead erases the lead with its chat and history, for good. Only failures that promise
// nothing happened are retried; after a 503 that cut the erasure short, a retry may answer
// ErrorCodeLeadNotFound because the first attempt did erase the lead. Needs a private key.
func (c *SDK) DeleteLead(ctx context.Context, leadID uuid.UUID) error {
	_, _, err := c.call(ctx, once, func(ctx context.Context) (*http.Response, error) {
		return c.api.DeleteLead(ctx, leadID, c.withKey)
	})
	return err
}

// read runs an idempotent call and decodes its answer into v.
func (c *SDK) read(ctx context.Context, v any, send sendFunc) error {
	resp, body, err := c.call(ctx, idempotent, send)
	if err != nil {
		return err
	}
	return decode(resp, body, v)
}
