package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/event"
)

// setNotifyEmails makes $2 the company's notify addresses in one statement. An address added
// is confirmed at once when it is the login of one of the company's owners; any other is
// added unconfirmed, with a job that sends it its confirmation link. An address kept keeps its
// state; one still unconfirmed whose link has expired is sent a new one.
var setNotifyEmails = `
WITH gone AS (
    DELETE FROM notify_emails WHERE company_id = $1 AND NOT (email = ANY ($2::text[]))
), added AS (
    INSERT INTO notify_emails (company_id, email, confirmed_at)
    SELECT $1, e, CASE WHEN EXISTS (SELECT FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.company_id = $1 AND m.role = 'owner' AND u.email = lower(e)) THEN now() END
    FROM unnest($2::text[]) AS e
    ON CONFLICT DO NOTHING
    RETURNING email, confirmed_at
), expired AS (
    SELECT email FROM notify_emails
    WHERE company_id = $1 AND email = ANY ($2::text[]) AND confirmed_at IS NULL
        AND token_sent_at < now() - $3 * interval '1 millisecond'
), job AS (
    INSERT INTO river_job (kind, queue, max_attempts, args)
    SELECT '` + event.ConfirmJobKind + `', '` + event.DeliveryQueue + `', ` + fmt.Sprint(event.DeliveryJobMaxAttempts) + `,
           jsonb_build_object('company_id', $1::uuid, 'email', email)
    FROM (SELECT email FROM added WHERE confirmed_at IS NULL UNION SELECT email FROM expired) AS waiting
)
SELECT count(*) FROM added`

// SetNotifyEmails replaces the addresses that get the new-lead e-mail; none turns it off. An
// address new to the list, or saved again after its link expired, gets a confirmation link (an
// owner's own address needs none).
func (s *Store) SetNotifyEmails(ctx context.Context, companyID uuid.UUID, emails []string) error {
	var n int
	return translate(s.db.GetContext(ctx, &n, setNotifyEmails, companyID, pq.StringArray(append([]string{}, emails...)),
		event.ConfirmLinkTTL.Milliseconds()))
}

const selectNotifyEmails = `SELECT email FROM notify_emails WHERE company_id = $1 ORDER BY email`

// NotifyEmails lists the addresses of the new-lead e-mail, confirmed or not.
func (s *Store) NotifyEmails(ctx context.Context, companyID uuid.UUID) ([]string, error) {
	out := []string{}
	return out, translate(s.db.SelectContext(ctx, &out, selectNotifyEmails, companyID))
}

const selectNotifyAddresses = `
SELECT email, confirmed_at IS NOT NULL AS confirmed FROM notify_emails WHERE company_id = $1 ORDER BY email`

// NotifyAddresses lists the addresses of the new-lead e-mail with whether each is confirmed.
func (s *Store) NotifyAddresses(ctx context.Context, companyID uuid.UUID) ([]event.NotifyAddress, error) {
	out := []event.NotifyAddress{}
	return out, translate(s.db.SelectContext(ctx, &out, selectNotifyAddresses, companyID))
}

// issueConfirmToken stores the hash of a new confirmation link for an address still waiting
// for one, replacing an earlier link, and returns the company's name for the message. No row
// back: the address was removed or confirmed meanwhile.
const issueConfirmToken = `
UPDATE notify_emails n SET token_hash = $3, token_sent_at = now()
FROM companies c
WHERE n.company_id = $1 AND n.email = $2 AND n.confirmed_at IS NULL AND c.id = n.company_id
RETURNING c.name`

// IssueConfirmToken gives a company's unconfirmed address a new confirmation link (its
// hash), and returns the company's name; errs.NotFound when the address needs none.
func (s *Store) IssueConfirmToken(ctx context.Context, companyID uuid.UUID, email string, hash []byte) (string, error) {
	var name string
	return name, translate(s.db.GetContext(ctx, &name, issueConfirmToken, companyID, email, hash))
}

// confirmNotifyEmail confirms the address whose link this is, while the link is fresh. The
// link's hash is the only key the person who follows it has, so it finds the company: the
// hash is unique and unguessable, as a password link's is.
const confirmNotifyEmail = `
UPDATE notify_emails n SET confirmed_at = now(), token_hash = NULL
FROM companies c
WHERE n.token_hash = $1 AND n.confirmed_at IS NULL AND n.token_sent_at > now() - $2 * interval '1 millisecond'
    AND c.id = n.company_id
RETURNING n.email, c.name`

