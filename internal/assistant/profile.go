package assistant

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/leadchat/leadchat/internal/limits"
)

// Profile is what a company tells the assistant about itself (set with
// `leadchat assistant set --profile FILE`, YAML or JSON); the assistant states nothing else.
type Profile struct {
	CompanyName  string    `json:"company_name" yaml:"company_name"`
	Description  string    `json:"description" yaml:"description"`
	Services     []Service `json:"services" yaml:"services"`
	FAQ          []QA      `json:"faq" yaml:"faq"`
	OpeningHours string    `json:"opening_hours" yaml:"opening_hours"`
	Phone        string    `json:"phone" yaml:"phone"`     // the company's own contact phone, optional
	Email        string    `json:"email" yaml:"email"`     // the company's own contact email, optional
	Address      string    `json:"address" yaml:"address"` // optional
	// DescriptionEN and OpeningHoursEN are the English versions an English reply quotes; a
	// reply quotes the Hungarian text where one is empty.
	DescriptionEN  string `json:"description_en,omitempty" yaml:"description_en,omitempty"`
	OpeningHoursEN string `json:"opening_hours_en,omitempty" yaml:"opening_hours_en,omitempty"`
}

// Service is one thing the company sells; Price is free text such as "1 900 000 Ft-tól" and
// may be empty.
type Service struct {
	Name        string `json:"name" yaml:"name"`
	Description string `json:"description" yaml:"description"`
	Price       string `json:"price" yaml:"price"`
	// NameEN and DescriptionEN are the optional English versions.
	NameEN        string `json:"name_en,omitempty" yaml:"name_en,omitempty"`
	DescriptionEN string `json:"description_en,omitempty" yaml:"description_en,omitempty"`
}

// QA is one frequently asked question with the company's answer.
type QA struct {
	Question string `json:"question" yaml:"question"`
	Answer   string `json:"answer" yaml:"answer"`
	// QuestionEN and AnswerEN are the optional English versions.
	QuestionEN string `json:"question_en,omitempty" yaml:"question_en,omitempty"`
	AnswerEN   string `json:"answer_en,omitempty" yaml:"answer_en,omitempty"`
}

// ErrInvalidProfile is wrapped by every error ParseProfile returns.
var ErrInvalidProfile = errors.New("invalid assistant profile")

// Limits that keep a profile, and so every prompt built from it, small.
const (
	maxNameLen        = limits.ProfileNameLen
	maxDescriptionLen = limits.ProfileDescriptionLen
	maxFieldLen       = limits.ProfileFieldLen
	maxServices       = limits.ProfileServices
	maxFAQ            = limits.ProfileFAQ
)

// ParseProfile reads a profile from JSON or, when the data is not JSON, YAML; unknown fields
// are refused so that a misspelt key is not silently lost. The result is trimmed and checked.
func ParseProfile(data []byte) (Profile, error) {
	var p Profile
	if json.Valid(data) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return Profile{}, fmt.Errorf("%w: JSON: %w", ErrInvalidProfile, err)
		}
	} else {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return Profile{}, fmt.Errorf("%w: empty", ErrInvalidProfile)
		} else if err != nil {
			return Profile{}, fmt.Errorf("%w: YAML: %w", ErrInvalidProfile, err)
		}
		var extra any
		if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
			return Profile{}, fmt.Errorf("%w: YAML: more than one document", ErrInvalidProfile)
		}
	}
	p = p.trimmed()
	if err := p.check(); err != nil {
		return Profile{}, fmt.Errorf("%w: %w", ErrInvalidProfile, err)
	}
	return p, nil
}

func (p Profile) trimmed() Profile {
	t := strings.TrimSpace
	out := Profile{CompanyName: t(p.CompanyName), Description: t(p.Description),
		OpeningHours: t(p.OpeningHours), Phone: t(p.Phone), Email: t(p.Email), Address: t(p.Address),
		DescriptionEN: t(p.DescriptionEN), OpeningHoursEN: t(p.OpeningHoursEN)}
	for _, s := range p.Services {
		out.Services = append(out.Services, Service{Name: t(s.Name), Description: t(s.Description), Price: t(s.Price),
			NameEN: t(s.NameEN), DescriptionEN: t(s.DescriptionEN)})
	}
	for _, q := range p.FAQ {
		out.FAQ = append(out.FAQ, QA{Question: t(q.Question), Answer: t(q.Answer), QuestionEN: t(q.QuestionEN), AnswerEN: t(q.AnswerEN)})
	}
	return out
}

