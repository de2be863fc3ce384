package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/google/go-cmp/cmp"
	"github.com/oapi-codegen/runtime"

	"github.com/leadchat/leadchat/gen/api"
)

// TestBodyCheckAcceptsOnlyWhatKinAccepts: for every operation whose JSON body schema is compiled,
// every generated body the compiled check accepts, kin-openapi accepts too, and the strict
// handler binds the same request from either's value. The bodies are built from the schema:
// each property left out, valid, at and past its bounds, of another type, null, duplicated or
// with its name in other letters, plus unknown properties; so that many are valid and many are
// not.
func TestBodyCheckAcceptsOnlyWhatKinAccepts(t *testing.T) {
	t.Parallel()
	doc, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(doc)
	if v.bodies[routeKey{http.MethodPost, pathLeads}] == nil {
		t.Fatal("the lead create's body schema is not compiled")
	}
	rng := rand.New(rand.NewPCG(31, 1))
	for key, check := range v.bodies {
		route := v.routes[key]
		schema := route.Operation.RequestBody.Value.Content.Get("application/json").Schema.Value
		lead := key.path == pathLeads && key.method == http.MethodPost
		n := 1000
		if lead {
			n = 10000
		}
		tl := tally{key: key, n: n}
		for range n {
			body := genBody(rng, schema)
			plain, _ := plainObject(body)
			fast, ok := fastBody(check, body, plain)
			kinValue, kinErr := kinBody(route, &v.opts, body)
			if !tl.add(t, ok, kinErr, func() string { return string(body) }) {
				continue
			}
			var fromFast, fromKin map[string]any
			if err := runtime.BindJSONValue(fast, &fromFast); err != nil {
				t.Fatal(err)
			}
			if err := runtime.BindJSONValue(kinValue, &fromKin); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(fromKin, fromFast); diff != "" {
				t.Errorf("%s: bound values differ (-kin +fast):\n%s", body, diff)
			}
		}
		tl.log(t, "bodies")
		// For the lead create, the comparison means something only if both verdicts are common
		// and the compiled check answers for most of what kin-openapi accepts. (The chat's
		// ids have patterns, which the compiled check leaves to kin-openapi.)
		if lead && (tl.kinAccepted < n/20 || n-tl.kinAccepted < n/20) {
			t.Errorf("kin-openapi accepts %d of %d lead bodies: the generator needs work", tl.kinAccepted, n)
		}
		if lead && tl.accepted < tl.kinAccepted/2 {
			t.Errorf("the compiled check accepts %d lead bodies of the %d kin-openapi accepts", tl.accepted, tl.kinAccepted)
		}
	}
}

// tally counts, for one operation, what kin-openapi and the compiled checks accept of n
// generated inputs.
type tally struct {
	key                   routeKey
	n                     int
	accepted, kinAccepted int
}

// add counts one input's verdicts, and fails the test when the compiled checks accept what
// kin-openapi refuses (input describes it). It reports whether both accepted it.
func (tl *tally) add(t *testing.T, ok bool, kinErr error, input func() string) bool {
	t.Helper()
	if kinErr == nil {
		tl.kinAccepted++
	}
	if !ok {
		return false
	}
	tl.accepted++
	if kinErr != nil {
		t.Errorf("%s %s: the compiled check accepts %s, kin-openapi refuses it: %v", tl.key.method, tl.key.path, input(), kinErr)
		return false
	}
	return true
}

func (tl *tally) log(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s %s: %d %s, kin-openapi accepts %d, the compiled check %d", tl.key.method, tl.key.path, tl.n, what, tl.kinAccepted, tl.accepted)
}

