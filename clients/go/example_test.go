package leadclient_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	leadclient "github.com/leadchat/leadchat/clients/go"
)

func ExampleNew() {
	server := fakeLeadchat() // stands in for https://leadchat.example
	defer server.Close()

	lc, err := leadclient.New(server.URL, "lc_priv_example",
		leadclient.WithTimeout(5*time.Second),
		leadclient.WithRetries(4),
		leadclient.WithUserAgent("acme-crm/2.1"),
	)
	if err != nil {
		log.Fatal(err)
	}
	res, err := lc.CreateLead(context.Background(), leadclient.Lead{
		FirstName: "Kovács Péter",
		Email:     "peter.kovacs@example.hu",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("stored lead", res.LeadID)
	// Output: stored lead 0b7f3c52-5f3e-4c8e-9a7a-000000000042
}

func ExampleSDK_CreateLead() {
	server := fakeLeadchat()
	defer server.Close()
	lc, err := leadclient.New(server.URL, "lc_priv_example")
	if err != nil {
		log.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lead := leadclient.Lead{
		FirstName:    "Péter",
		LastName:     "Kovács",
		Email:        "peter.kovacs@example.hu",
		Phone:        "+36 30 123 4567",
		Service:      "Napelem telepítés",
		Source:       "form",
		ReferralData: map[string]string{"utm_source": "google", "utm_medium": "cpc"},
	}
	// A key of your own, such as the id of the form submission, makes even a retry from a
	// later run of your program safe; without one, each call makes up a random key.
	res, err := lc.CreateLead(ctx, lead, leadclient.WithIdempotencyKey("form-submission-1042"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("over limit:", res.OverLimit)
	if res.Limit != nil {
		fmt.Printf("%d of %d leads this month\n", *res.Count, *res.Limit)
	}

	again, err := lc.CreateLead(ctx, lead, leadclient.WithIdempotencyKey("form-submission-1042"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("replayed:", again.Replayed, "same lead:", again.LeadID == res.LeadID)
	// Output:
	// over limit: false
	// 42 of 250 leads this month
	// replayed: true same lead: true
}

func ExampleAPIError() {
	server := fakeLeadchat()
	defer server.Close()
	lc, err := leadclient.New(server.URL, "lc_priv_example")
	if err != nil {
		log.Fatal(err)
	}

	_, err = lc.CreateLead(context.Background(), leadclient.Lead{FirstName: "Péter", Email: "peter.kovacs"})
	fmt.Println(err)
	var apiErr *leadclient.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.RequestID)
	}
	// Output:
	// leadchat: 400 invalid_email: Az e-mail cím formátuma érvénytelen.
	// 400 invalid_email req-1
}

func ExampleIsCode() {
	server := fakeLeadchat()
	defer server.Close()
	lc, err := leadclient.New(server.URL, "lc_priv_mistyped")
	if err != nil {
		log.Fatal(err)
	}

	_, err = lc.CreateLead(context.Background(), leadclient.Lead{FirstName: "Péter", Email: "peter@example.hu"})
	switch {
	case leadclient.IsCode(err, leadclient.ErrorCodeInvalidAPIKey):
		fmt.Println("check LEADCHAT_KEY: the key is unknown or revoked")
	case err != nil:
		fmt.Println("could not send the lead:", err)
	}
	// Output: check LEADCHAT_KEY: the key is unknown or revoked
}

func ExampleSDK_WidgetConfig() {
	server := fakeLeadchat()
	defer server.Close()
	lc, err := leadclient.New(server.URL, "lc_pub_example") // the config takes a public key only
	if err != nil {
		log.Fatal(err)
	}

	cfg, err := lc.WidgetConfig(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg.WelcomeMessage, cfg.Language, cfg.ChatTheme.PrimaryHex)
	// Output: Üdvözöljük! Miben segíthetünk? hu #0A7C66
}

func ExampleSDK_Chat() {
	server := fakeLeadchat()
	defer server.Close()
	lc, err := leadclient.New(server.URL, "lc_pub_example")
	if err != nil {
		log.Fatal(err)
	}

	reply, err := lc.Chat(context.Background(), leadclient.ChatMessage{
		Message: "Mennyibe kerül egy 5 kW-os napelem rendszer?",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(reply.Reply)
	fmt.Println("ask for contact details:", reply.RequestContact)

	// Later messages of the conversation carry its session id.
	_, err = lc.Chat(context.Background(), leadclient.ChatMessage{
		SessionID: reply.SessionId,
		Message:   "Kovács Péter vagyok, peter.kovacs@example.hu",
	})
	fmt.Println(err)
	// Output:
	// Szívesen készítünk árajánlatot! Kérem, adja meg a nevét és az e-mail címét.
	// ask for contact details: true
	// <nil>
}

func ExampleSDK_ListLeads() {
	server := fakeLeadchat()
	defer server.Close()
	lc, err := leadclient.New(server.URL, "lc_priv_example")
	if err != nil {
		log.Fatal(err)
	}

	// The loop fetches page after page; break out of it to stop.
	march := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	filter := leadclient.LeadFilter{Status: leadclient.LeadStatusNew, Since: march, Until: march.AddDate(0, 1, 0)}
	for lead, err := range lc.ListLeads(context.Background(), filter) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(lead.LeadId, lead.Status, *lead.Email)
	}
	// Output:
	// 0b7f3c52-5f3e-4c8e-9a7a-000000000000 new anna@example.hu
	// 0b7f3c52-5f3e-4c8e-9a7a-000000000001 new anna@example.hu
	// 0b7f3c52-5f3e-4c8e-9a7a-000000000002 new anna@example.hu
}
