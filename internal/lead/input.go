package lead

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

// referralKeys are the referral_data keys that are stored; others are dropped.
var referralKeys = map[string]bool{
	"utm_source": true, "utm_medium": true, "utm_campaign": true, "utm_term": true,
	"utm_content": true, "utm_id": true, "gclid": true, "fbclid": true, "msclkid": true,
	"landing_page": true, "referrer_url": true,
}

// Input is a lead as a client sends it; nil pointers are absent fields.
type Input struct {
	FirstName    string
	LastName     *string
	Email        string
	Phone        *string
	Service      *string
	Details      *string
	Source       *string
	ReferralData map[string]string
	Consent      *ConsentInput
}

// Check trims, validates and normalises the input into a lead with a fresh id.
func (in Input) Check() (Lead, error) {
	l := Lead{ID: NewID(), Source: SourceAPI}
	var err error
	if l.FirstName, err = required("first_name", in.FirstName, limits.NameLen); err != nil {
		return Lead{}, err
	}
	if l.LastName, err = optional("last_name", in.LastName, limits.NameLen); err != nil {
		return Lead{}, err
	}
	if strings.TrimSpace(in.Email) == "" {
		return Lead{}, errs.Field(errs.CodeMissingField, "email")
	}
	if l.Email, err = CheckEmail(in.Email); err != nil {
		return Lead{}, err
	}
	if in.Phone != nil {
		if l.Phone, l.PhoneE164, err = CheckPhone(*in.Phone); err != nil {
			return Lead{}, err
		}
	}
	if l.Service, err = optional("service", in.Service, limits.ServiceLen); err != nil {
		return Lead{}, err
	}
	if in.Details != nil {
		if l.Note, err = CheckText("details", *in.Details, limits.DetailsLen); err != nil {
			return Lead{}, err
		}
	}
	if in.Source != nil {
		if l.Source, err = ParseSource(strings.TrimSpace(*in.Source)); err != nil {
			return Lead{}, err
		}
	}
	if l.ReferralData, err = FilterReferral(in.ReferralData); err != nil {
		return Lead{}, err
	}
	if in.Consent != nil {
		if l.Consent, err = in.Consent.Check(l.Source, time.Now()); err != nil {
			return Lead{}, err
		}
	}
	return l, nil
}

// ParseSource checks a source name.
func ParseSource(s string) (Source, error) {
	if src := Source(s); slices.Contains(Sources(), src) {
		return src, nil
	}
	return "", errs.Field(errs.CodeInvalidSource, "source")
}

// FilterReferral keeps the allowed referral keys, checking their values; nil when none remain.
func FilterReferral(in map[string]string) (map[string]string, error) {
	var out map[string]string
	for k, v := range in {
		if !referralKeys[k] {
			continue
		}
		if utf8.RuneCountInString(v) > limits.ReferralValueLen || strings.ContainsRune(v, 0) {
			return nil, errs.Field(errs.CodeInvalidReferralData, "referral_data."+k)
		}
		if out == nil {
			out = make(map[string]string, len(in))
		}
		out[k] = v
	}
	return out, nil
}

// required checks a one-line field that must not be blank.
func required(field, s string, max int) (string, error) {
	s, err := CheckLine(field, s, max)
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", errs.Field(errs.CodeMissingField, field)
	}
	return s, nil
}

// optional checks a one-line field that may be absent.
func optional(field string, s *string, max int) (string, error) {
	if s == nil {
		return "", nil
	}
	return CheckLine(field, *s, max)
}
