package apidocs

import (
	"bytes"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	apispec "github.com/leadchat/leadchat/api"
)

// get asks h for path with the given request headers.
func get(t *testing.T, h http.Handler, method, path string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	resp := rec.Result()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// newHandler serves the contract with a page rendered now, so that the tests read what the
// current code renders even before `make generate` has written it.
func newHandler(t *testing.T) http.Handler {
	t.Helper()
	page, err := Render(apispec.YAML())
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	return Handler(apispec.YAML(), page)
}

// TestGeneratedPageIsCurrent holds the page the binary serves (api/docs.gen.html, written by
// `make generate`) to what Render makes of the contract now.
func TestGeneratedPageIsCurrent(t *testing.T) {
	page, err := Render(apispec.YAML())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(apispec.DocsHTML(), page) {
		t.Error("api/docs.gen.html differs from the page rendered from api/openapi.yaml: run 'make generate'")
	}
	again, err := Render(apispec.YAML())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, page) {
		t.Error("two renderings of the same contract differ")
	}
}

func TestServes(t *testing.T) {
	h := newHandler(t)
	file, err := os.ReadFile("../../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, contentType string
	}{
		{SpecPath, "application/yaml; charset=utf-8"},
		{DocsPath, "text/html; charset=utf-8"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := get(t, h, http.MethodGet, tc.path, nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want 200", resp.StatusCode)
			}
			if got := resp.Header.Get("Content-Type"); got != tc.contentType {
				t.Errorf("Content-Type %q, want %q", got, tc.contentType)
			}
			if got := resp.Header.Get("Cache-Control"); got != "public, max-age=300" {
				t.Errorf("Cache-Control %q", got)
			}
			if len(body) == 0 {
				t.Error("empty body")
			}
		})
	}

	t.Run("the served spec is the file", func(t *testing.T) {
		resp, body := get(t, h, http.MethodGet, SpecPath, nil)
		if !bytes.Equal(body, file) {
			t.Errorf("served %d bytes that differ from api/openapi.yaml (%d bytes)", len(body), len(file))
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("Access-Control-Allow-Origin %q, want *", got)
		}
	})
}

func TestSpecRevalidation(t *testing.T) {
	h := newHandler(t)
	first, _ := get(t, h, http.MethodGet, SpecPath, nil)
	etag := first.Header.Get("ETag")
	if !strings.HasPrefix(etag, `"`) {
		t.Fatalf("ETag %q is not a strong tag", etag)
	}
	for name, tc := range map[string]struct {
		ifNoneMatch string
		want        int
	}{
		"same tag":       {etag, http.StatusNotModified},
		"weak same tag":  {"W/" + etag, http.StatusNotModified},
		"one of a list":  {`"old", ` + etag, http.StatusNotModified},
		"another tag":    {`"old"`, http.StatusOK},
		"no conditional": {"", http.StatusOK},
	} {
		t.Run(name, func(t *testing.T) {
			resp, body := get(t, h, http.MethodGet, SpecPath, map[string]string{"If-None-Match": tc.ifNoneMatch})
			if resp.StatusCode != tc.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.want)
			}
			if tc.want == http.StatusNotModified && len(body) != 0 {
				t.Errorf("304 with a %d-byte body", len(body))
			}
		})
	}

	t.Run("head", func(t *testing.T) {
		resp, body := get(t, h, http.MethodHead, SpecPath, nil)
		if resp.StatusCode != http.StatusOK || len(body) != 0 || resp.Header.Get("Content-Length") == "" {
			t.Errorf("HEAD: status %d, %d-byte body, Content-Length %q", resp.StatusCode, len(body), resp.Header.Get("Content-Length"))
		}
	})

	t.Run("the page has no 304, which its contract does not list", func(t *testing.T) {
		resp, _ := get(t, h, http.MethodGet, DocsPath, map[string]string{"If-None-Match": "*"})
		if resp.StatusCode != http.StatusOK {
			t.Errorf("status %d, want 200", resp.StatusCode)
		}
	})

	t.Run("range requests get the whole body", func(t *testing.T) {
		resp, _ := get(t, h, http.MethodGet, SpecPath, map[string]string{"Range": "bytes=0-9"})
		if resp.StatusCode != http.StatusOK {
			t.Errorf("status %d, want 200", resp.StatusCode)
		}
	})
}