// field is one text of a profile with its limit, named as the profile file names it.
type field struct {
	name, value string
	max         int
	required    bool
}

func (p Profile) check() error {
	if len(p.Services) > maxServices {
		return fmt.Errorf("more than %d services", maxServices)
	}
	if len(p.FAQ) > maxFAQ {
		return fmt.Errorf("more than %d faq pairs", maxFAQ)
	}
	fields := []field{
		{"company_name", p.CompanyName, maxNameLen, true},
		{"description", p.Description, maxDescriptionLen, false},
		{"opening_hours", p.OpeningHours, maxFieldLen, false},
		{"phone", p.Phone, limits.PhoneLen, false},
		{"email", p.Email, limits.EmailLen, false},
		{"address", p.Address, maxFieldLen, false},
		{"description_en", p.DescriptionEN, maxDescriptionLen, false},
		{"opening_hours_en", p.OpeningHoursEN, maxFieldLen, false},
	}
	for i, s := range p.Services {
		at := fmt.Sprintf("services[%d].", i)
		fields = append(fields, field{at + "name", s.Name, maxFieldLen, true},
			field{at + "description", s.Description, maxFieldLen, false},
			field{at + "price", s.Price, maxFieldLen, false},
			field{at + "name_en", s.NameEN, maxFieldLen, false},
			field{at + "description_en", s.DescriptionEN, maxFieldLen, false})
	}
	for i, q := range p.FAQ {
		at := fmt.Sprintf("faq[%d].", i)
		fields = append(fields, field{at + "question", q.Question, maxFieldLen, true},
			field{at + "answer", q.Answer, maxFieldLen, true},
			field{at + "question_en", q.QuestionEN, maxFieldLen, false},
			field{at + "answer_en", q.AnswerEN, maxFieldLen, false})
	}
	for _, f := range fields {
		switch {
		case f.required && f.value == "":
			return fmt.Errorf("%s is required", f.name)
		case !utf8.ValidString(f.value):
			return fmt.Errorf("%s is not valid UTF-8", f.name)
		case strings.ContainsRune(f.value, 0):
			return fmt.Errorf("%s holds a NUL character", f.name)
		case utf8.RuneCountInString(f.value) > f.max:
			return fmt.Errorf("%s is longer than %d characters", f.name, f.max)
		}
	}
	if p.Email != "" && (strings.Count(p.Email, "@") != 1 || strings.ContainsAny(p.Email, " \t\r\n")) {
		return errors.New("email is not an email address")
	}
	return nil
}

// WithoutPrices returns the profile with every price removed: service prices emptied and every
// sentence that states an amount of money dropped. It is what an answer may draw on while
// gate_quote holds prices back, so that a price cannot leak even by quoting the profile.
func (p Profile) WithoutPrices() Profile {
	out := p
	out.Description = stripPrices(p.Description)
	out.OpeningHours = stripPrices(p.OpeningHours)
	out.DescriptionEN = stripPrices(p.DescriptionEN)
	out.OpeningHoursEN = stripPrices(p.OpeningHoursEN)
	out.Services = make([]Service, len(p.Services))
	for i, s := range p.Services {
		out.Services[i] = Service{Name: stripPrices(s.Name), Description: stripPrices(s.Description),
			NameEN: stripPrices(s.NameEN), DescriptionEN: stripPrices(s.DescriptionEN)}
	}
	out.FAQ = make([]QA, 0, len(p.FAQ))
	for _, q := range p.FAQ {
		if a := stripPrices(q.Answer); a != "" {
			out.FAQ = append(out.FAQ, QA{Question: q.Question, Answer: a, QuestionEN: q.QuestionEN, AnswerEN: stripPrices(q.AnswerEN)})
		}
	}
	return out
}
