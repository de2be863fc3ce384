package httpapi

import (
	"strings"
	"testing"

	"github.com/leadchat/leadchat/gen/api"
)

// FuzzIdempotencyKey holds validIdempotencyKey to the Idempotency-Key schema of
// api/openapi.yaml, which the request validator applies: each accepts what the other does.
func FuzzIdempotencyKey(f *testing.F) {
	doc, err := api.GetSpec()
	if err != nil {
		f.Fatal(err)
	}
	param := doc.Components.Parameters["IdempotencyKey"]
	if param == nil || param.Value == nil || param.Value.Schema == nil {
		f.Fatal("the spec has no IdempotencyKey parameter schema")
	}
	schema := param.Value.Schema.Value
	for _, seed := range []string{"", "a", "8e0f7a52-3c2b-4f0e-9d1c-6b5a4e3d2c1b", "a b", " a", "a ", "a\tb",
		"\xff", "ключ", "~!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}", strings.Repeat("k", 255), strings.Repeat("k", 256), "a\x7f"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, k string) {
		got := validIdempotencyKey(k)
		want := schema.VisitJSON(k) == nil
		if got != want {
			t.Errorf("validIdempotencyKey(%q) = %v, the spec's schema says %v", k, got, want)
		}
	})
}

func TestValidIdempotencyKey(t *testing.T) {
	t.Parallel()
	for k, want := range map[string]bool{
		"8e0f7a52-3c2b-4f0e-9d1c-6b5a4e3d2c1b": true, "a": true, "a b": true, strings.Repeat("k", 255): true,
		"": false, " ": false, " a": false, "a ": false, strings.Repeat("k", 256): false,
		"a\tb": false, "\xff": false, "ключ": false, "a\x7f": false, "a\x00": false,
	} {
		if got := validIdempotencyKey(k); got != want {
			t.Errorf("validIdempotencyKey(%q) = %v, want %v", k, got, want)
		}
	}
}