// errorCode finds the codes of the error table in info.description.
var errorCode = regexp.MustCompile("(?m)^\\|\\s*`([a-z_]+)`\\s*\\|")

func TestDocsMentionEverything(t *testing.T) {
	spec := apispec.YAML()
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		t.Fatal(err)
	}
	_, body := get(t, newHandler(t), http.MethodGet, DocsPath, nil)
	page := string(body)

	for path, item := range doc.Paths.Map() {
		if !strings.Contains(page, "<code>"+html.EscapeString(path)+"</code>") {
			t.Errorf("path %s is missing", path)
		}
		for method, op := range item.Operations() {
			if !strings.Contains(page, `id="op-`+op.OperationID+`"`) || !strings.Contains(page, "<code>"+op.OperationID+"</code>") {
				t.Errorf("%s %s: operationId %q is missing", method, path, op.OperationID)
			}
		}
	}

	codes := errorCode.FindAllStringSubmatch(doc.Info.Description, -1)
	if len(codes) < 10 {
		t.Fatalf("found %d error codes in info.description; has the table changed shape?", len(codes))
	}
	for _, m := range codes {
		if !strings.Contains(page, "<td><code>"+m[1]+"</code></td>") {
			t.Errorf("error code %s is not in the page's table", m[1])
		}
	}

	for name := range doc.Components.Schemas {
		if !strings.Contains(page, `id="schema-`+name+`"`) {
			t.Errorf("schema %s has no section", name)
		}
	}
}

func TestDocsEscapeTheSpec(t *testing.T) {
	_, body := get(t, newHandler(t), http.MethodGet, DocsPath, nil)
	// The embed.js description shows a <script> tag in a code span: it must stay text.
	if bytes.Contains(bytes.ToLower(body), []byte("<script")) {
		t.Error("the page contains a <script> tag")
	}
	if !bytes.Contains(body, []byte("&lt;script async")) {
		t.Error("the escaped <script> example of embed.js is missing")
	}
}

func TestDocsKeepTheOrderOfTheFile(t *testing.T) {
	_, body := get(t, newHandler(t), http.MethodGet, DocsPath, nil)
	page := string(body)
	// The "full" lead example lists first_name, last_name, email in this order; sorting the keys
	// would put email first.
	full := page[strings.Index(page, "Example <code>full</code>"):]
	full = full[:strings.Index(full, "</pre>")]
	first, last, email := strings.Index(full, "first_name"), strings.Index(full, "last_name"), strings.Index(full, "email")
	if first < 0 || first >= last || last >= email {
		t.Errorf("example keys out of order: first_name at %d, last_name at %d, email at %d", first, last, email)
	}
	// Operations appear in the order of the paths in the file.
	if strings.Index(page, `id="op-createLead"`) > strings.Index(page, `id="op-getWidgetConfig"`) {
		t.Error("createLead comes after getWidgetConfig")
	}
}

func TestRenderRejectsABadSpec(t *testing.T) {
	for name, spec := range map[string]string{
		"not YAML":      "openapi: [3.0.3",
		"not a spec":    "hello: world\n",
		"invalid paths": "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  nolead: {}\n",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Render([]byte(spec)); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestHandlerKeepsItsOwnCopy(t *testing.T) {
	spec, page := apispec.YAML(), apispec.DocsHTML()
	h := Handler(spec, page)
	wantSpec, wantPage := bytes.Clone(spec), bytes.Clone(page)
	for i := range spec {
		spec[i] = 'x'
	}
	for i := range page {
		page[i] = 'x'
	}
	if _, body := get(t, h, http.MethodGet, SpecPath, nil); !bytes.Equal(body, wantSpec) {
		t.Error("changing the caller's spec changed what is served")
	}
	if _, body := get(t, h, http.MethodGet, DocsPath, nil); !bytes.Equal(body, wantPage) {
		t.Error("changing the caller's page changed what is served")
	}
}
