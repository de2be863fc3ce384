package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/webhook"
)

// A lead leaves the service in one shape, whoever asks: GET /api/v1/leads/{id}, the data.lead
// of its lead.created webhook and an element of `leads list --json` are the same object, for a
// lead with every field set, one with the fewest, and a chat lead (which has a session).
func TestLeadHasOneShapeEverywhere(t *testing.T) {
	t.Parallel()
	e := startWith(t, func(c *service.Config) { c.Events.AllowPrivate = true })
	ctx := context.Background()
	c := e.company(plan.Business, -1)
	priv := e.key(c, auth.Private, nil, true).Key
	sdk := e.sdk(priv)

	delivered := make(chan []byte, 16)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		delivered <- body
	}))
	t.Cleanup(receiver.Close)
	secret, err := webhook.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.CreateEndpoint(ctx, c, receiver.URL, nil, secret); err != nil {
		t.Fatal(err)
	}

	text := "Kérem <b>hívjanak</b> & \"gyorsan\" \u2028 délután"
	full, err := sdk.CreateLead(ctx, leadclient.Lead{FirstName: "Anna", LastName: "Kovács", Email: "anna@pelda.hu",
		Phone: "+36 30 123 4567", Service: "Tetőfelújítás", Details: text, Source: "form",
		ReferralData: map[string]string{"utm_source": "hírlevél", "landing_page": "https://pelda.hu/?a=1&b=<2>"},
		Consent:      &leadclient.ConsentInput{Marketing: true, Text: &text}})
	if err != nil {
		t.Fatal(err)
	}
	bare, err := sdk.CreateLead(ctx, leadclient.Lead{FirstName: "Csak", Email: "csak@pelda.hu"})
	if err != nil {
		t.Fatal(err)
	}
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	chatLead := v.send("Nagy Béla vagyok, bela@pelda.hu, árajánlatot kérnék", nil).LeadId
	if chatLead == nil {
		t.Fatal("the chat made no lead")
	}

	hooks := map[string]json.RawMessage{}
	for deadline := time.After(20 * time.Second); len(hooks) < 3; {
		select {
		case body := <-delivered:
			var ev struct {
				Type string
				Data struct{ Lead json.RawMessage }
			}
			if err := json.Unmarshal(body, &ev); err != nil {
				t.Fatal(err)
			}
			if ev.Type == "lead.created" {
				var id struct {
					LeadID string `json:"lead_id"`
				}
				if err := json.Unmarshal(ev.Data.Lead, &id); err != nil {
					t.Fatal(err)
				}
				hooks[id.LeadID] = ev.Data.Lead
			}
		case <-deadline:
			t.Fatalf("%d of 3 lead.created deliveries arrived", len(hooks))
		}
	}

	var out bytes.Buffer
	cmd, args, _ := admin.Find([]string{"leads", "list", "--company", c.String(), "--json"})
	if err := cmd.Run(ctx, admin.Env{Store: e.store, Stdout: &out, Stderr: io.Discard}, args); err != nil {
		t.Fatal(err)
	}
	var listed []json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &listed); err != nil || len(listed) != 3 {
		t.Fatalf("leads list --json: %d leads, %v", len(listed), err)
	}
	cli := map[string]json.RawMessage{}
	for _, l := range listed {
		var id struct {
			LeadID string `json:"lead_id"`
		}
		if err := json.Unmarshal(l, &id); err != nil {
			t.Fatal(err)
		}
		cli[id.LeadID] = l
	}

	for name, id := range map[string]string{"every field": full.LeadID, "fewest fields": bare.LeadID, "chat": chatLead.String()} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, e.base+"/api/v1/leads/"+id, nil)
			req.Header.Set("x-api-key", priv)
			res, err := e.http.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			api, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET: %d %s", res.StatusCode, api)
			}
			if hook := hooks[id]; !bytes.Equal(append(bytes.Clone(hook), '\n'), api) {
				t.Errorf("the webhook's lead differs from the API's:\nwebhook %s\napi     %s", hook, api)
			}
			if diff := cmp.Diff(jsonObject(t, api), jsonObject(t, cli[id])); diff != "" {
				t.Errorf("leads list --json differs from the API (-api +cli):\n%s", diff)
			}
		})
	}
}

func jsonObject(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return m
}
