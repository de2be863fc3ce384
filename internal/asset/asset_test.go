package asset

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

var body = []byte(strings.Repeat("console.log('leadchat');\n", 40))

func serve(t *testing.T, h http.Handler, method string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, "/file", nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

func TestHeaders(t *testing.T) {
	h := Handler(body, Options{Gzip: true, Header: map[string]string{"Content-Type": "text/javascript; charset=utf-8"}})
	res, got := serve(t, h, http.MethodGet, nil)
	want := map[string]string{
		"Content-Type":           "text/javascript; charset=utf-8",
		"Cache-Control":          "public, max-age=300",
		"Vary":                   "Accept-Encoding",
		"X-Content-Type-Options": "nosniff",
		"Content-Encoding":       "",
		"ETag":                   "",
		"Content-Length":         strconv.Itoa(len(body)),
	}
	for k, v := range want {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if res.StatusCode != http.StatusOK || !bytes.Equal(got, body) {
		t.Errorf("status %d and %d bytes, want 200 and the body", res.StatusCode, len(got))
	}
}

func TestKeepsItsOwnCopy(t *testing.T) {
	b := bytes.Clone(body)
	h := Handler(b, Options{})
	b[0] = 'X'
	if _, got := serve(t, h, http.MethodGet, nil); !bytes.Equal(got, body) {
		t.Error("changing the caller's slice changed what is served")
	}
}

func TestConditional(t *testing.T) {
	h := Handler(body, Options{ETag: true})
	res, _ := serve(t, h, http.MethodGet, nil)
	etag := res.Header.Get("ETag")
	if len(etag) < 10 || !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) {
		t.Fatalf("ETag %q, want a strong quoted tag", etag)
	}
	if again, _ := serve(t, Handler(body, Options{ETag: true}), http.MethodGet, nil); again.Header.Get("ETag") != etag {
		t.Error("ETag differs between two handlers of the same body")
	}
	for _, tt := range []struct {
		name        string
		ifNoneMatch string
		want        int
	}{
		{"same tag is not modified", etag, http.StatusNotModified},
		{"tag in a list is not modified", `"old", ` + etag, http.StatusNotModified},
		{"weak form of the tag is not modified", "W/" + etag, http.StatusNotModified},
		{"star is not modified", "*", http.StatusNotModified},
		{"other tag gets the body", `"old"`, http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, got := serve(t, h, http.MethodGet, map[string]string{"If-None-Match": tt.ifNoneMatch})
			if res.StatusCode != tt.want {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.want)
			}
			if tt.want == http.StatusNotModified && (len(got) != 0 || res.Header.Get("ETag") != etag) {
				t.Errorf("304 with %d body bytes and ETag %q", len(got), res.Header.Get("ETag"))
			}
		})
	}
	t.Run("without an ETag there is no 304", func(t *testing.T) {
		if res, _ := serve(t, Handler(body, Options{}), http.MethodGet, map[string]string{"If-None-Match": "*"}); res.StatusCode != http.StatusOK {
			t.Errorf("status %d, want 200", res.StatusCode)
		}
	})
	t.Run("range requests get the whole body", func(t *testing.T) {
		if res, _ := serve(t, h, http.MethodGet, map[string]string{"Range": "bytes=0-9"}); res.StatusCode != http.StatusOK {
			t.Errorf("status %d, want 200", res.StatusCode)
		}
	})
}

func TestGzip(t *testing.T) {
	h := Handler(body, Options{Gzip: true})
	for _, tt := range []struct {
		name, acceptEncoding string
		gzipped              bool
	}{
		{"browser gets gzip", "gzip, deflate, br, zstd", true},
		{"gzip with a quality", "br;q=1.0, gzip;q=0.8", true},
		{"star allows gzip", "*", true},
		{"refused gzip", "gzip;q=0, br", false},
		{"star refused", "*;q=0", false},
		{"no header", "", false},
		{"identity only", "identity", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, got := serve(t, h, http.MethodGet, map[string]string{"Accept-Encoding": tt.acceptEncoding})
			if gz := res.Header.Get("Content-Encoding") == "gzip"; gz != tt.gzipped {
				t.Fatalf("gzipped = %v, want %v", gz, tt.gzipped)
			}
			if res.Header.Get("Content-Length") != strconv.Itoa(len(got)) {
				t.Errorf("Content-Length %s for %d bytes", res.Header.Get("Content-Length"), len(got))
			}
			if tt.gzipped {
				zr, err := gzip.NewReader(bytes.NewReader(got))
				if err != nil {
					t.Fatal(err)
				}
				if got, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got, body) {
				t.Error("decoded body differs")
			}
		})
	}
	if res, _ := serve(t, Handler(body, Options{}), http.MethodGet, map[string]string{"Accept-Encoding": "gzip"}); res.Header.Get("Content-Encoding") != "" {
		t.Error("gzip without Options.Gzip")
	}
}

func TestHead(t *testing.T) {
	res, got := serve(t, Handler(body, Options{ETag: true}), http.MethodHead, nil)
	if res.StatusCode != http.StatusOK || len(got) != 0 || res.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Errorf("HEAD: status %d, %d body bytes, Content-Length %q", res.StatusCode, len(got), res.Header.Get("Content-Length"))
	}
}
