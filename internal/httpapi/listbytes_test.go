package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/user"
)

// listBytesTexts are texts JSON or the wire treat specially: accents, other scripts and emoji,
// quotes, a backslash before what bytea's input would read as hex, HTML characters that
// encoding/json escapes, control characters, line and paragraph separators, and "" for NULL.
var listBytesTexts = []string{
	"Kovács Péter", "", `"idézet" \ <b>&amp;</b>`, "\\x41\\\\", "sor\nsor\ttab\r\x1f\b\f", "\u2028\u2029",
	"emoji 🙂 és 中文", "\x7f", "ÁRVÍZTŰRŐ tükörfúrógép", " szóköz ", "null", "%_",
}

// A list page, whose texts are read as bytea from a prepared statement (pages of 50), is byte
// for byte the page read with its texts as text (pages of 49, not prepared), and each of its
// leads byte for byte what GET of the one lead answers, over leads with every field set,
// nulls, unicode, referral data, questions, consent, an assignee and a chat session. (The
// transport checks every response against the contract.)
func TestListPageBytesAreOneLeadsBytes(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	key := e.key(c, auth.Private, nil, true).Key
	ctx := context.Background()
	u, err := e.store.CreateUser(ctx, c, "munkatars@ceg.hu", user.Member, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	consent := "Hozzájárulok <b>\"hírlevél\"</b> & más\u2028sor"
	privacy := "https://ceg.hu/adatvedelem?a=1&b=<2>"
	sources := []lead.Source{lead.SourceAPI, lead.SourceForm, lead.SourceChat, lead.SourceManual}
	n := 2 * len(listBytesTexts)
	for i := range n {
		a, b := listBytesTexts[i%len(listBytesTexts)], listBytesTexts[(i/2+1)%len(listBytesTexts)]
		l := lead.Lead{ID: uuid.New(), FirstName: a, LastName: b, Email: b, Phone: a, PhoneE164: b, Service: a,
			Note: b, Source: sources[i%len(sources)]}
		if i%2 == 0 {
			l.ReferralData = map[string]string{"utm_source": a, "landing_page": b}
		}
		if i%3 == 0 {
			l.Unanswered = []string{a, b}
		}
		if i%4 == 0 {
			l.Consent = &lead.Consent{Marketing: i%8 == 0, Text: &consent, PrivacyURL: &privacy,
				GivenAt: time.Date(2026, 11, 27, 18, 3, 4, 5006000, time.UTC), Source: lead.SourceForm}
		}
		if _, err := e.store.CreateLead(ctx, c, l, nil, nil); err != nil {
			t.Fatal(err)
		}
		if i%3 == 1 {
			if _, err := e.store.DB().ExecContext(ctx, `UPDATE leads SET assignee_id = $3 WHERE company_id = $1 AND id = $2`,
				c, l.ID, u.ID); err != nil {
				t.Fatal(err)
			}
		}
		if i%4 == 2 {
			if _, err := e.store.DB().ExecContext(ctx, `INSERT INTO chat_sessions (company_id, session_id, lead_id) VALUES ($1, $2, $3)`,
				c, fmt.Sprintf("session-%03d-ő", i), l.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	get := func(path string) []byte {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, e.base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Api-Key", key)
		resp, err := e.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v %s", path, resp.StatusCode, err, body)
		}
		return body
	}
	sent := get("/api/v1/leads?limit=50")
	if text := get("/api/v1/leads?limit=49"); !bytes.Equal(sent, text) {
		t.Errorf("a page of 50:\n%s\na page of 49:\n%s", sent, text)
	}
	// The page's leads, newest first, as their own reads write them.
	var ids []uuid.UUID
	rows, err := e.store.DB().QueryContext(ctx, `SELECT id FROM leads WHERE company_id = $1 ORDER BY created_at DESC, id DESC`, c)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil || len(ids) != n {
		t.Fatalf("%d leads, want %d (%v)", len(ids), n, err)
	}
	want := []byte(`{"data":[`)
	for i, id := range ids {
		if i > 0 {
			want = append(want, ',')
		}
		want = append(want, bytes.TrimSuffix(get("/api/v1/leads/"+id.String()), []byte("\n"))...)
	}
	want = append(want, "],\"next_cursor\":null}\n"...)
	if !bytes.Equal(sent, want) {
		t.Errorf("a page of 50:\n%s\nthe leads one by one:\n%s", sent, want)
	}
	for _, s := range listBytesTexts[2:5] { // the page holds them as written
		if !bytes.Contains(sent, []byte(`"first_name":`+jsonString(s))) {
			t.Errorf("the page has no first_name %q", s)
		}
	}
}

// jsonString is s as encoding/json writes it.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}
