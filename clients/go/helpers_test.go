package leadclient_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	leadclient "github.com/leadchat/leadchat/clients/go"
)

// seen is one request as the scripted server received it.
type seen struct {
	method, path, query string
	header              http.Header
	body                []byte
	at                  time.Time
}

// scripted answers its n-th request with the n-th handler (the last one from then on) and
// records every request.
type scripted struct {
	mu    sync.Mutex
	steps []http.HandlerFunc
	reqs  []seen
}

func serve(t *testing.T, steps ...http.HandlerFunc) (*httptest.Server, *scripted) {
	t.Helper()
	s := &scripted{steps: steps}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body, time.Now()})
		s.mu.Unlock()
		s.steps[min(n, len(s.steps)-1)](w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, s
}

func (s *scripted) requests() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.reqs...)
}

// created answers 201 with lead id and headers given as name, value pairs.
func created(id uuid.UUID, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		writeJSON(w, http.StatusCreated, map[string]any{"success": true, "lead_id": id, "over_limit": false})
	}
}

// failing answers with the JSON error body and headers given as name, value pairs.
func failing(status int, code, message string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		writeError(w, status, code, message)
	}
}

// hanging answers only once the client has gone away.
func hanging(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

var leadID = uuid.MustParse("6a1c9e0d-2b4f-4d7e-8c3a-9f8e7d6c5b4a")

var (
	uuidV4  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	minimal = leadclient.Lead{FirstName: "Kovács Péter", Email: "peter.kovacs@example.hu"}
)

func newSDK(t *testing.T, url string, opts ...leadclient.Option) *leadclient.SDK {
	t.Helper()
	lc, err := leadclient.New(url, privateKey, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return lc
}
