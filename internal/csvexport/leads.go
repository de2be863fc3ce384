package csvexport

import (
	"io"
	"strconv"
	"time"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/leadjson"
)

// leadHeader names the columns of a lead export, in order; LeadWriter.Write fills them. Columns
// are added at the end, so a reader that takes them by position keeps working.
var leadHeader = []string{"id", "first_name", "last_name", "email", "phone", "phone_e164", "service",
	"details", "source", "referral_data", "status", "created_at",
	"consent_marketing", "consent_text", "consent_privacy_url", "consent_given_at", "consent_source", "name"}

// LeadWriter writes leads as CSV, one record each after a header, holding none of them: an
// export of any size takes the memory of one record. The CLI's `leads list --csv` and the
// dashboard's export both write through it, so their files are alike.
type LeadWriter struct {
	w      *Writer
	header bool
	record []string
	buf    []byte // the referral data's JSON, reused
}

// NewLeadWriter returns a LeadWriter that writes to w.
func NewLeadWriter(w io.Writer) *LeadWriter {
	return &LeadWriter{w: NewWriter(w), record: make([]string, len(leadHeader))}
}

// Write writes one lead, after the header when it is the first.
func (w *LeadWriter) Write(l lead.Stored) error {
	if err := w.writeHeader(); err != nil {
		return err
	}
	ref := ""
	if l.ReferralData != nil {
		// What encoding/json writes of the map, without its reflection: a third of the
		// leads have referral data.
		w.buf = leadjson.AppendStringMap(w.buf[:0], l.ReferralData)
		ref = string(w.buf)
	}
	r := w.record
	r[0], r[1], r[2], r[3], r[4], r[5], r[6] = l.ID.String(), l.FirstName, l.LastName, l.Email, l.Phone, l.PhoneE164, l.Service
	r[7], r[8], r[9], r[10], r[11] = l.Note, string(l.Source), ref, string(l.Status), l.CreatedAt.UTC().Format(time.RFC3339)
	r[12], r[13], r[14], r[15], r[16] = "", "", "", "", "" // no consent given
	if c := l.Consent; c != nil {
		r[12], r[15], r[16] = strconv.FormatBool(c.Marketing), c.GivenAt.UTC().Format(time.RFC3339), string(c.Source)
		if c.Text != nil {
			r[13] = *c.Text
		}
		if c.PrivacyURL != nil {
			r[14] = *c.PrivacyURL
		}
	}
	r[17] = l.DisplayName() // the name as the dashboard shows it, Hungarian names family name first
	return w.w.Write(r)
}

// Flush writes the header if no lead came, then what is buffered, and reports any error of a
// write so far.
func (w *LeadWriter) Flush() error {
	if err := w.writeHeader(); err != nil {
		return err
	}
	return w.w.Flush()
}

func (w *LeadWriter) writeHeader() error {
	if w.header {
		return nil
	}
	w.header = true
	return w.w.Write(leadHeader)
}
