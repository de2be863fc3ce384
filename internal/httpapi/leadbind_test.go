package httpapi

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/oapi-codegen/runtime"

	"github.com/leadchat/leadchat/gen/api"
)

// TestBindLeadInputIsTheRuntimes: every lead body bindLeadInput binds, oapi-codegen's runtime
// binds without an error into the same request, over bodies generated from the contract's
// schema (each property valid, past a bound, of another type, null, duplicated, misnamed;
// unknown properties) and broken by a byte, decoded as fastBody decodes them. The bodies a
// client sends most (all fields set as the contract says) are bound by hand, not sent back.
func TestBindLeadInputIsTheRuntimes(t *testing.T) {
	t.Parallel()
	doc, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(doc)
	schema := v.routes[routeKey{http.MethodPost, pathLeads}].Operation.RequestBody.Value.Content.Get("application/json").Schema.Value
	bodies := [][]byte{}
	for _, s := range []string{`{}`, `{"first_name":null,"email":"a@b.hu"}`, `{"first_name":"A","email":null}`,
		`{"first_name":"A","email":"a@b.hu","last_name":null,"phone":null,"service":null,"details":null,"source":null,"api_key":null,"referral_data":null,"consent":null}`,
		`{"first_name":"A","email":"a@b.hu","referral_data":{}}`, `{"first_name":"A","email":"a@b.hu","referral_data":{"utm_source":null}}`,
		`{"first_name":"A","email":"a@b.hu","referral_data":{"utm_source":"x","other":"y"}}`,
		`{"first_name":"A","email":"a@b.hu","referral_data":{"utm_source":1}}`, `{"first_name":"A","email":"a@b.hu","referral_data":[]}`,
		`{"first_name":"A","email":"a@b.hu","consent":{}}`, `{"first_name":"A","email":"a@b.hu","consent":{"marketing":null}}`,
		`{"first_name":"A","email":"a@b.hu","consent":{"marketing":true,"text":"T","privacy_url":"https://a.hu","x":1}}`,
		`{"first_name":"A","email":"a@b.hu","consent":{"marketing":"true"}}`, `{"first_name":"A","email":"a@b.hu","consent":{"Text":"T"}}`,
		`{"first_name":"A","email":"a@b.hu","source":"form","Source":"api","FIRST_NAME":"B"}`, `{"first_name":1,"email":"a@b.hu"}`,
		`{"first_name":"A","email":"a@b.hu","phone":true}`, `{"first_name":"A","email":"a@b.hu","unknown":[1,{"a":null}]}`,
		`{"first_name":"A","email":"a@b.hu","details":{"note":"x"}}`, `{"first_name":"A","email":"a@b.hu","first_name":"B"}`} {
		bodies = append(bodies, []byte(s))
	}
	rng := rand.New(rand.NewPCG(31, 4))
	for range 6000 {
		body := genBody(rng, schema)
		bodies = append(bodies, body)
		mutated := slices.Clone(body)
		i := rng.IntN(len(mutated))
		switch rng.IntN(3) {
		case 0:
			mutated[i] = `{}[]",:\ tfn0é`[rng.IntN(15)]
		case 1:
			mutated = slices.Insert(mutated, i, `{}[]",:\ tfn0`[rng.IntN(13)])
		default:
			mutated = slices.Delete(mutated, i, i+1)
		}
		bodies = append(bodies, mutated)
	}
	objects, bound := 0, 0
	for _, body := range bodies {
		var value any
		if plain, ok := plainObject(body); ok {
			value = plain
		} else if json.Unmarshal(body, &value) != nil {
			continue
		}
		m, ok := value.(map[string]any)
		if !ok {
			continue
		}
		objects++
		var got api.LeadInput
		if !bindLeadInput(m, &got) {
			if diff := cmp.Diff(api.LeadInput{}, got); diff != "" {
				t.Errorf("%s: bindLeadInput refused it but changed its destination:\n%s", body, diff)
			}
			continue
		}
		bound++
		var want api.LeadInput
		if err := runtime.BindJSONValue(m, &want); err != nil {
			t.Errorf("%s: bindLeadInput binds it, the runtime refuses it: %v", body, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-runtime +bindLeadInput):\n%s", body, diff)
		}
	}
	t.Logf("%d bodies: %d objects, %d bound by hand", len(bodies), objects, bound)

	// The bodies of the contract's shape (every property of its type, some null) take the hand path.
	for _, body := range []string{
		`{"first_name":"Kovács Péter","email":"peter.kovacs@example.hu","phone":"+36 30 123 4567","service":"Napelem telepítés"}`,
		`{"first_name":"A","last_name":"B","email":"a@b.hu","phone":null,"service":"S","details":"D","source":"form","api_key":"k",` +
			`"referral_data":{"utm_source":"x"},"consent":{"marketing":true,"text":"T","privacy_url":"https://a.hu"}}`,
	} {
		m, ok := plainObject([]byte(body))
		var in api.LeadInput
		if !ok || !bindLeadInput(m, &in) {
			t.Errorf("%s: not bound by hand", body)
		}
	}
}
