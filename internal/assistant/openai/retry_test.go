package openai

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/assistant"
)

func TestAnswerFailures(t *testing.T) {
	tests := []struct {
		name         string
		respond      func(w http.ResponseWriter, r *http.Request, n int)
		wantText     string // the reply when the answer succeeds
		wantErr      string // part of the error when it fails
		wantAttempts int
	}{
		{name: "plain text content", wantText: "Jó napot kívánok!", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { content(w, "  Jó napot kívánok!  ") }},
		{name: "fenced JSON content", wantText: "Üdvözlöm!", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) {
				content(w, "```json\n{\"reply\": \"Üdvözlöm!\"}\n```")
			}},
		{name: "500 then success", wantText: "Most már megy.", wantAttempts: 2,
			respond: func(w http.ResponseWriter, _ *http.Request, n int) {
				if n == 1 {
					status(w, http.StatusInternalServerError)
					return
				}
				content(w, `{"reply": "Most már megy."}`)
			}},
		{name: "429 every time", wantErr: "status 429", wantAttempts: 3,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { status(w, http.StatusTooManyRequests) }},
		{name: "503 every time", wantErr: "status 503", wantAttempts: 3,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { status(w, http.StatusServiceUnavailable) }},
		{name: "400 is not retried", wantErr: "status 400", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { status(w, http.StatusBadRequest) }},
		{name: "401 is not retried", wantErr: "status 401", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { status(w, http.StatusUnauthorized) }},
		{name: "malformed body", wantErr: "not Chat Completions JSON", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { io.WriteString(w, `{"choices": [`) }},
		{name: "empty choices", wantErr: "no choices", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { io.WriteString(w, `{"choices": []}`) }},
		{name: "empty content", wantErr: "empty reply", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { content(w, " ") }},
		{name: "null content", wantErr: "empty reply", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) {
				io.WriteString(w, `{"choices": [{"message": {"role": "assistant", "content": null}}]}`)
			}},
		{name: "malformed JSON content", wantErr: "malformed JSON", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { content(w, `{"reply": "Jó nap`) }},
		{name: "JSON content without reply", wantErr: `no "reply"`, wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) { content(w, `{"answer": "Jó napot"}`) }},
		{name: "body over 1 MiB", wantErr: "larger than", wantAttempts: 1,
			respond: func(w http.ResponseWriter, _ *http.Request, _ int) {
				content(w, `{"reply": "`+strings.Repeat("a", maxResponseBytes)+`"}`)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.respond)
			got, err := newClient(t, srv.URL, Config{}).Answer(context.Background(), alfaTurn())
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.wantErr == "" && got.Text != tt.wantText:
				t.Errorf("reply = %q, want %q", got.Text, tt.wantText)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want one with %q", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), testKey) {
				t.Errorf("error holds the API key: %v", err)
			}
			if n := int(srv.attempts.Load()); n != tt.wantAttempts {
				t.Errorf("attempts = %d, want %d", n, tt.wantAttempts)
			}
		})
	}
}

// hang answers only when the client gives up or the test ends.
func hang(w http.ResponseWriter, r *http.Request, _ int) {
	select {
	case <-r.Context().Done():
	case <-time.After(5 * time.Second):
	}
}

func TestAnswerSlowServerTimesOutEachAttempt(t *testing.T) {
	srv := newServer(t, hang)
	c := newClient(t, srv.URL, Config{Timeout: 100 * time.Millisecond, MaxRetries: 2})
	start := time.Now()
	_, err := c.Answer(context.Background(), alfaTurn())
	elapsed := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want a deadline error", err)
	}
	if n := srv.attempts.Load(); n != 3 {
		t.Errorf("attempts = %d, want 3 (one and two retries)", n)
	}
	// Three attempts of 100 ms; the bound is loose, it only shows that nothing waited 5 s.
	if elapsed > 2*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

