package postgres_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
)

// sessionsByJoin is each of a company's leads' chat session as chat_sessions links it, "" for
// none: what the read calls returned when they joined chat_sessions.
func sessionsByJoin(t *testing.T, s *postgres.Store, companyID uuid.UUID) map[uuid.UUID]string {
	t.Helper()
	rows, err := s.DB().QueryContext(context.Background(), `
SELECT l.id, coalesce(cs.session_id, '') FROM leads l
LEFT JOIN chat_sessions cs ON cs.company_id = $1 AND cs.lead_id = l.id
WHERE l.company_id = $1`, companyID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[uuid.UUID]string{}
	for rows.Next() {
		var id uuid.UUID
		var session string
		if err := rows.Scan(&id, &session); err != nil {
			t.Fatal(err)
		}
		out[id] = session
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkSessions compares every lead's session as the list and one lead's read return it with
// chat_sessions' link, after a step that changed the links.
func checkSessions(t *testing.T, s *postgres.Store, companyID uuid.UUID, step string) {
	t.Helper()
	ctx := context.Background()
	want := sessionsByJoin(t, s, companyID)
	listed, err := lead.Collect(lead.All(ctx, s, companyID, lead.Filter{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(want) {
		t.Fatalf("%s: listed %d leads, want %d", step, len(listed), len(want))
	}
	for _, l := range listed {
		if l.SessionID != want[l.ID] {
			t.Errorf("%s: lead %v listed with session %q, chat_sessions links %q", step, l.ID, l.SessionID, want[l.ID])
		}
		one, err := s.GetLead(ctx, companyID, l.ID)
		if err != nil {
			t.Fatal(err)
		}
		if one.SessionID != want[l.ID] {
			t.Errorf("%s: lead %v read with session %q, chat_sessions links %q", step, l.ID, one.SessionID, want[l.ID])
		}
	}
}

// A lead's session, which the lead keeps, is the one chat_sessions links to it after every way
// the link changes: a session made with its lead, a session that gains one, one moved to
// another lead, one deleted (as retention deletes chats), a lead erased with its chat, and the
// same session id in another company, whose leads keep their own.
func TestLeadSessionFollowsChatSessions(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	var leadsA, leadsB []uuid.UUID
	for i := range 5 {
		for c, list := range map[uuid.UUID]*[]uuid.UUID{a: &leadsA, b: &leadsB} {
			created, err := s.CreateLead(ctx, c, newLead(string(rune('P'+i))), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			*list = append(*list, created.ID)
		}
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := s.DB().ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string) {
		t.Helper()
		checkSessions(t, s, a, step)
		checkSessions(t, s, b, step)
	}
	check("no sessions")
	exec(`INSERT INTO chat_sessions (company_id, session_id, lead_id) VALUES ($1, 'session-one-0000000000', $2)`, a, leadsA[0])
	exec(`INSERT INTO chat_sessions (company_id, session_id) VALUES ($1, 'session-two-0000000000')`, a)
	exec(`INSERT INTO chat_sessions (company_id, session_id, lead_id) VALUES ($1, 'session-one-0000000000', $2)`, b, leadsB[3])
	check("sessions made")
	exec(`UPDATE chat_sessions SET lead_id = $2 WHERE company_id = $1 AND session_id = 'session-two-0000000000'`, a, leadsA[1])
	check("a session gained its lead")
	exec(`UPDATE chat_sessions SET lead_id = lead_id, visitor_messages = visitor_messages + 1 WHERE company_id = $1`, a)
	check("the sessions written again with the same links")
	exec(`UPDATE chat_sessions SET lead_id = $2 WHERE company_id = $1 AND session_id = 'session-one-0000000000'`, a, leadsA[2])
	check("a session moved to another lead")
	exec(`UPDATE chat_sessions SET lead_id = NULL WHERE company_id = $1 AND session_id = 'session-one-0000000000'`, a)
	check("a session's lead unset")
	exec(`DELETE FROM chat_sessions WHERE company_id = $1 AND session_id = 'session-two-0000000000'`, a)
	check("a session deleted")
	exec(`INSERT INTO chat_sessions (company_id, session_id, lead_id) VALUES ($1, 'session-three-00000000', $2)`, a, leadsA[4])
	if n, err := s.EraseLeads(ctx, a, []uuid.UUID{leadsA[4]}); err != nil || n != 1 {
		t.Fatalf("erasing a lead with its chat: %d, %v", n, err)
	}
	check("a lead erased with its chat")
	var kept int
	if err := s.DB().QueryRowContext(ctx, `SELECT count(*) FROM leads WHERE session_id IS NOT NULL`).Scan(&kept); err != nil || kept != 1 {
		t.Fatalf("leads keeping a session at the end: %d, %v; want 1 (company B's)", kept, err)
	}
}