// kinBody is kin-openapi's verdict on body for route, and the value it validated.
func kinBody(route *routers.Route, opts *openapi3filter.Options, body []byte) (any, error) {
	r := httptest.NewRequest(http.MethodPost, route.Path, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	in := &openapi3filter.RequestValidationInput{Request: r, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequestBody(context.Background(), in, route.Operation.RequestBody.Value); err != nil {
		return nil, err
	}
	vb, ok := r.Body.(interface{ ValidatedValue() any })
	if !ok {
		return nil, nil
	}
	return vb.ValidatedValue(), nil
}

// genBody is a JSON body for schema: mostly its shape, often broken.
func genBody(rng *rand.Rand, s *openapi3.Schema) []byte {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	member := func(name string, value []byte) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		b.Write(value)
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		required := slices.Contains(s.Required, name)
		switch p := rng.IntN(10); {
		case p < 2 && !required, p < 1:
			continue // left out
		case p == 2 && rng.IntN(3) == 0:
			member(strings.ToUpper(name[:1])+name[1:], genValue(rng, s.Properties[name].Value, 0))
		default:
			member(name, genValue(rng, s.Properties[name].Value, 0))
		}
		if rng.IntN(40) == 0 {
			member(name, genValue(rng, s.Properties[name].Value, 0)) // a duplicate: the last one counts
		}
	}
	if rng.IntN(5) == 0 {
		member("unknown_"+string(rune('a'+rng.IntN(3))), genValue(rng, nil, 0))
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// genValue is a JSON value for s (any value when s is nil): valid most of the time, else of
// another type, null, or past one of its bounds.
func genValue(rng *rand.Rand, s *openapi3.Schema, depth int) []byte {
	other := func() []byte {
		return []byte([]string{`null`, `1`, `2.5`, `true`, `[]`, `["x"]`, `{}`, `""`, `"x"`}[rng.IntN(9)])
	}
	if s == nil || s.Type == nil || rng.IntN(12) == 0 || depth > 3 {
		return other()
	}
	switch {
	case s.Type.Is(openapi3.TypeString):
		var str string
		switch {
		case len(s.Enum) > 0 && rng.IntN(6) != 0:
			str = s.Enum[rng.IntN(len(s.Enum))].(string)
		case len(s.Enum) > 0:
			str = []string{"FORM", "other", "", "form "}[rng.IntN(4)]
		default:
			str = genString(rng, s)
		}
		out, _ := json.Marshal(str)
		return out
	case s.Type.Is(openapi3.TypeBoolean):
		return []byte([]string{"true", "false"}[rng.IntN(2)])
	case s.Type.Is(openapi3.TypeObject):
		if len(s.Properties) > 0 {
			return genBody(rng, s)
		}
		var b strings.Builder
		b.WriteByte('{')
		n := rng.IntN(4)
		if s.MaxProps != nil && rng.IntN(10) == 0 {
			n = int(*s.MaxProps) + rng.IntN(2)
		}
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":`)
			var add *openapi3.Schema
			if s.AdditionalProperties.Schema != nil {
				add = s.AdditionalProperties.Schema.Value
			}
			b.Write(genValue(rng, add, depth+1))
		}
		b.WriteByte('}')
		return []byte(b.String())
	}
	return other()
}

// genString is a string for s: an email for the email format, else text of a length around
// its bounds, with characters of one, two, three and four bytes.
func genString(rng *rand.Rand, s *openapi3.Schema) string {
	if s.Format == "email" && rng.IntN(4) != 0 {
		return []string{"anna@example.hu", "a@b.c", "not an email", "x@", "Kovács.Péter@example.hu", " anna@example.hu"}[rng.IntN(6)]
	}
	if s.Pattern != "" && rng.IntN(2) == 0 {
		return []string{"https://example.hu/adatvedelem", "http://example.hu", "https://", "https://a b"}[rng.IntN(4)]
	}
	n := rng.IntN(20)
	switch rng.IntN(5) {
	case 0:
		n = int(s.MinLength) - 1 + rng.IntN(3)
	case 1:
		if s.MaxLength != nil {
			n = int(*s.MaxLength) - 1 + rng.IntN(3)
		}
	}
	chars := []string{"a", "é", "ő", "€", "😀", " ", "\n"}
	var b strings.Builder
	for range max(n, 0) {
		b.WriteString(chars[rng.IntN(len(chars))])
	}
	return b.String()
}

// TestParamCheckAcceptsOnlyWhatKinAccepts: for every operation whose parameters are compiled,
// every generated set of parameters the compiled checks accept, kin-openapi accepts too: each
// parameter left out, empty, repeated, or a string around its length bounds.
func TestParamCheckAcceptsOnlyWhatKinAccepts(t *testing.T) {
	doc, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(doc)
	for _, want := range []routeKey{{http.MethodPost, pathLeads}, {http.MethodGet, pathConfig}, {http.MethodGet, pathLeads}} {
		if _, ok := v.params[want]; !ok {
			t.Errorf("the parameters of %s %s are not compiled", want.method, want.path)
		}
	}
	opts := v.opts
	opts.ExcludeRequestBody = true
	rng := rand.New(rand.NewPCG(31, 2))
	for key, checks := range v.params {
		if len(checks) == 0 {
			continue
		}
		route := v.routes[key]
		n := 500
		tl := tally{key: key, n: n}
		for range n {
			r := httptest.NewRequest(key.method, key.path, nil)
			query := url.Values{}
			for _, p := range checks {
				var values []string
				// An operation with many parameters gets about two of them a request, so that
				// some requests are valid whole.
				if len(checks) > 2 && rng.IntN(len(checks)) >= 2 {
					continue
				}
				switch rng.IntN(6) {
				case 0: // left out
				case 1:
					values = []string{""}
				case 2:
					values = []string{"a", "b"}
				default:
					schema := route.Operation.Parameters.GetByInAndName(map[bool]string{true: "header", false: "query"}[p.header], p.name).Schema.Value
					if p.integer != nil {
						values = []string{genInteger(rng, schema)}
					} else {
						values = []string{genParamString(rng, schema)}
					}
				}
				for _, s := range values {
					if p.header {
						r.Header.Add(p.name, s)
					} else {
						query.Add(p.name, s)
					}
				}
			}
			r.URL.RawQuery = query.Encode()
			query = r.URL.Query()
			ok := paramsAccepted(checks, r, query)
			if inPlace := paramsAccepted(checks, r, nil); inPlace != ok {
				t.Errorf("%s %s %q: %v with the query read in place, %v parsed", key.method, key.path, r.URL.RawQuery, inPlace, ok)
			}
			in := &openapi3filter.RequestValidationInput{Request: r, QueryParams: query, Route: route, Options: &opts}
			kinErr := openapi3filter.ValidateRequest(context.Background(), in)
			tl.add(t, ok, kinErr, func() string { return fmt.Sprintf("%v %q", r.Header, r.URL.RawQuery) })
		}
		tl.log(t, "requests")
		// The hot paths' parameters must mostly take the compiled way, for the comparison to
		// mean something.
		if (key == routeKey{http.MethodPost, pathLeads} || key == routeKey{http.MethodGet, pathConfig} || key == routeKey{http.MethodGet, pathLeads}) && tl.accepted < n/10 {
			t.Errorf("%s %s: the compiled checks accept only %d of %d", key.method, key.path, tl.accepted, n)
		}
	}
}

// genParamString is genString, and for an enum or a time mostly one of its values or a near miss.
func genParamString(rng *rand.Rand, s *openapi3.Schema) string {
	switch {
	case len(s.Enum) > 0 && rng.IntN(4) != 0:
		v, _ := s.Enum[rng.IntN(len(s.Enum))].(string)
		return []string{v, v, strings.ToUpper(v), v + " "}[rng.IntN(4)]
	case s.Format == "date-time" && rng.IntN(4) != 0:
		return []string{"2025-03-01T00:00:00Z", "2025-03-01T00:00:00.123+01:00", "2025-03-01T00:00:00", "2025-03-01",
			"2025-13-01T00:00:00Z", "2025-03-01 00:00:00Z", "yesterday"}[rng.IntN(7)]
	}
	return genString(rng, s)
}

// genInteger is a query value for an integer schema: a number around its bounds, or one
// written as strconv.ParseInt still reads it (a sign, leading zeros), or not a number.
func genInteger(rng *rand.Rand, s *openapi3.Schema) string {
	lo, hi := int64(-5), int64(300)
	if s.Min != nil {
		lo = int64(*s.Min)
	}
	if s.Max != nil {
		hi = int64(*s.Max)
	}
	n := []int64{lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, lo + rng.Int64N(hi-lo+1), -rng.Int64N(100)}[rng.IntN(8)]
	switch rng.IntN(8) {
	case 0:
		return fmt.Sprintf("+%d", n)
	case 1:
		return fmt.Sprintf("0%d", n)
	case 2:
		return []string{"1.5", "1e2", " 5", "5 ", "0x10", "ten", "1_0", "99999999999999999999", "٣"}[rng.IntN(9)]
	}
	return strconv.FormatInt(n, 10)
}

// The list's parameters take the compiled way, and each refuses what kin-openapi refuses: for
// every parameter, values kin-openapi refuses (the compiled checks must too) and values it
// accepts (the compiled checks should too, or the fast path is not taken).
func TestListParamsAcceptOnlyWhatKinAccepts(t *testing.T) {
	t.Parallel()
	doc, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(doc)
	key := routeKey{http.MethodGet, pathLeads}
	checks, ok := v.params[key]
	if !ok {
		t.Fatal("the list's parameters are not compiled")
	}
	opts := v.opts
	route := v.routes[key]
	for _, tt := range []struct {
		param   string
		refused []string
		good    []string
	}{
		{"limit", []string{"0", "201", "-1", "1.5", "1e2", "ten", "0x10", " 5", "99999999999999999999"}, []string{"1", "50", "200"}},
		{"cursor", []string{strings.Repeat("A", 201)}, []string{"AQAGMEn1XNbAC388Ul8-TI6aegwdLj9KW8i8g14", strings.Repeat("A", 200)}},
		{"status", []string{"archived", "New"}, []string{"new", "over_limit", "lost"}},
		{"source", []string{"fax", "API"}, []string{"form", "api", "chat", "manual"}},
		{"email", []string{strings.Repeat("a", 244) + "@example.hu"}, []string{"peter.kovacs@example.hu", strings.Repeat("a", 243) + "@example.hu"}},
		{"since", []string{"2025-03-01T00:00:00", "yesterday", "2025-03-01"}, []string{"2025-03-01T00:00:00Z", "2025-03-01T00:00:00.5+01:00"}},
		{"until", []string{"2025-03-01 00:00:00Z", "tomorrow"}, []string{"2025-04-01T00:00:00Z"}},
	} {
		for _, value := range append(slices.Clone(tt.refused), tt.good...) {
			r := httptest.NewRequest(key.method, key.path+"?"+url.Values{tt.param: {value}}.Encode(), nil)
			query := r.URL.Query()
			fast := paramsAccepted(checks, r, query)
			in := &openapi3filter.RequestValidationInput{Request: r, QueryParams: query, Route: route, Options: &opts}
			kinErr := openapi3filter.ValidateRequest(context.Background(), in)
			refused := slices.Contains(tt.refused, value)
			switch {
			case refused && kinErr == nil:
				t.Errorf("%s=%q: kin-openapi accepts it, the case is wrong", tt.param, value)
			case refused && fast:
				t.Errorf("%s=%q: the compiled check accepts what kin-openapi refuses (%v)", tt.param, value, kinErr)
			case !refused && kinErr != nil:
				t.Errorf("%s=%q: kin-openapi refuses it: %v", tt.param, value, kinErr)
			case !refused && !fast:
				t.Errorf("%s=%q: kin-openapi accepts it, the compiled check leaves it to kin-openapi", tt.param, value)
			}
		}
	}
}

// A query read in place (plainQuery, rawValue) gives each list parameter the values
// url.ParseQuery gives it, and paramsAccepted the same verdict either way, on queries around
// what plainQuery takes: escapes, +, ;, empty pairs, repeated names, = in a value.
func TestRawQueryIsParseQuery(t *testing.T) {
	t.Parallel()
	doc, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	checks := newValidator(doc).params[routeKey{http.MethodGet, pathLeads}]
	if len(checks) == 0 {
		t.Fatal("the list's parameters are not compiled")
	}
	queries := []string{"", "limit=50", "limit=50&cursor=AQAGMEn1XNbAC388Ul8-TI6aegwdLj9KW8i8g14", "&limit=50&", "limit=50&&status=new",
		"limit=50&limit=50", "limit", "limit=", "=50", "limit=5=0", "lim%69t=50", "limit=%35%30", "limit=+50", "limit=50;x", "x;=1&limit=50",
		"since=2025-03-01T00:00:00Z", "since=2025-03-01T00:00:00+01:00", "since=2025-03-01T00:00:00%2B01:00", "status=new&source=form&email=a.b@example.hu",
		"email=a.b%40example.hu", "email=ab", "LIMIT=50", "limit=50&other=x&other=y", "cursor=a&cursor=b", "limit=%zz", "limit=50#x", "until=2025-04-01T00:00:00.5Z"}
	rng := rand.New(rand.NewPCG(31, 4))
	pieces := []string{"limit=", "cursor=", "status=", "source=", "email=", "since=", "until=", "50", "new", "form", "&", "&", "=", "%41", "+", ";", "x", "Z", ":", "-"}
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		queries = append(queries, b.String())
	}
	for _, raw := range queries {
		r := httptest.NewRequest(http.MethodGet, pathLeads, nil)
		r.URL.RawQuery = raw
		parsed := r.URL.Query()
		if plainQuery(raw) {
			for _, p := range checks {
				values := parsed[p.name]
				value, n := rawValue(raw, p.name)
				if n != len(values) || n > 0 && value != values[n-1] {
					t.Errorf("%q: %s read in place is %q (%d), parsed %q", raw, p.name, value, n, values)
				}
			}
		}
		if inPlace, ok := paramsAccepted(checks, r, nil), paramsAccepted(checks, r, parsed); inPlace != ok {
			t.Errorf("%q: %v with the query read in place, %v parsed", raw, inPlace, ok)
		}
	}
}

// TestPlainObjectIsUnmarshal: whatever plainObject decodes, json.Unmarshal decodes into a
// map[string]any too, to the same value, and readBody's checks (UTF-8, JSON, depth) pass; on generated lead and event bodies, on the same bodies
// with a byte changed, added or removed, and on the cases around what it takes.
func TestPlainObjectIsUnmarshal(t *testing.T) {
	t.Parallel()
	doc, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(doc)
	bodies := [][]byte{}
	for _, s := range []string{`{}`, ` { } `, `{"a":"b"}`, `{"a":"b","a":"c"}`, `{"a":{"b":{"c":null}}}`,
		`{"a":true,"b":false,"c":null}`, `{"a":"é ő \u00e9"}`, `{"a":"\u00e9"}`, `{"a":"x\"y"}`, `{"a":1}`,
		`{"a":[]}`, `{"a":"b",}`, `{"a" "b"}`, `{"a":"b"} x`, `{"a":"b"}{}`, `[]`, `null`, `"x"`, `{"a":tru}`,
		`{"a":truex}`, `{"a":nul}`, "{\"a\":\"\xff\"}", "{\"a\":\"\x01\"}", `{"a":"b"`, `{"a":`, `{`, ``, "\t{\r\n\"a\" :\"b\" }\n",
		`{"A":"b","a":"c"}`, `{"a":"` + strings.Repeat("x", 300) + `"}`, strings.Repeat(`{"a":`, 20) + `null` + strings.Repeat(`}`, 20),
		strings.Repeat(`{"a":`, maxJSONDepth-1) + `{}` + strings.Repeat(`}`, maxJSONDepth-1),
		strings.Repeat(`{"a":`, maxJSONDepth) + `{}` + strings.Repeat(`}`, maxJSONDepth)} {
		bodies = append(bodies, []byte(s))
	}
	rng := rand.New(rand.NewPCG(31, 3))
	for _, key := range []routeKey{{http.MethodPost, pathLeads}, {http.MethodPost, pathEvents}} {
		schema := v.routes[key].Operation.RequestBody.Value.Content.Get("application/json").Schema.Value
		for range 3000 {
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
	}
	plain, refused := 0, 0
	for _, body := range bodies {
		got, ok := plainObject(body)
		var want map[string]any
		err := json.Unmarshal(body, &want)
		if err != nil {
			refused++
		}
		if !ok {
			continue
		}
		plain++
		// readBody takes a plain object for valid without its other checks.
		if !utf8.Valid(body) || !json.Valid(body) || tooDeep(body, maxJSONDepth) {
			t.Errorf("plainObject decodes %q, which readBody's checks refuse", body)
		}
		if err != nil || want == nil {
			t.Errorf("plainObject decodes %q, json.Unmarshal does not: %v", body, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q (-json.Unmarshal +plainObject):\n%s", body, diff)
		}
	}
	t.Logf("%d bodies: plainObject decodes %d, json.Unmarshal refuses %d", len(bodies), plain, refused)
	if plain < len(bodies)/10 || refused < len(bodies)/10 {
		t.Errorf("the bodies need work: %d of %d plain, %d refused", plain, len(bodies), refused)
	}
}

// TestFastBodyKeepsThePlainValue: a body readBody decoded as a plain object is checked and
// handed on as that same value, without a second decoding or an allocation; any other body is
// decoded here.
func TestFastBodyKeepsThePlainValue(t *testing.T) {
	doc, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	check := newValidator(doc).bodies[routeKey{http.MethodPost, pathLeads}]
	body := []byte(`{"first_name":"Kovács Péter","email":"peter.kovacs@example.hu","phone":"+36 30 123 4567"}`)
	plain, ok := plainObject(body)
	if !ok {
		t.Fatal("not a plain object")
	}
	got, ok := fastBody(check, body, plain)
	if m, isMap := got.(map[string]any); !ok || !isMap || fmt.Sprintf("%p", m) != fmt.Sprintf("%p", plain) {
		t.Errorf("fastBody = %v, %v; want the plain value", got, ok)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = fastBody(check, body, plain) }); n != 0 {
		t.Errorf("fastBody of a plain object: %v allocations", n)
	}
	escaped := []byte(`{"first_name":"Kov\u00e1cs","email":"peter.kovacs@example.hu"}`)
	if got, ok := fastBody(check, escaped, nil); !ok || got.(map[string]any)["first_name"] != "Kovács" {
		t.Errorf("fastBody of a body with an escape = %v, %v", got, ok)
	}
}
