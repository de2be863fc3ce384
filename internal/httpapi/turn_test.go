package httpapi_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/widget"
)

// A retry with the same message_id returns the first answer, stores nothing and does not count
// against the session's cap; another message_id is another message.
func TestChatMessageIDRetry(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key, session: strp("retry-session-000000000001")}
	withID := func(id string) func(*leadclient.ChatRequest) {
		return func(r *leadclient.ChatRequest) { r.MessageId = &id }
	}
	first := v.send("Mennyibe kerül? anna@example.hu", withID("m-1"))
	if first.LeadId == nil {
		t.Fatal("no lead")
	}
	for range 3 {
		again := v.send("Mennyibe kerül? anna@example.hu", withID("m-1"))
		if again.Reply != first.Reply || *again.LeadId != *first.LeadId || again.RequestContact != first.RequestContact {
			t.Errorf("retry answered %+v, want the first answer %+v", again, first)
		}
	}
	var messages, visitor, leads, counted int
	db := e.store.DB()
	if err := db.QueryRow(`SELECT (SELECT count(*) FROM chat_messages), (SELECT visitor_messages FROM chat_sessions),
		(SELECT count(*) FROM leads), (SELECT sum(count) FROM lead_counters)`).Scan(&messages, &visitor, &leads, &counted); err != nil {
		t.Fatal(err)
	}
	if messages != 2 || visitor != 1 || leads != 1 || counted != 1 {
		t.Errorf("after three retries: %d messages, %d visitor messages, %d leads, count %d; want 2, 1, 1, 1",
			messages, visitor, leads, counted)
	}
	v.send("Köszönöm!", withID("m-2"))
	if err := db.QueryRow(`SELECT count(*) FROM chat_messages`).Scan(&messages); err != nil || messages != 4 {
		t.Errorf("another message_id: %d messages (%v), want 4", messages, err)
	}
}

// Messages of one session sent at once are each answered once or told to send again, and what
// is stored is whole turns in order: every visitor message followed by its reply, none lost.
func TestChatConcurrentTurnsOfOneSession(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Public, nil, true).Key
	session := "race-session-00000000000001"
	const n = 8
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range n {
		wg.Go(func() {
			body := fmt.Sprintf(`{"api_key": %q, "session_id": %q, "message_id": "m-%d", "message": "Kérdés %d"}`, key, session, i, i)
			resp, out := e.do("POST", "/api/embed/chat", body, nil)
			statuses[i] = resp.StatusCode
			if resp.StatusCode != 200 && (resp.StatusCode != 409 || out["code"] != "session_busy") {
				t.Errorf("message %d: %d %v", i, resp.StatusCode, out)
			}
		})
	}
	wg.Wait()
	answered := 0
	for _, st := range statuses {
		if st == 200 {
			answered++
		}
	}
	if answered == 0 {
		t.Fatal("no message answered")
	}
	rows, err := e.store.DB().Query(`SELECT visitor, message_id FROM chat_messages ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for i := 0; rows.Next(); i++ {
		var visitor bool
		var id string
		if err := rows.Scan(&visitor, &id); err != nil {
			t.Fatal(err)
		}
		if visitor != (i%2 == 0) {
			t.Errorf("message %d: visitor=%v; turns interleaved", i, visitor)
		}
		if i%2 == 1 && id != got[len(got)-1] {
			t.Errorf("reply %d belongs to %s, after visitor message %s", i, id, got[len(got)-1])
		}
		got = append(got, id)
	}
	var visitor int
	if err := e.store.DB().QueryRow(`SELECT visitor_messages FROM chat_sessions`).Scan(&visitor); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2*answered || visitor != answered {
		t.Errorf("%d answered, %d messages stored, visitor_messages %d; want %d and %d", answered, len(got), visitor, 2*answered, answered)
	}
	t.Logf("%d of %d concurrent messages answered, the rest told session_busy", answered, n)
}

// A contact detail a later turn changes keeps its earlier value in the lead's history, with
// where the change came from; the lead shows the new value.
func TestChatContactHistory(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	r := v.send("Az e-mail címem anna@example.hu", nil)
	if r.LeadId == nil {
		t.Fatal("no lead")
	}
	v.send("Itt a számom: +36 30 111 2222", nil)
	v.send("Elküldtem az adataimat.", func(r *leadclient.ChatRequest) {
		r.FirstName, r.Email, r.FormFillMs = strp("Kiss Anna"), strp("anna.kiss@example.hu"), intp(5000)
	})
	// A detail found in text fills gaps only, unless the visitor says it corrects one.
	v.send("Az e-mail címem anna@example.com", nil)
	v.send("Bocs, elírtam: anna.kiss@example.com", nil)
	rows, err := e.store.DB().Query(`SELECT field, coalesce(old_value, ''), coalesce(new_value, ''), origin
		FROM lead_history WHERE company_id = $1 AND lead_id = $2 ORDER BY id`, c, *r.LeadId)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var f, o, n, origin string
		if err := rows.Scan(&f, &o, &n, &origin); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %q→%q %s", f, o, n, origin))
	}
	want := []string{
		`phone ""→"+36 30 111 2222" text`,
		`first_name ""→"Anna" form`, // the form's one name field, split
		`last_name ""→"Kiss" form`,
		`email "anna@example.hu"→"anna.kiss@example.hu" form`,
		`email "anna.kiss@example.hu"→"anna.kiss@example.com" text`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("history:\n got %q\nwant %q", got, want)
	}
	leads, err := lead.Collect(lead.All(t.Context(), e.store, c, lead.Filter{}))
	if err != nil || len(leads) != 1 || leads[0].Email != "anna.kiss@example.com" || leads[0].FirstName != "Anna" ||
		leads[0].LastName != "Kiss" || leads[0].Note != "" {
		t.Errorf("lead = %+v (%v)", leads, err)
	}
}

func intp(n int) *int { return &n }

// With language auto each visitor is answered in their language, which every answer names
// for the widget; a message that shows no language keeps the conversation's.
func TestChatLanguageAuto(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	if err := e.store.SetWidgetSettings(t.Context(), c, widget.Settings{Language: widget.LanguageAuto}); err != nil {
		t.Fatal(err)
	}
	setProfile(t, e, c)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	for _, step := range []struct{ message, lang, reply string }{
		{"What are your opening hours?", "en", "Our opening hours: „Hétfőtől péntekig 8–17” (in Hungarian)."},
		{"anna@example.com", "en", "Thank you!"},
		{"Mennyi a garancia?", "hu", "25 év a panelekre."},
	} {
		r := v.send(step.message, nil)
		if string(r.Language) != step.lang || !strings.Contains(r.Reply, step.reply) {
			t.Errorf("%q: language %q, reply %q; want %q and %q in it", step.message, r.Language, r.Reply, step.lang, step.reply)
		}
	}
}

// A question the profile does not answer is handed over, and the server asks for the details
// a colleague needs at once.
func TestChatHandoverRequestsContact(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	setProfile(t, e, c)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	r := v.send("Szereltek klímát is?", nil)
	if !r.RequestContact || !strings.Contains(r.Reply, "kollégánk szívesen segít") {
		t.Errorf("request_contact %v, reply %q; want a handover that asks for contact", r.RequestContact, r.Reply)
	}
}
