package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/leadchat/leadchat/internal/postgres"
)

// seedPeople stores $2 leads for company $1, each another person, and $3 leads for company $4,
// all of one person ($5, $6): one address and number make up half of the table, as a sender
// that always posts the same test lead makes them.
const seedPeople = `
INSERT INTO leads (id, company_id, first_name, email, phone, phone_e164, service, details, source, status, created_at, updated_at)
SELECT gen_random_uuid(), $1::uuid, 'Péter', 'lead' || i || '@example.hu', '+36 30 ' || lpad(i::text, 7, '0'),
       '+3630' || lpad(i::text, 7, '0'), 'Klíma', '{}'::jsonb, 'api', 'new', now() - i * interval '1 minute', now()
FROM generate_series(1, $2::int) i
UNION ALL
SELECT gen_random_uuid(), $4::uuid, 'Kovács Péter', $5, '+36 30 123 4567', $6, 'Klíma', '{}'::jsonb, 'api', 'new', now(), now()
FROM generate_series(1, $3::int) i`

// The lead page's statement finds the same person's leads through the address and number
// indexes in every plan PostgreSQL may choose for it: a custom plan for the first runs on a
// connection (and again after new statistics), a generic plan after. When one address fills
// half of the table, a join of the lead to its namesakes was estimated at a quarter of the
// company's leads per half, and the custom plan read the whole company (seconds in a company
// of a million leads) for a page of 21. The session lookup that reads the file for the lead page
// (findSessionLeadFile) finds them the same way.
func TestLeadFilePlansUseTheIndexes(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	l := newLead("Eszter")
	l.Email, l.Phone, l.PhoneE164 = "eszter@example.hu", "+36 30 999 1234", "+36309991234"
	me, err := s.CreateLead(ctx, a, l, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, seedPeople, a, 5000, 5000, b, "peter.kovacs@example.hu", "+36301234567"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, "ANALYZE leads"); err != nil {
		t.Fatal(err)
	}
	conn, err := s.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PREPARE lead_file(uuid, uuid, int) AS "+postgres.SelectLeadFile); err != nil {
		t.Fatal(err)
	}
	// The session lookup that reads the file (its plan never sees the company's id).
	if _, err := conn.ExecContext(ctx, "PREPARE session_lead_file(text, text[], text[], uuid, int) AS "+postgres.FindSessionLeadFile); err != nil {
		t.Fatal(err)
	}
	// EXECUTE takes no bind parameters; the ids are uuid.UUIDs, so plain text.
	for _, c := range []struct{ name, mode, explain string }{
		{"custom plan", "force_custom_plan", fmt.Sprintf("EXPLAIN (FORMAT JSON) EXECUTE lead_file('%s', '%s', 20)", a, me.ID)},
		{"generic plan", "force_generic_plan", fmt.Sprintf("EXPLAIN (FORMAT JSON) EXECUTE lead_file('%s', '%s', 20)", a, me.ID)},
		{"the session lookup's custom plan", "force_custom_plan", fmt.Sprintf("EXPLAIN (FORMAT JSON) EXECUTE session_lead_file('x', '{values,user_id}', '{values,company_id}', '%s', 20)", me.ID)},
		{"the session lookup's generic plan", "force_generic_plan", fmt.Sprintf("EXPLAIN (FORMAT JSON) EXECUTE session_lead_file('x', '{values,user_id}', '{values,company_id}', '%s', 20)", me.ID)},
	} {
		mode, explain := c.mode, c.explain
		t.Run(c.name, func(t *testing.T) {
			if _, err := conn.ExecContext(ctx, "SET plan_cache_mode = "+mode); err != nil {
				t.Fatal(err)
			}
			var plan []byte
			if err := conn.QueryRowContext(ctx, explain).Scan(&plan); err != nil {
				t.Fatal(err)
			}
			var root []struct{ Plan planNode }
			if err := json.Unmarshal(plan, &root); err != nil || len(root) != 1 {
				t.Fatalf("reading the plan: %v\n%s", err, plan)
			}
			if n := root[0].Plan.seqScans("leads"); n != 0 {
				t.Errorf("the plan reads the leads table through (%d sequential scans):\n%s", n, plan)
			}
		})
	}
	if f, _, err := s.LeadFile(ctx, a, me.ID, 20); err != nil || f.Lead.ID != me.ID || len(f.Related) != 0 {
		t.Errorf("LeadFile = %v related, %v", len(f.Related), err)
	}
}

// planNode is a node of EXPLAIN's JSON plan, with what seqScans reads of it.
type planNode struct {
	NodeType string     `json:"Node Type"`
	Relation string     `json:"Relation Name"`
	Plans    []planNode `json:"Plans"`
}

// seqScans counts the sequential scans of table in the plan.
func (n planNode) seqScans(table string) int {
	c := 0
	if n.NodeType == "Seq Scan" && n.Relation == table {
		c++
	}
	for _, p := range n.Plans {
		c += p.seqScans(table)
	}
	return c
}
