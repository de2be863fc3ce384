package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// api/webhooks.yaml is what the generator makes of the contract now, and a valid OpenAPI 3.1
// document whose webhook takes the event schema.
func TestWebhooksDocumentIsCurrent(t *testing.T) {
	raw, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := webhooksDocument(raw, "api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../webhooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("api/webhooks.yaml is not what api/openapi.yaml makes: run make generate")
	}

	doc, err := openapi3.NewLoader().LoadFromData(want)
	if err != nil {
		t.Fatal(err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Errorf("openapi %s, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	hook := doc.Webhooks["lead-event"]
	if hook == nil || hook.Post == nil || hook.Post.RequestBody.Value.Content.Get("application/json").Schema.Ref != "#/components/schemas/WebhookEvent" {
		t.Fatalf("webhooks = %v, want lead-event posting a WebhookEvent", doc.Webhooks)
	}
	lead := doc.Components.Schemas["StoredLead"].Value
	if email := lead.Properties["email"].Value; email.Type == nil || !email.Type.Includes("null") || !email.Type.Includes("string") {
		t.Errorf("StoredLead.email is %v, want string or null", email.Type)
	}
}