func TestAnswerRespectsContext(t *testing.T) {
	srv := newServer(t, hang)
	c := newClient(t, srv.URL, Config{Timeout: 3 * time.Second, MaxRetries: 5})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Answer(ctx, alfaTurn())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want a deadline error", err)
	}
	if n := srv.attempts.Load(); n != 1 {
		t.Errorf("attempts = %d after the caller's deadline, want 1", n)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

func TestAnswerNetworkErrorIsRetried(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	c := newClient(t, "http://"+addr, Config{MaxRetries: 1})
	var tries int
	c.http = &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		tries++
		return http.DefaultTransport.RoundTrip(r)
	})}
	_, err = c.Answer(context.Background(), alfaTurn())
	if err == nil || strings.Contains(err.Error(), testKey) {
		t.Errorf("err = %v", err)
	}
	if tries != 2 {
		t.Errorf("tries = %d, want 2", tries)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestAzureBaseURL(t *testing.T) {
	var got *http.Request
	c, err := New(Config{BaseURL: "https://alfa.openai.azure.com/openai/deployments/gpt-4o/?api-version=2024-10-21",
		APIKey: testKey, Model: "gpt-4o",
		HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			got = r
			return &http.Response{StatusCode: 200, Header: http.Header{},
				Body: io.NopCloser(strings.NewReader(`{"choices": [{"message": {"content": "{\"reply\": \"Jó napot!\"}"}}]}`))}, nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Answer(context.Background(), assistant.Turn{Message: "Szia"}); err != nil {
		t.Fatal(err)
	}
	if u := got.URL.String(); u != "https://alfa.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21" {
		t.Errorf("URL = %s", u)
	}
	if got.Header.Get("api-key") != testKey || got.Header.Get("Authorization") != "" {
		t.Errorf("headers = %v", got.Header)
	}
}

func TestNoKeyNoAuthorization(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) { content(w, `{"reply": "Szia!"}`) })
	c, err := New(Config{BaseURL: srv.URL + "/v1/", Model: "llama3.2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Answer(context.Background(), alfaTurn()); err != nil {
		t.Fatal(err)
	}
	if h := srv.requests[0].Header.Get("Authorization"); h != "" {
		t.Errorf("Authorization = %q without a key", h)
	}
	if p := srv.requests[0].URL.Path; p != "/v1/chat/completions" {
		t.Errorf("path = %s", p)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name        string
		cfg         Config
		wantErr     string
		wantTimeout time.Duration
		wantRetries int
	}{
		{name: "defaults", cfg: Config{BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini"},
			wantTimeout: 10 * time.Second, wantRetries: 2},
		{name: "explicit", cfg: Config{BaseURL: "http://localhost:11434/v1", Model: "llama3.2", Timeout: time.Second, MaxRetries: 4},
			wantTimeout: time.Second, wantRetries: 4},
		{name: "no retries", cfg: Config{BaseURL: "http://localhost:8000/v1", Model: "m", MaxRetries: -1},
			wantTimeout: 10 * time.Second, wantRetries: 0},
		{name: "no base URL", cfg: Config{Model: "m"}, wantErr: "base URL"},
		{name: "relative base URL", cfg: Config{BaseURL: "api.openai.com/v1", Model: "m"}, wantErr: "base URL"},
		{name: "other scheme", cfg: Config{BaseURL: "ftp://example.com", Model: "m"}, wantErr: "base URL"},
		{name: "credentials in URL", cfg: Config{BaseURL: "https://user:" + testKey + "@example.com/v1", Model: "m"}, wantErr: "credentials"},
		{name: "no model", cfg: Config{BaseURL: "https://api.openai.com/v1"}, wantErr: "model"},
		{name: "negative timeout", cfg: Config{BaseURL: "https://api.openai.com/v1", Model: "m", Timeout: -1}, wantErr: "timeout"},
		{name: "unbounded retries", cfg: Config{BaseURL: "https://api.openai.com/v1", Model: "m", MaxRetries: 100}, wantErr: "retries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), testKey) {
					t.Fatalf("err = %v, want one with %q and no key", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.timeout != tt.wantTimeout || c.maxRetries != tt.wantRetries {
				t.Errorf("timeout, retries = %v, %d; want %v, %d", c.timeout, c.maxRetries, tt.wantTimeout, tt.wantRetries)
			}
		})
	}
}
