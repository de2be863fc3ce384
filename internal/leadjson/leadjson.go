// Package leadjson writes the contract's Lead object: the one shape a lead has on the wire,
// whoever asks (the lead read API, a webhook's payload, `leads list --json`, a person's export).
//
// It is written by hand: a page of fifty leads through encoding/json's reflection cost more of
// the server's time than reading them from PostgreSQL. The bytes are exactly what encoding/json
// writes of the generated types (its HTML-safe escaping, map keys sorted, times in RFC 3339 with
// nanoseconds), which the HTTP package's tests hold it to against the generated types.
package leadjson

import (
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
)

// Marshal is Append to a new slice.
func Marshal(l *lead.Stored) []byte { return Append(make([]byte, 0, 512), l) }

// Append appends the contract's Lead object of l to b: its fields in the order encoding/json
// writes the generated type's, an empty text as null.
func Append(b []byte, l *lead.Stored) []byte {
	b = append(b, `{"assignee_id":`...)
	if l.AssigneeID != uuid.Nil {
		b = append(b, '"')
		b = AppendUUID(b, l.AssigneeID)
		b = append(b, '"')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"consent":`...)
	b = appendConsent(b, l.Consent)
	b = append(b, `,"created_at":`...)
	b = AppendTime(b, l.CreatedAt)
	b = append(b, `,"details":`...)
	if l.Note != "" {
		b = append(b, `{"note":`...)
		b = AppendString(b, l.Note)
		if len(l.Unanswered) > 0 {
			b = append(b, `,"unanswered_questions":[`...)
			for i, q := range l.Unanswered {
				if i > 0 {
					b = append(b, ',')
				}
				b = AppendString(b, q)
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
	b = AppendUUID(b, l.ID)
	b = append(b, `","over_limit":`...)
	b = strconv.AppendBool(b, l.OverLimit)
	b = append(b, `,"phone":`...)
	b = appendOrNull(b, l.Phone)
	b = append(b, `,"phone_e164":`...)
	b = appendOrNull(b, l.PhoneE164)
	b = append(b, `,"referral_data":`...)
	b = AppendStringMap(b, l.ReferralData)
	b = append(b, `,"service":`...)
	b = appendOrNull(b, l.Service)
	b = append(b, `,"session_id":`...)
	b = appendOrNull(b, l.SessionID)
	b = append(b, `,"source":`...)
	b = AppendString(b, string(l.Source))
	b = append(b, `,"status":`...)
	b = AppendString(b, string(l.Status))
	b = append(b, `,"updated_at":`...)
	b = AppendTime(b, l.UpdatedAt)
	return append(b, '}')
}

// appendConsent appends api.Consent's JSON, or null.
func appendConsent(b []byte, c *lead.Consent) []byte {
	if c == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"given_at":`...)
	b = AppendTime(b, c.GivenAt)
	b = append(b, `,"marketing":`...)
	b = strconv.AppendBool(b, c.Marketing)
	b = append(b, `,"privacy_url":`...)
	b = appendStringPtr(b, c.PrivacyURL)
	b = append(b, `,"source":`...)
	b = AppendString(b, string(c.Source))
	b = append(b, `,"text":`...)
	b = appendStringPtr(b, c.Text)
	return append(b, '}')
}

// AppendUUID appends id's canonical text, as uuid.UUID.String writes it, without the string.
func AppendUUID(b []byte, id uuid.UUID) []byte {
	b = hex.AppendEncode(b, id[0:4])
	b = append(b, '-')
	b = hex.AppendEncode(b, id[4:6])
	b = append(b, '-')
	b = hex.AppendEncode(b, id[6:8])
	b = append(b, '-')
	b = hex.AppendEncode(b, id[8:10])
	b = append(b, '-')
	return hex.AppendEncode(b, id[10:])
}

// AppendTime appends t in UTC as time.Time's MarshalJSON does (RFC 3339 with nanoseconds, no
// trailing zeros), for the years 0–9999 a lead's times lie in.
func AppendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

func appendOrNull(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return AppendString(b, s)
}

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return AppendString(b, *s)
}

// AppendStringMap appends a map of texts as encoding/json writes it: its keys in order; nil is
// null.
func AppendStringMap(b []byte, m map[string]string) []byte {
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
		b = append(AppendString(b, k), ':')
		b = AppendString(b, m[k])
	}
	return append(b, '}')
}

// AppendString appends s as a JSON string. Text that encoding/json copies as it is (printable
// ASCII other than " \ < > &, and valid UTF-8 other than U+2028 and U+2029) is copied here;
// anything else, rare in a lead, is left to encoding/json itself.
func AppendString(b []byte, s string) []byte {
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
