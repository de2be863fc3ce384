package leadclient_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	leadclient "github.com/leadchat/leadchat/clients/go"
)

// The go blocks of README.md and of the repository's README, each inside a function that gives
// it the variables it assumes (ctx, lc, lead, res, err), so that the compiler checks them;
// TestREADMEGoBlocksCompile holds the READMEs to these copies. The functions are not run: the
// blocks talk to https://leadchat.example.
var readmeBlocks = []any{
	readmeCreatingALead, readmeErrors, readmeIdempotencyKey, readmeWidget, readmeListLeads,
	readmeOneLead, readmeWebhooks, readmeRepository,
}

// README.md, Creating a lead.
func readmeCreatingALead(ctx context.Context) error {
	lc, err := leadclient.New("https://leadchat.example", os.Getenv("LEADCHAT_KEY"))
	if err != nil {
		return err
	}
	res, err := lc.CreateLead(ctx, leadclient.Lead{
		FirstName:    "Péter",
		LastName:     "Kovács",
		Email:        "peter.kovacs@example.hu",
		Phone:        "+36 30 123 4567",
		Source:       "form",
		ReferralData: map[string]string{"utm_source": "google"},
	})
	if err != nil {
		return err
	}
	log.Printf("lead %s (over limit: %t, request %s)", res.LeadID, res.OverLimit, res.RequestID)
	if res.Limit != nil {
		log.Printf("%d of %d leads this month", *res.Count, *res.Limit)
	}
	return nil
}

// README.md, Errors.
func readmeErrors(err error) {
	var apiErr *leadclient.APIError
	switch {
	case leadclient.IsCode(err, leadclient.ErrorCodeInvalidEmail):
		// ask the visitor again
	case errors.As(err, &apiErr) && apiErr.StatusCode >= 500:
		// the service is in trouble; try again later with the same WithIdempotencyKey
	case err != nil:
		// network failure, or ctx ended: errors.Is(err, context.DeadlineExceeded)
	}
}

// README.md, Retries and idempotency.
func readmeIdempotencyKey(ctx context.Context, lc *leadclient.SDK, lead leadclient.Lead) (*leadclient.CreateLeadResult, error) {
	res, err := lc.CreateLead(ctx, lead, leadclient.WithIdempotencyKey("form-submission-1042"))
	return res, err
}

// README.md, The widget endpoints.
func readmeWidget(ctx context.Context) error {
	lc, _ := leadclient.New("https://leadchat.example", "lc_pub_…")
	cfg, err := lc.WidgetConfig(ctx) // *leadclient.WidgetConfig
	if err != nil {
		return err
	}
	log.Printf("welcome message: %s", cfg.WelcomeMessage)
	reply, err := lc.Chat(ctx, leadclient.ChatMessage{Message: "Mennyibe kerül?"}) // *leadclient.ChatReply
	if err != nil {
		return err
	}
	reply, err = lc.Chat(ctx, leadclient.ChatMessage{SessionID: reply.SessionId, Message: "…"})
	_ = reply
	return err
}

// README.md, Reading and managing leads: the walk.
func readmeListLeads(ctx context.Context, lc *leadclient.SDK) error {
	march := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for l, err := range lc.ListLeads(ctx, leadclient.LeadFilter{
		Status: leadclient.LeadStatusNew, Since: march, Until: march.AddDate(0, 1, 0),
	}) {
		if err != nil {
			return err
		}
		log.Printf("%s %s", l.LeadId, *l.Email) // absent values are nil
	}
	return nil
}

// README.md, Reading and managing leads: one lead.
func readmeOneLead(ctx context.Context, lc *leadclient.SDK, res *leadclient.CreateLeadResult) error {
	lead, err := lc.GetLead(ctx, res.LeadID)
	if err != nil {
		return err
	}
	if lead.Status == leadclient.LeadStatusNew {
		lead, err = lc.SetLeadStatus(ctx, lead.LeadId, leadclient.LeadStatusContacted)
		if err != nil {
			return err
		}
	}
	log.Printf("%s is %s", lead.LeadId, lead.Status)
	return nil
}

// README.md, Receiving webhooks.
func readmeWebhooks() error {
	v, err := leadclient.NewWebhookVerifier(os.Getenv("LEADCHAT_WEBHOOK_SECRET"))
	if err != nil {
		return err
	}
	http.HandleFunc("POST /leadchat", func(w http.ResponseWriter, r *http.Request) {
		m, err := v.ParseRequest(r)
		if errors.Is(err, leadclient.ErrWebhookSignature) {
			http.Error(w, "not from leadchat", http.StatusUnauthorized)
			return
		}
		if err != nil {
			http.Error(w, "unreadable", http.StatusBadRequest)
			return
		}
		switch m.Type {
		case leadclient.WebhookEventTypeLeadCreated, leadclient.WebhookEventTypeLeadUpdated:
			log.Printf("%s: lead %s is %s", m.ID, m.LeadID, m.Lead.Status)
		case leadclient.WebhookEventTypeLeadErased:
			log.Printf("%s: erase what you hold of lead %s", m.ID, m.LeadID)
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return nil
}

// The repository's README, For integrators: the Go SDK.
func readmeRepository(ctx context.Context) error {
	c, err := leadclient.New("https://leads.example.com", os.Getenv("LEADCHAT_PRIVATE_KEY"))
	if err != nil {
		return err
	}
	res, err := c.CreateLead(ctx, leadclient.Lead{FirstName: "Kovács Péter", Email: "peter@example.hu"})
	var apiErr *leadclient.APIError
	if errors.As(err, &apiErr) && apiErr.Code == leadclient.ErrorCodeInvalidEmail {
		return fmt.Errorf("ask the visitor for the address again: %w", err)
	}
	if err != nil {
		return err
	}
	fmt.Println(res.LeadID, res.OverLimit, res.Limit, res.Count)
	lead, err := c.GetLead(ctx, res.LeadID) // a lead id is a uuid.UUID everywhere in the SDK
	if err != nil {
		return err
	}
	fmt.Println(lead.Status) // a leadclient.LeadStatus, the one status type
	return nil
}
