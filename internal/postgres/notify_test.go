package postgres_test

import (
	"context"
	"testing"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/postgres"
)

// confirmJobs counts the confirmation jobs enqueued for a company's address.
func confirmJobs(t *testing.T, s *postgres.Store, address string) int {
	t.Helper()
	var n int
	err := s.DB().QueryRowContext(context.Background(),
		`SELECT count(*) FROM river_job WHERE kind = $1 AND args->>'email' = $2`, event.ConfirmJobKind, address).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// An address added gets one confirmation job; saving the list again sends nothing more while
// its link is fresh, and a new link once it expired. An expired link confirms nothing; another
// company's list is not touched.
func TestConfirmationLinks(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	const addr = "uj@pelda.hu"
	for range 2 {
		if err := s.SetNotifyEmails(ctx, a, []string{addr}); err != nil {
			t.Fatal(err)
		}
	}
	if n := confirmJobs(t, s, addr); n != 1 {
		t.Fatalf("%d confirmation jobs after adding the address and saving again", n)
	}
	hash := event.ConfirmHash("link")
	if _, err := s.IssueConfirmToken(ctx, a, addr, hash); err != nil {
		t.Fatal(err)
	}
	if _, err := s.IssueConfirmToken(ctx, b, addr, hash); !errs.Is(err, errs.NotFound) {
		t.Errorf("another company's token for the address: %v", err)
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE notify_emails SET token_sent_at = now() - interval '8 days'
		WHERE company_id = $1`, a); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ConfirmNotifyEmail(ctx, hash); !errs.Is(err, errs.NotFound) {
		t.Errorf("an expired link: %v", err)
	}
	if err := s.SetNotifyEmails(ctx, a, []string{addr}); err != nil {
		t.Fatal(err)
	}
	if n := confirmJobs(t, s, addr); n != 2 {
		t.Errorf("%d confirmation jobs after saving again past the link's expiry, want 2", n)
	}
	if addrs, _ := s.NotifyAddresses(ctx, a); len(addrs) != 1 || addrs[0].Confirmed {
		t.Errorf("addresses %+v", addrs)
	}
}
