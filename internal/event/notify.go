package event

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"time"

	"github.com/google/uuid"
)

// NotifyAddress is an address of the new-lead e-mail. It gets lead e-mails once Confirmed: it
// followed the link sent to it, or it is an owner's own login address.
type NotifyAddress struct {
	Email     string `json:"email"`
	Confirmed bool   `json:"confirmed"`
}

// ConfirmJobKind is the River job (in DeliveryQueue) that sends an address the link that
// confirms it; SetNotifyEmails enqueues one for each address added unconfirmed.
const ConfirmJobKind = "notify_confirm"

// ConfirmJob is the args of a confirmation's job.
type ConfirmJob struct {
	CompanyID uuid.UUID `json:"company_id"`
	Email     string    `json:"email"`
}

// Kind is the job's kind, as River asks.
func (ConfirmJob) Kind() string { return ConfirmJobKind }

// ConfirmLinkTTL is how long a confirmation link works.
const ConfirmLinkTTL = 7 * 24 * time.Hour

// NewConfirmToken makes the secret of a confirmation link: 32 random bytes, base64url. Only
// its ConfirmHash is stored.
func NewConfirmToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// ConfirmHash is what is stored of a confirmation token.
func ConfirmHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// Skipped is an address's new-lead e-mails of one day (UTC) not sent past the company's daily
// cap, which that day's digest tells.
type Skipped struct {
	CompanyID uuid.UUID `db:"company_id"`
	Day       time.Time `db:"day"`
	Email     string    `db:"email"`
	Leads     int       `db:"leads"`
	Company   string    `db:"company"`
}
