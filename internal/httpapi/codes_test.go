package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/contracttest"
	"github.com/leadchat/leadchat/internal/errs"
)

func spec(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// enumCodes is the contract's ErrorCode enum, in its order.
func enumCodes(t *testing.T) []string {
	t.Helper()
	ref := spec(t).Components.Schemas["ErrorCode"]
	if ref == nil {
		t.Fatal("the contract has no ErrorCode schema")
	}
	var codes []string
	for _, v := range ref.Value.Enum {
		codes = append(codes, v.(string))
	}
	return codes
}

func errsCodes() []string {
	var codes []string
	for _, c := range errs.Codes() {
		codes = append(codes, string(c))
	}
	return codes
}

// The codes of internal/errs, the constants of gen/api and the contract's enum are one set, so
// the domain cannot raise a code the contract does not have, nor the contract hold one the
// server cannot name.
func TestCodesAreTheContractEnum(t *testing.T) {
	t.Parallel()
	enum := enumCodes(t)
	if diff := cmp.Diff(enum, errsCodes()); diff != "" {
		t.Errorf("errs.Codes() differ from the contract's ErrorCode enum (-enum +errs); run make generate:\n%s", diff)
	}
	for _, c := range enum {
		if !api.ErrorCode(c).Valid() {
			t.Errorf("%s is in the contract's enum but not a generated api.ErrorCode; run make generate", c)
		}
	}
	for _, c := range errs.Codes() {
		if !api.ErrorCode(c).Valid() {
			t.Errorf("errs code %s is not a generated api.ErrorCode", c)
		}
	}
}

// statuses returns the HTTP statuses a code can come with, sorted.
func statuses(e entry) []int {
	var s []int
	for _, k := range e.kinds {
		s = append(s, status(k))
	}
	sort.Ints(s)
	return slices.Compact(s)
}

// Every code has its Hungarian sentence and at least one status, and the catalogue holds
// nothing else.
func TestCatalogueHasEveryCode(t *testing.T) {
	t.Parallel()
	for _, c := range errs.Codes() {
		e, ok := catalogue[c]
		switch {
		case !ok:
			t.Errorf("%s has no entry in the catalogue", c)
		case strings.TrimSpace(e.text) == "":
			t.Errorf("%s has no Hungarian sentence", c)
		case strings.Contains(e.text, "%!"):
			t.Errorf("%s: the sentence was formatted wrongly: %q", c, e.text)
		case len(e.kinds) == 0:
			t.Errorf("%s has no kind, so no status", c)
		case c != errs.CodeInternal && slices.Contains(statuses(e), 500):
			t.Errorf("%s would be written as 500, where only internal is", c)
		}
	}
	for c := range catalogue {
		if !slices.Contains(errs.Codes(), c) {
			t.Errorf("the catalogue has %s, which is not in the contract's enum", c)
		}
	}
}

// The table of codes in the contract's introduction lists the enum in its order, with the
// statuses the catalogue gives each code.
func TestContractTableOfCodes(t *testing.T) {
	t.Parallel()
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| ([^|]+) \\|")
	number := regexp.MustCompile(`\b[1-5]\d\d\b`)
	var listed []string
	for _, m := range row.FindAllStringSubmatch(spec(t).Info.Description, -1) {
		code := m[1]
		listed = append(listed, code)
		var got []int
		for _, n := range number.FindAllString(m[2], -1) {
			v, _ := strconv.Atoi(n)
			got = append(got, v)
		}
		sort.Ints(got)
		got = slices.Compact(got)
		if want := statuses(catalogue[errs.Code(code)]); !slices.Equal(got, want) {
			t.Errorf("the table gives %s the statuses %v, the catalogue %v", code, got, want)
		}
	}
	if diff := cmp.Diff(enumCodes(t), listed); diff != "" {
		t.Errorf("the table of codes differs from the ErrorCode enum (-enum +table):\n%s", diff)
	}
}

// Each operation's description lists, by status, the codes it can answer with: exactly its
// documented error statuses, and for each only codes the catalogue gives that status. The
// operations the generated server leaves out (the static files, health and metrics) are read
// from the file, as contracttest reads them when it holds every error answer to its list.
func TestOperationsListTheirCodes(t *testing.T) {
	t.Parallel()
	for path, pi := range contracttest.Spec(t, "http://127.0.0.1").Paths.Map() {
		for method, op := range pi.Operations() {
			var documented []int
			for s := range op.Responses.Map() {
				if n, err := strconv.Atoi(s); err == nil && n >= 400 {
					documented = append(documented, n)
				}
			}
			if len(documented) == 0 {
				continue
			}
			sort.Ints(documented)
			name := method + " " + path
			codes, err := contracttest.ErrorCodes(op)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			var listed []int
			for st, cs := range codes {
				listed = append(listed, st)
				for _, c := range cs {
					e, ok := catalogue[errs.Code(c)]
					if !ok {
						t.Errorf("%s: %d lists %s, which is not a code", name, st, c)
					} else if !slices.Contains(statuses(e), st) {
						t.Errorf("%s: %d lists %s, which comes with %v", name, st, c, statuses(e))
					}
				}
			}
			sort.Ints(listed)
			if !slices.Equal(listed, documented) {
				t.Errorf("%s: the Errors list has the statuses %v, the responses %v", name, listed, documented)
			}
		}
	}
}

// writeError only ever writes a code of the enum, with a status the catalogue gives it: an
// unknown code, or a known one with a kind its entry does not list, is an internal error.
func TestWriteErrorWritesOnlyEnumCodes(t *testing.T) {
	t.Parallel()
	s := &server{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	write := func(err error) (int, api.Error) {
		t.Helper()
		w := httptest.NewRecorder()
		s.writeError(w, httptest.NewRequest("POST", "/api/v1/leads", nil), err)
		var body api.Error
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("body %q: %v", w.Body, err)
		}
		return w.Code, body
	}
	internal := catalogue[errs.CodeInternal].text
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"unknown code", errs.E(errs.Invalid, "made_up")},
		{"empty code", errs.E(errs.Invalid, "")},
		{"known code with a kind it never has", errs.E(errs.Forbidden, errs.CodeInvalidEmail)},
		{"known code with the internal kind", errs.Wrap(errs.Internal, errs.CodeInvalidEmail, errors.New("x"))},
		{"unclassified error", errors.New("secret")},
		{"unique violation", errs.Wrap(errs.Conflict, errs.CodeInternal, errors.New("23505"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, body := write(tc.err)
			if st != 500 || body.Code != api.ErrorCodeInternal || body.Error != internal {
				t.Errorf("got %d %+v, want 500 internal", st, body)
			}
		})
	}
	for _, c := range errs.Codes() {
		for _, k := range catalogue[c].kinds {
			st, body := write(&errs.Error{Kind: k, Code: c, Field: "email"})
			if !body.Code.Valid() || st != status(k) {
				t.Errorf("%s as kind %d: got %d %q", c, k, st, body.Code)
			}
			if c != errs.CodeInternal && (body.Code != api.ErrorCode(c) || body.Error == internal) {
				t.Errorf("%s as kind %d: got %+v", c, k, body)
			}
		}
	}
	if _, body := write(errs.Field(errs.CodeMissingField, "first_name")); body.Error != "Hiányzó kötelező mező: first_name." {
		t.Errorf("field sentence: %q", body.Error)
	}
}
