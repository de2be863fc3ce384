package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/lead"
)

// The read calls write the contract's Lead object (api.StoredLead) by hand: a page of fifty
// leads through encoding/json's reflection cost more of the server's time than reading them
// from PostgreSQL. The bytes are exactly what encoding/json writes of the generated types (its
// HTML-safe escaping, map keys sorted, times in RFC 3339 with nanoseconds, a final newline),
// which TestLeadJSONIsEncodingJSONs and FuzzLeadJSON hold it to.

// leadListJSON answers a page of leads (listLeads 200).
type leadListJSON struct{ page *lead.Page }

func (r leadListJSON) VisitListLeadsResponse(w http.ResponseWriter) error {
	b := make([]byte, 0, 64+512*len(r.page.Leads))
	return writeJSON(w, appendLeadList(b, r.page))
}

// leadJSON answers one lead (getLead and updateLead 200).
type leadJSON struct{ lead *lead.Stored }

func (r leadJSON) VisitGetLeadResponse(w http.ResponseWriter) error {
	return writeJSON(w, append(appendLead(make([]byte, 0, 512), r.lead), '\n'))
}

func (r leadJSON) VisitUpdateLeadResponse(w http.ResponseWriter) error {
	return r.VisitGetLeadResponse(w)
}

func writeJSON(w http.ResponseWriter, body []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}

// appendLeadList appends api.LeadList's JSON of a page, and the newline json.Encoder ends with.
func appendLeadList(b []byte, p *lead.Page) []byte {
	b = append(b, `{"data":[`...)
	for i := range p.Leads {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendLead(b, &p.Leads[i])
	}
	b = append(b, `],"next_cursor":`...)
	if p.Next != nil {
		b = appendString(b, p.Next.String())
	} else {
		b = append(b, "null"...)
	}
	return append(b, "}\n"...)
}

// appendLead appends api.StoredLead's JSON of l: its fields in the generated struct's order,
// an empty text as null.
func appendLead(b []byte, l *lead.Stored) []byte {
	b = append(b, `{"consent":`...)
	b = appendConsent(b, l.Consent)
	b = append(b, `,"created_at":`...)
	b = appendTime(b, l.CreatedAt)
	b = append(b, `,"details":`...)
	if l.Note != "" {
		b = append(b, `{"note":`...)
		b = appendString(b, l.Note)
		if len(l.Unanswered) > 0 {
			b = append(b, `,"unanswered_questions":[`...)
			for i, q := range l.Unanswered {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, q)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"email":`...)
	b = appendOrNull(b, l.Email)
	b = append(b, `,"first_name":`...)
	b = appendOrNull(b, l.FirstName)
	b = append(b, `,"last_name":`...)
	b = appendOrNull(b, l.LastName)
	b = append(b, `,"lead_id":"`...)
	b = append(b, l.ID.String()...)
	b = append(b, `","over_limit":`...)
	b = strconv.AppendBool(b, l.OverLimit)
	b = append(b, `,"phone":`...)
	b = appendOrNull(b, l.Phone)
	b = append(b, `,"phone_e164":`...)
	b = appendOrNull(b, l.PhoneE164)
	b = append(b, `,"referral_data":`...)
	b = appendStringMap(b, l.ReferralData)
	b = append(b, `,"service":`...)
	b = appendOrNull(b, l.Service)
	b = append(b, `,"session_id":`...)
	b = appendOrNull(b, l.SessionID)
	b = append(b, `,"source":`...)
	b = appendString(b, string(l.Source))
	b = append(b, `,"status":`...)
	b = appendString(b, string(l.Status))
	b = append(b, `,"updated_at":`...)
	b = appendTime(b, l.UpdatedAt)
	return append(b, '}')
}

// appendConsent appends api.Consent's JSON, or null.
func appendConsent(b []byte, c *lead.Consent) []byte {
	if c == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"given_at":`...)
	b = appendTime(b, c.GivenAt)
	b = append(b, `,"marketing":`...)
	b = strconv.AppendBool(b, c.Marketing)
	b = append(b, `,"privacy_url":`...)
	b = appendStringPtr(b, c.PrivacyURL)
	b = append(b, `,"source":`...)
	b = appendString(b, string(c.Source))
	b = append(b, `,"text":`...)
	b = appendStringPtr(b, c.Text)
	return append(b, '}')
}

// appendTime appends t in UTC as time.Time's MarshalJSON does (RFC 3339 with nanoseconds, no
// trailing zeros), for the years 0–9999 a lead's times lie in.
func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

func appendOrNull(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return appendString(b, s)
}

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

// appendStringMap appends a map with its keys in order, as encoding/json does; nil is null.
func appendStringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, k), ':')
		b = appendString(b, m[k])
	}
	return append(b, '}')
}

// appendString appends s as a JSON string. Text that encoding/json copies as it is (printable
// ASCII other than " \ < > &, and valid UTF-8 other than U+2028 and U+2029) is copied here;
// anything else, rare in a lead, is left to encoding/json itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return appendQuoted(b, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
			return appendQuoted(b, s)
		}
		i += size
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendQuoted appends encoding/json's own encoding of s.
func appendQuoted(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}

// The generated response types these stand in for.
var (
	_ api.ListLeadsResponseObject  = leadListJSON{}
	_ api.GetLeadResponseObject    = leadJSON{}
	_ api.UpdateLeadResponseObject = leadJSON{}
)
