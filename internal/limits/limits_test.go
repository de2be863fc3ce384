package limits_test

import (
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	apispec "github.com/leadchat/leadchat/api"
	"github.com/leadchat/leadchat/internal/limits"
)

// The contract states the same limits as minLength and maxLength, which kin-openapi enforces
// before the domain sees a request: each must be the table's number.
func TestContractMatchesTable(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(apispec.YAML())
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		where   string // a component schema, "Schema.property", "Schema.property[]" (its items), "Schema.*" (its additionalProperties) or "parameters.Name"
		keyword string // minLength, maxLength, minimum, maximum, default or maxItems
		want    int
	}{
		{"LeadInput.first_name", "maxLength", limits.NameLen},
		{"LeadInput.last_name", "maxLength", limits.NameLen},
		{"LeadInput.service", "maxLength", limits.ServiceLen},
		{"LeadInput.details", "maxLength", limits.DetailsLen},
		{"LeadInput.email", "maxLength", limits.EmailLen},
		{"LeadInput.phone", "maxLength", limits.PhoneLen},
		{"ReferralData.*", "maxLength", limits.ReferralValueLen},
		{"ConsentInput.text", "maxLength", limits.ConsentTextLen},
		{"ConsentInput.privacy_url", "maxLength", limits.PrivacyURLLen},
		{"Consent.text", "maxLength", limits.ConsentTextLen},
		{"ChatRequest.message", "maxLength", limits.MessageLen},
		{"ChatRequest.first_name", "maxLength", limits.NameLen},
		{"ChatRequest.email", "maxLength", limits.EmailLen},
		{"ChatRequest.phone", "maxLength", limits.PhoneLen},
		{"SessionID", "minLength", limits.SessionIDMinLen},
		{"SessionID", "maxLength", limits.SessionIDMaxLen},
		{"parameters.IdempotencyKey", "maxLength", limits.IdempotencyKeyMaxLen},
		{"parameters.ListLimit", "minimum", limits.ListMin},
		{"parameters.ListLimit", "maximum", limits.ListMax},
		{"parameters.ListLimit", "default", limits.ListDefault},
		{"LeadList.data", "maxItems", limits.ListMax},
		{"ChatTheme.header_title", "maxLength", limits.HeaderTitleLen},
		{"ChatTheme.border_radius_px", "minimum", limits.BorderRadiusMin},
		{"ChatTheme.border_radius_px", "maximum", limits.BorderRadiusMax},
		{"LeadDetails.unanswered_questions", "maxItems", limits.UnansweredQuestions},
		{"LeadDetails.unanswered_questions[]", "maxLength", limits.UnansweredQuestionLen},
	} {
		t.Run(tc.where+" "+tc.keyword, func(t *testing.T) {
			s := schemaAt(t, doc, tc.where)
			var got int
			switch tc.keyword {
			case "minLength":
				got = int(s.MinLength)
			case "maxLength":
				if s.MaxLength == nil {
					t.Fatalf("%s has no maxLength; the table says %d", tc.where, tc.want)
				}
				got = int(*s.MaxLength)
			case "minimum", "maximum":
				bound := s.Min
				if tc.keyword == "maximum" {
					bound = s.Max
				}
				if bound == nil {
					t.Fatalf("%s has no %s; the table says %d", tc.where, tc.keyword, tc.want)
				}
				got = int(*bound)
			case "default":
				n, ok := s.Default.(float64)
				if !ok {
					t.Fatalf("%s has no numeric default; the table says %d", tc.where, tc.want)
				}
				got = int(n)
			case "maxItems":
				if s.MaxItems == nil {
					t.Fatalf("%s has no maxItems; the table says %d", tc.where, tc.want)
				}
				got = int(*s.MaxItems)
			}
			if got != tc.want {
				t.Errorf("api/openapi.yaml %s %s is %d, the limits table %d", tc.where, tc.keyword, got, tc.want)
			}
		})
	}
}

func schemaAt(t *testing.T, doc *openapi3.T, where string) *openapi3.Schema {
	t.Helper()
	if name, ok := strings.CutPrefix(where, "parameters."); ok {
		p := doc.Components.Parameters[name]
		if p == nil || p.Value.Schema == nil {
			t.Fatalf("no parameter %s", name)
		}
		return p.Value.Schema.Value
	}
	name, prop, _ := strings.Cut(where, ".")
	ref := doc.Components.Schemas[name]
	if ref == nil {
		t.Fatalf("no schema %s", name)
	}
	switch s := ref.Value; prop {
	case "":
		return s
	case "*":
		if s.AdditionalProperties.Schema == nil {
			t.Fatalf("%s has no additionalProperties schema", name)
		}
		return s.AdditionalProperties.Schema.Value
	default:
		prop, items := strings.CutSuffix(prop, "[]")
		p := s.Properties[prop]
		if p == nil {
			t.Fatalf("%s has no property %s", name, prop)
		}
		if !items {
			return p.Value
		}
		if p.Value.Items == nil {
			t.Fatalf("%s.%s has no items", name, prop)
		}
		return p.Value.Items.Value
	}
}
