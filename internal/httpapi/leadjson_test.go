package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/leadjson"
)

// storedLead is the contract's Lead object as the generated type holds it, every field present
// and null when absent: what encoding/json writes of it is what leadjson.Append must write.
func storedLead(l *lead.Stored) api.StoredLead {
	out := api.StoredLead{
		LeadId: l.ID, Status: api.LeadStatus(l.Status), OverLimit: l.OverLimit,
		FirstName: orNull(l.FirstName), LastName: orNull(l.LastName), Email: orNull(l.Email),
		Phone: orNull(l.Phone), PhoneE164: orNull(l.PhoneE164), Service: orNull(l.Service),
		Source: api.LeadSource(l.Source), SessionId: orNull(l.SessionID),
		CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC(),
	}
	if l.Note != "" {
		out.Details = &api.LeadDetails{Note: l.Note}
		if len(l.Unanswered) > 0 {
			out.Details.UnansweredQuestions = &l.Unanswered
		}
	}
	if l.AssigneeID != uuid.Nil {
		out.AssigneeId = &l.AssigneeID
	}
	if l.ReferralData != nil {
		out.ReferralData = &l.ReferralData
	}
	if c := l.Consent; c != nil {
		out.Consent = &api.Consent{Marketing: c.Marketing, Text: c.Text, PrivacyUrl: c.PrivacyURL,
			GivenAt: c.GivenAt.UTC(), Source: api.ConsentSource(c.Source)}
	}
	return out
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// encodingJSON is what the generated handlers write of v: json.Encoder's output.
func encodingJSON(t testing.TB, v any) []byte {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// hardText is every kind of text that encoding/json escapes or replaces.
var hardText = []string{
	"", "Kovács Péter", `"idézet" \ <b>&amp;</b>`, "sor\nsor\ttab\r\x00\x1f\b\f", "\u2028\u2029",
	"hibás \xff\xfe utf-8", "emoji 🙂 és 中文", "\x7f", strings.Repeat("á", 300),
}

func exampleLeads() []lead.Stored {
	at := time.Date(2026, 11, 24, 1, 30, 37, 123456789, time.FixedZone("CET", 3600))
	text, url := "Kérek hírlevelet.", "https://ceg.hu/adatvedelem"
	full := lead.Stored{
		Lead: lead.Lead{ID: uuid.MustParse("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"), FirstName: "Péter", LastName: "Kovács",
			Email: "peter@example.hu", Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Service: "Napelem <5 kW>",
			Note: "Délután \"hívjon\"", Unanswered: []string{"Van <garancia>?", "És \"hétvégén\"?"}, Source: lead.SourceChat,
			ReferralData: map[string]string{"utm_source": "google", "landing_page": "https://ceg.hu/?a=1&b=<2>", "gclid": ""},
			Consent:      &lead.Consent{Marketing: true, Text: &text, PrivacyURL: &url, GivenAt: at.Truncate(time.Second), Source: lead.SourceChat}},
		Status: lead.StatusQualified, OverLimit: true, SessionID: "sess_01", CreatedAt: at, UpdatedAt: at.Add(time.Second),
		AssigneeID: uuid.MustParse("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c"),
	}
	empty := lead.Stored{Lead: lead.Lead{ID: uuid.New(), Source: lead.SourceAPI, ReferralData: map[string]string{}},
		Status: lead.StatusNew, CreatedAt: time.Unix(0, 0), UpdatedAt: time.Unix(1, 500)}
	bare := lead.Stored{Lead: lead.Lead{ID: uuid.New(), Source: lead.SourceForm, Consent: &lead.Consent{GivenAt: at, Source: lead.SourceForm}},
		Status: lead.StatusOverLimit, CreatedAt: at, UpdatedAt: at}
	leads := []lead.Stored{full, empty, bare}
	for _, s := range hardText {
		l := full
		l.FirstName, l.LastName, l.Note, l.SessionID = s, s, s, s
		l.Unanswered = []string{s, "Van garancia?"}
		l.ReferralData = map[string]string{s: s, "utm_term": s}
		c := *full.Consent
		c.Text = &s
		l.Consent = &c
		leads = append(leads, l)
	}
	return leads
}

// leadjson.Append and appendLeadList write byte for byte what encoding/json writes of the generated
// types, for leads with every field, none, and every kind of text it escapes.
func TestLeadJSONIsEncodingJSONs(t *testing.T) {
	t.Parallel()
	leads := exampleLeads()
	for i := range leads {
		want := encodingJSON(t, storedLead(&leads[i]))
		if got := append(leadjson.Append(nil, &leads[i]), '\n'); !bytes.Equal(got, want) {
			t.Errorf("lead %d:\n got %s\nwant %s", i, got, want)
		}
	}
	next := &lead.Cursor{CreatedAt: leads[0].CreatedAt, ID: leads[0].ID}
	var pool sync.Pool // each page after the first writes into the buffer of the one before
	for _, p := range []lead.Page{{Leads: leads}, {}, {Leads: leads[:1], Next: next}} {
		body := api.LeadList{Data: make([]api.StoredLead, len(p.Leads))}
		for i := range p.Leads {
			body.Data[i] = storedLead(&p.Leads[i])
		}
		if p.Next != nil {
			s := p.Next.Text(lead.Filter{Status: lead.StatusNew})
			body.NextCursor = &s
		}
		want := encodingJSON(t, body)
		rec := httptest.NewRecorder()
		if err := (leadListJSON{page: &p, filter: lead.Filter{Status: lead.StatusNew}, buffers: &pool}).VisitListLeadsResponse(rec); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(rec.Body.Bytes(), want) || rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("page of %d leads: %d %q\n got %s\nwant %s", len(p.Leads), rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes(), want)
		}
	}
}

// Any text in any field is written as encoding/json writes it.
func FuzzLeadJSON(f *testing.F) {
	for _, s := range hardText {
		f.Add(s, s, s)
	}
	base := exampleLeads()[0]
	f.Fuzz(func(t *testing.T, name, note, key string) {
		l := base
		l.FirstName, l.Email, l.Note, l.Service = name, name, note, key
		l.Unanswered = []string{note, key}
		l.ReferralData = map[string]string{key: note, name: key}
		c := *base.Consent
		c.Text, c.PrivacyURL = &note, &key
		l.Consent = &c
		want := encodingJSON(t, storedLead(&l))
		if got := append(leadjson.Append(nil, &l), '\n'); !bytes.Equal(got, want) {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	})
}
