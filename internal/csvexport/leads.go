package csvexport

import (
	"encoding/json"
	"time"

	"github.com/leadchat/leadchat/internal/lead"
)

// LeadHeader is the header row of every CSV of leads (the CLI's list, the dashboard's export).
var LeadHeader = []string{"id", "first_name", "last_name", "email", "phone", "phone_e164", "service",
	"details", "source", "referral_data", "status", "created_at"}

// LeadRecord is l as a row under LeadHeader; the referral data is its JSON object, "" when absent.
func LeadRecord(l lead.Stored) []string {
	ref := ""
	if l.ReferralData != nil {
		b, _ := json.Marshal(l.ReferralData)
		ref = string(b)
	}
	return []string{l.ID.String(), l.FirstName, l.LastName, l.Email, l.Phone, l.PhoneE164,
		l.Service, l.Note, string(l.Source), ref, string(l.Status), l.CreatedAt.UTC().Format(time.RFC3339)}
}
