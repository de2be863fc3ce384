//go:build thirdparty

// Package thirdparty is run by `make third-party-client` (part of `make test`) in a throwaway
// module beside what ogen, a Go generator this project did not write, generates from the
// contract (leadapi, from api/openapi.yaml) and from its webhooks document (leadhooks, from
// api/webhooks.yaml): the generated code compiles, a client reads an error code newer than the
// contract, and a webhook body decodes into the generated event types. The build tag keeps it
// out of the tools module, where the generated packages do not exist.
package thirdparty

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"thirdparty/leadapi"
	"thirdparty/leadhooks"
)

type key string

func (k key) ApiKeyHeader(context.Context, leadapi.OperationName) (leadapi.ApiKeyHeader, error) {
	return leadapi.ApiKeyHeader{APIKey: string(k)}, nil
}

func (k key) BearerAuth(context.Context, leadapi.OperationName) (leadapi.BearerAuth, error) {
	return leadapi.BearerAuth{Token: string(k)}, nil
}

// A 400 with a code added after this contract decodes with its code, not as a broken answer.
func TestClientReadsANewerErrorCode(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error": "A fax száma érvénytelen.", "code": "invalid_fax_number"}`))
	}))
	defer srv.Close()
	c, err := leadapi.NewClient(srv.URL, key("lc_priv_example"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CreateLead(context.Background(), &leadapi.LeadInput{FirstName: "Péter", Email: "peter@example.hu"}, leadapi.CreateLeadParams{})
	if err != nil {
		t.Fatalf("the answer did not decode: %v", err)
	}
	bad, ok := res.(*leadapi.CreateLeadBadRequest)
	if !ok || bad.Code != "invalid_fax_number" {
		t.Fatalf("answer = %#v, want a bad request with the new code", res)
	}
}

// A lead.created body, as the service sends it, decodes into the generated webhook types.
func TestWebhookEventDecodes(t *testing.T) {
	body := `{"type":"lead.created","timestamp":"2026-03-02T09:15:04.123456Z","data":{"lead":{` +
		`"assignee_id":null,"consent":null,"created_at":"2026-03-02T09:15:04.123456Z","details":{"note":"5 kW"},` +
		`"email":"peter.kovacs@example.hu","first_name":"Kovács Péter","last_name":null,` +
		`"lead_id":"0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10","over_limit":false,"phone":null,"phone_e164":null,` +
		`"referral_data":null,"service":null,"session_id":null,"source":"form","status":"new",` +
		`"updated_at":"2026-03-02T09:15:04.123456Z"}}}`
	var ev leadhooks.WebhookEvent
	if err := ev.UnmarshalJSON([]byte(body)); err != nil {
		t.Fatal(err)
	}
	data, ok := ev.Data.GetWebhookLeadData()
	if ev.Type != leadhooks.WebhookEventTypeLeadCreated || !ok || data.Lead.LeadID.String() != "0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10" {
		t.Fatalf("event = %+v", ev)
	}
	if e, _ := data.Lead.Email.Get(); e != "peter.kovacs@example.hu" || !data.Lead.LastName.IsNull() {
		t.Errorf("lead = %+v", data.Lead)
	}

	erased := `{"type":"lead.erased","timestamp":"2026-03-02T09:15:04Z","data":{"lead_id":"0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10"}}`
	if err := ev.UnmarshalJSON([]byte(erased)); err != nil {
		t.Fatal(err)
	}
	if d, ok := ev.Data.GetWebhookErasedData(); !ok || ev.Type != leadhooks.WebhookEventTypeLeadErased || d.LeadID.String() != "0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10" {
		t.Errorf("erased = %+v", ev)
	}
}
