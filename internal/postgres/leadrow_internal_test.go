package postgres

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
)

// TestLeadRowJSONIsEncodingJSONs: the hand-written encoding of a group of leads is, byte for
// byte, what encoding/json writes of their leadRow, for leads with every field, with none, and
// with text that needs escaping.
func TestLeadRowJSONIsEncodingJSONs(t *testing.T) {
	limit := 250
	text, url := "Hozzájárulok <b>\"hírlevél\"</b> & más\u2028sor", "https://example.hu/adatvedelem"
	budapest := time.FixedZone("CET", 3600)
	creates := []leadCreate{
		{companyID: uuid.New(), lead: lead.Lead{ID: uuid.New(), FirstName: "Kovács Péter", Source: lead.SourceAPI}},
		{companyID: uuid.New(), limit: &limit, idem: &lead.Idempotency{Key: "k-1", RequestHash: [32]byte{1, 2, 0xff}},
			lead: lead.Lead{ID: uuid.New(), FirstName: "Ödön", LastName: "Nagy\t\"Jr\"", Email: "odon@example.hu",
				Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Service: "Napelem <telepítés> & karbantartás",
				Note: "Első sor\nmásodik \\ sor \x7f \u2029", Unanswered: []string{"Mennyi?", "Mikor\u00a0jönnek?"},
				Source:       lead.SourceChat,
				ReferralData: map[string]string{"utm_source": "google", "gclid": "x&y", "landing_page": "https://example.hu/?a=1&b=<2>"},
				Consent:      &lead.Consent{Marketing: true, Text: &text, PrivacyURL: &url, GivenAt: time.Date(2026, 11, 27, 18, 3, 4, 5006000, budapest), Source: lead.SourceForm}}},
		{companyID: uuid.New(), lead: lead.Lead{ID: uuid.New(), Note: "csak megjegyzés", ReferralData: map[string]string{},
			Source: lead.SourceForm, Consent: &lead.Consent{GivenAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Source: lead.SourceAPI}}},
		{companyID: uuid.New(), lead: lead.Lead{ID: uuid.New(), FirstName: "bad \xff byte", Source: lead.SourceManual}},
	}
	rows := leadRows(creates)
	want, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(leadsJSON(rows))); diff != "" {
		t.Errorf("(-encoding/json +leadsJSON):\n%s", diff)
	}
}
