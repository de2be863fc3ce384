package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
)

// leadsErase answers a person's request to be forgotten: it erases one lead, or every lead of
// the company with an email address (whatever its letters' case), with their conversations,
// history and what their events' receivers answered, and records lead.erased for each, in one
// transaction. A lead that is not there erases nothing and is no error: the answer says how many.
func leadsErase(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "leads erase")
	company := companyFlag(fs)
	email := fs.String("email", "", "erase every lead with this email address")
	leadID := fs.String("lead", "", "erase this lead")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	cid, err := company.id()
	if err != nil {
		return err
	}
	if (*email == "") == (*leadID == "") {
		return fmt.Errorf("give either --email or --lead: %s", "the person's address, or one lead's id")
	}
	if _, err := env.Store.Company(ctx, cid); err != nil {
		return notFound(err, "company", cid, "company")
	}
	var ids []uuid.UUID
	if *leadID != "" {
		id, err := uuidFlag("lead", *leadID)
		if err != nil {
			return err
		}
		ids = []uuid.UUID{id}
	} else if ids, err = env.Store.LeadsByEmail(ctx, cid, strings.TrimSpace(*email)); err != nil {
		return err
	}
	n := 0
	if len(ids) > 0 {
		if n, err = env.Store.EraseLeads(ctx, cid, ids); err != nil {
			return err
		}
	}
	if *asJSON {
		return printJSON(env.Stdout, map[string]int{"erased": n})
	}
	fmt.Fprintf(env.Stdout, "erased %s with everything held on them\n", plural(n, "lead", "leads"))
	return nil
}

// personExport is everything held on one person, as `leads export` prints it.
type personExport struct {
	Email      string       `json:"email"`
	ExportedAt time.Time    `json:"exported_at"`
	Leads      []leadRecord `json:"leads"`
}

// leadRecord is one of the person's leads with its conversation, its history and the
// company's internal notes on it.
type leadRecord struct {
	Lead     json.RawMessage `json:"lead"`
	Messages []messageJSON   `json:"messages"`
	History  []historyRecord `json:"history"`
	Notes    []noteRecord    `json:"notes"`
}

type noteRecord struct {
	Author    string    `json:"author"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"created_at"`
}

type messageJSON struct {
	Role      string    `json:"role"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"created_at"`
	AgentName string    `json:"agent_name,omitempty"`
}

type historyRecord struct {
	Field  lead.Field  `json:"field"`
	Old    *string     `json:"old_value"`
	New    *string     `json:"new_value"`
	Origin lead.Origin `json:"origin"`
	At     time.Time   `json:"at"`
}

// leadsExport prints, as JSON, everything the company holds on the person with an email
// address: each of their leads with every field (consent included), the conversation that made
// it, its history and the notes the company's people wrote on it. Lead events keep no copy of
// a lead, so there is nothing more.
func leadsExport(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "leads export")
	company := companyFlag(fs)
	email := fs.String("email", "", "the person's email address")
	if err := parse(fs, args); err != nil {
		return err
	}
	cid, err := company.id()
	if err != nil {
		return err
	}
	if err := required(fs, "email"); err != nil {
		return err
	}
	if _, err := env.Store.Company(ctx, cid); err != nil {
		return notFound(err, "company", cid, "company")
	}
	addr := strings.TrimSpace(*email)
	ids, err := env.Store.LeadsByEmail(ctx, cid, addr)
	if err != nil {
		return err
	}
	out := personExport{Email: addr, ExportedAt: time.Now().UTC(), Leads: []leadRecord{}}
	for _, id := range ids {
		l, err := env.Store.GetLead(ctx, cid, id)
		if err != nil {
			return err
		}
		msgs, err := env.Store.LeadMessages(ctx, cid, id)
		if err != nil {
			return err
		}
		hist, err := env.Store.LeadHistory(ctx, cid, id)
		if err != nil {
			return err
		}
		notes, err := env.Store.LeadNotes(ctx, cid, id)
		if err != nil {
			return err
		}
		rec := leadRecord{Lead: toJSON(l), Messages: []messageJSON{}, History: []historyRecord{}, Notes: []noteRecord{}}
		for _, n := range notes {
			rec.Notes = append(rec.Notes, noteRecord{Author: n.Author, Text: n.Text, CreatedAt: n.At.UTC()})
		}
		for _, m := range msgs {
			rec.Messages = append(rec.Messages, messageJSON{Role: m.Role(), Text: m.Text, CreatedAt: m.At.UTC(),
				AgentName: m.AgentName})
		}
		for _, h := range hist {
			rec.History = append(rec.History, historyRecord{Field: h.Field, Old: orNull(h.Old), New: orNull(h.New),
				Origin: h.Origin, At: h.At.UTC()})
		}
		out.Leads = append(out.Leads, rec)
	}
	return printJSON(env.Stdout, out)
}