// ConfirmNotifyEmail confirms the address whose link token hashes to hash and returns the
// address and its company's name; errs.NotFound when no fresh link has that hash.
func (s *Store) ConfirmNotifyEmail(ctx context.Context, hash []byte) (email, company string, err error) {
	var r struct {
		Email string `db:"email"`
		Name  string `db:"name"`
	}
	err = s.db.GetContext(ctx, &r, confirmNotifyEmail, hash, event.ConfirmLinkTTL.Milliseconds())
	return r.Email, r.Name, translate(err)
}

// confirmLinkEmail is the address of a fresh, unused link, for the page that asks to confirm.
const confirmLinkEmail = `
SELECT n.email, c.name FROM notify_emails n JOIN companies c ON c.id = n.company_id
WHERE n.token_hash = $1 AND n.confirmed_at IS NULL AND n.token_sent_at > now() - $2 * interval '1 millisecond'`

// ConfirmLink reads the address and company name of a fresh, unused confirmation link;
// errs.NotFound when there is none.
func (s *Store) ConfirmLink(ctx context.Context, hash []byte) (email, company string, err error) {
	var r struct {
		Email string `db:"email"`
		Name  string `db:"name"`
	}
	err = s.db.GetContext(ctx, &r, confirmLinkEmail, hash, event.ConfirmLinkTTL.Milliseconds())
	return r.Email, r.Name, translate(err)
}

// countLeadMail counts one new-lead e-mail of company $1 on day $2 against the cap $3; past it,
// it counts the lead among those address $4 was not mailed about that day, for the digest.
// It returns whether the e-mail may go.
const countLeadMail = `
WITH counted AS (
    INSERT INTO lead_mail_days AS d (company_id, day, sent) VALUES ($1, $2, 1)
    ON CONFLICT (company_id, day) DO UPDATE SET sent = d.sent + 1 WHERE d.sent < $3
    RETURNING sent
), skipped AS (
    INSERT INTO lead_mail_skipped AS s (company_id, day, email, leads)
    SELECT $1, $2, $4, 1 WHERE NOT EXISTS (SELECT FROM counted)
    ON CONFLICT (company_id, day, email) DO UPDATE SET leads = s.leads + 1
)
SELECT EXISTS (SELECT FROM counted)`

// CountLeadMail counts a new-lead e-mail to address against the company's cap for day (UTC):
// false when the cap is reached, and then the lead is counted for that address's digest.
func (s *Store) CountLeadMail(ctx context.Context, companyID uuid.UUID, day time.Time, limit int, address string) (bool, error) {
	var ok bool
	return ok, translate(s.db.GetContext(ctx, &ok, countLeadMail, companyID, day.UTC().Format(time.DateOnly), limit, address))
}

// takeDigest claims one digest due: a day before $1 on which an address was not mailed
// about some leads. It reads across companies, as the purge does: it is the daily job's, and
// each row carries its company. Claimed rows are marked sent before the message goes, so two
// runs never send one twice; ReleaseDigest undoes a claim whose message failed.
const takeDigest = `
UPDATE lead_mail_skipped s SET digest_at = now()
FROM companies c
WHERE (s.company_id, s.day, s.email) = (
        SELECT company_id, day, email FROM lead_mail_skipped
        WHERE day < $1 AND digest_at IS NULL
        ORDER BY day LIMIT 1 FOR UPDATE SKIP LOCKED)
    AND c.id = s.company_id
RETURNING s.company_id, s.day, s.email, s.leads, c.name AS company`

// TakeDigest claims a digest due for a day before today; ok false when none is.
func (s *Store) TakeDigest(ctx context.Context, today time.Time) (d event.Skipped, ok bool, err error) {
	err = s.db.GetContext(ctx, &d, takeDigest, today.UTC().Format(time.DateOnly))
	if errors.Is(err, sql.ErrNoRows) {
		return d, false, nil
	}
	return d, err == nil, translate(err)
}

const releaseDigest = `
UPDATE lead_mail_skipped SET digest_at = NULL WHERE company_id = $1 AND day = $2 AND email = $3`

// ReleaseDigest gives back a digest claimed by TakeDigest whose message did not go.
func (s *Store) ReleaseDigest(ctx context.Context, companyID uuid.UUID, day time.Time, email string) error {
	_, err := s.db.ExecContext(ctx, releaseDigest, companyID, day.UTC().Format(time.DateOnly), email)
	return translate(err)
}
