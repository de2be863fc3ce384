package lead_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	apispec "github.com/leadchat/leadchat/api"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
)

// The statuses and sources the code knows are the contract's enums, and the characters it
// takes in a chat's session_id and message_id are the contract's patterns.
func TestNamesMatchTheContract(t *testing.T) {
	t.Parallel()
	doc, err := openapi3.NewLoader().LoadFromData(apispec.YAML())
	if err != nil {
		t.Fatal(err)
	}
	schema := func(name string) *openapi3.Schema {
		t.Helper()
		ref := doc.Components.Schemas[name]
		if ref == nil {
			t.Fatalf("the contract has no schema %s", name)
		}
		return ref.Value
	}
	enum := func(name string) []string {
		var out []string
		for _, v := range schema(name).Enum {
			out = append(out, fmt.Sprint(v))
		}
		slices.Sort(out)
		return out
	}
	sorted := func(vals []string) []string { slices.Sort(vals); return vals }

	var statuses, lifecycle, sources []string
	for _, s := range lead.Statuses() {
		statuses = append(statuses, string(s))
		if s.Lifecycle() {
			lifecycle = append(lifecycle, string(s))
		}
		if s.Name() == string(s) {
			t.Errorf("status %s has no Hungarian name", s)
		}
	}
	for _, s := range lead.Sources() {
		sources = append(sources, string(s))
		if s.Name() == string(s) && s != lead.SourceAPI {
			t.Errorf("source %s has no Hungarian name", s)
		}
	}
	for _, tc := range []struct {
		schema string
		code   []string
	}{
		{"LeadStatus", statuses},
		{"LeadLifecycleStatus", lifecycle},
		{"LeadSource", sources},
	} {
		if got, want := sorted(tc.code), enum(tc.schema); !slices.Equal(got, want) {
			t.Errorf("%s: the code knows %v, the contract %v", tc.schema, got, want)
		}
	}

	idPattern := "^[" + limits.IDChars + "]+$"
	if got := schema("SessionID").Pattern; got != idPattern {
		t.Errorf("SessionID pattern %q, the code takes %q", got, idPattern)
	}
	if p := schema("ChatRequest").Properties["message_id"]; p == nil || p.Value.Pattern != idPattern {
		t.Errorf("ChatRequest.message_id pattern differs from %q", idPattern)
	}
}
