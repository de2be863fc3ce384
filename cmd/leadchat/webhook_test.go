package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// The webhook and notify commands: add shows the secret once, list never; deliveries shows
// the log; the commands that take an id find its company; bad input is refused.
func TestWebhookCommands(t *testing.T) {
	t.Parallel()
	c := cli{t: t, dsn: pgtest.NewDSN(t)}
	var company struct {
		ID string `json:"id"`
	}
	c.json(&company, "company", "create", "--name", "Teszt Kft.", "--plan", "pro", "--json")
	var added struct {
		ID     string   `json:"id"`
		Secret string   `json:"secret"`
		URL    string   `json:"url"`
		Events []string `json:"events"`
	}
	c.json(&added, "webhook", "add", "--company", company.ID, "--url", "https://hooks.example.com/lc",
		"--event", "lead.created", "--event", "lead.erased", "--json")
	if added.ID == "" || !strings.HasPrefix(added.Secret, "whsec_") || strings.Join(added.Events, ",") != "lead.created,lead.erased" {
		t.Fatalf("webhook add = %+v", added)
	}
	var list []map[string]any
	c.json(&list, "webhook", "list", "--company", company.ID, "--json")
	if len(list) != 1 || list[0]["id"] != added.ID || list[0]["disabled_at"] != nil {
		t.Fatalf("webhook list = %v", list)
	}
	if out, _ := c.run("webhook", "list", "--company", company.ID); strings.Contains(out, added.Secret) || !strings.Contains(out, "active") {
		t.Errorf("webhook list shows the secret or no state:\n%s", out)
	}
	var rotated struct {
		Secret string `json:"secret"`
	}
	c.json(&rotated, "webhook", "rotate", "--webhook", added.ID, "--grace", "1h", "--json")
	if !strings.HasPrefix(rotated.Secret, "whsec_") || rotated.Secret == added.Secret {
		t.Errorf("rotate = %+v", rotated)
	}
	var deliveries []map[string]any
	c.json(&deliveries, "webhook", "deliveries", "--webhook", added.ID, "--json")
	if len(deliveries) != 0 {
		t.Errorf("deliveries = %v", deliveries)
	}
	var notify struct {
		Emails []string `json:"emails"`
	}
	c.json(&notify, "notify", "set", "--company", company.ID, "--email", "sales@example.com", "--email", "boss@example.com", "--json")
	if strings.Join(notify.Emails, ",") != "boss@example.com,sales@example.com" {
		t.Errorf("notify set = %v", notify)
	}
	c.json(&notify, "notify", "set", "--company", company.ID, "--json")
	if len(notify.Emails) != 0 {
		t.Errorf("notify set without --email = %v", notify)
	}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"http URL", []string{"webhook", "add", "--company", company.ID, "--url", "http://hooks.example.com"}},
		{"unknown event", []string{"webhook", "add", "--company", company.ID, "--url", "https://x.example.com", "--event", "lead.deleted"}},
		{"unknown company", []string{"webhook", "add", "--company", "00000000-0000-0000-0000-000000000000", "--url", "https://x.example.com"}},
		{"unknown webhook", []string{"webhook", "remove", "--webhook", "00000000-0000-0000-0000-000000000000"}},
		{"unknown delivery", []string{"webhook", "redeliver", "--delivery", "00000000-0000-0000-0000-000000000000"}},
		{"bad address", []string{"notify", "set", "--company", company.ID, "--email", "Anna <a@example.com>"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := c.run(tt.args...); err == nil {
				t.Errorf("leadchat %s succeeded, want an error", strings.Join(tt.args, " "))
			}
		})
	}
	if _, err := c.run("webhook", "add", "--company", company.ID, "--url", "http://hooks.example.com"); err == nil ||
		!strings.Contains(err.Error(), "LEADCHAT_WEBHOOK_ALLOW_PRIVATE=on") {
		t.Errorf("an http URL: %v; want the refusal to name LEADCHAT_WEBHOOK_ALLOW_PRIVATE=on", err)
	}
	if _, err := c.run("webhook", "remove", "--webhook", added.ID); err != nil {
		t.Fatal(err)
	}
	c.json(&list, "webhook", "list", "--company", company.ID, "--json")
	if len(list) != 0 {
		t.Errorf("after remove: %v", list)
	}
}

// A company has at most limits.WebhookEndpoints endpoints and limits.NotifyEmails addresses:
// the next is refused, saying why, and nothing is stored; an address literal of a
// special-purpose range is refused when added.
func TestWebhookAndNotifyCaps(t *testing.T) {
	t.Parallel()
	c := cli{t: t, dsn: pgtest.NewDSN(t)}
	var company struct {
		ID string `json:"id"`
	}
	c.json(&company, "company", "create", "--name", "Teszt Kft.", "--plan", "pro", "--json")
	for i := range limits.WebhookEndpoints {
		if _, err := c.run("webhook", "add", "--company", company.ID, "--url", fmt.Sprintf("https://hooks.example.com/%d", i)); err != nil {
			t.Fatalf("endpoint %d: %v", i+1, err)
		}
	}
	_, err := c.run("webhook", "add", "--company", company.ID, "--url", "https://hooks.example.com/one-too-many")
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d webhook endpoints", limits.WebhookEndpoints)) {
		t.Errorf("endpoint %d: %v", limits.WebhookEndpoints+1, err)
	}
	var list []map[string]any
	c.json(&list, "webhook", "list", "--company", company.ID, "--json")
	if len(list) != limits.WebhookEndpoints {
		t.Errorf("%d endpoints stored", len(list))
	}

	c.json(&company, "company", "create", "--name", "Másik Kft.", "--plan", "pro", "--json")
	for _, u := range []string{"https://192.0.2.1/hook", "https://198.18.0.1/", "https://[::ffff:10.0.0.1]/"} {
		if _, err := c.run("webhook", "add", "--company", company.ID, "--url", u); err == nil || !strings.Contains(err.Error(), "special-purpose") {
			t.Errorf("webhook add %s: %v", u, err)
		}
	}
	args := []string{"notify", "set", "--company", company.ID}
	for i := range limits.NotifyEmails + 1 {
		args = append(args, "--email", fmt.Sprintf("sales%d@example.com", i))
	}
	if _, err := c.run(args...); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d new-lead e-mail addresses", limits.NotifyEmails)) {
		t.Errorf("notify set with %d addresses: %v", limits.NotifyEmails+1, err)
	}
	out, err := c.run(args[:len(args)-2]...)
	if err != nil {
		t.Errorf("notify set with %d addresses: %v", limits.NotifyEmails, err)
	}
	if !strings.Contains(out, "sales0@example.com  waiting for confirmation") {
		t.Errorf("notify set does not show the addresses waiting:\n%s", out)
	}
	var listed struct {
		Addresses []struct {
			Email     string `json:"email"`
			Confirmed bool   `json:"confirmed"`
		} `json:"addresses"`
	}
	c.json(&listed, "notify", "list", "--company", company.ID, "--json")
	if len(listed.Addresses) != limits.NotifyEmails || listed.Addresses[0].Confirmed {
		t.Errorf("notify list = %+v", listed)
	}
}
