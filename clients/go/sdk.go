package leadclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Defaults of New; each has an Option to change it.
const (
	defaultTimeout   = 10 * time.Second
	defaultRetries   = 2
	defaultUserAgent = "leadclient-go"
)

// SDK calls the leadchat API with one key; it is safe for concurrent use. It is not called
// Client because the generated low-level client has that name. It never sends an Origin
// header, with which the service would refuse a private key as coming from a browser.
type SDK struct {
	api     *Client
	key     string
	timeout time.Duration
	retries int
}

// settings collects what the options set before New checks it.
type settings struct {
	httpClient *http.Client
	timeout    time.Duration
	retries    int
	userAgent  string
}

// Option changes a setting of New.
type Option func(*settings)

// WithHTTP makes the SDK send its requests through c instead of a plain &http.Client{}
// (named so because the generated code owns WithHTTPClient).
func WithHTTP(c *http.Client) Option {
	return func(s *settings) { s.httpClient = c }
}

// WithTimeout limits each attempt of a call to d (default 10 s), so a stuck attempt is retried
// instead of eating the caller's whole deadline; 0 leaves attempts bounded by the context alone.
func WithTimeout(d time.Duration) Option {
	return func(s *settings) { s.timeout = d }
}

// WithRetries sets how many times a call is retried after a retryable failure (default 2, so at
// most 3 attempts); 0 turns retrying off.
func WithRetries(n int) Option {
	return func(s *settings) { s.retries = n }
}

// WithUserAgent sets the User-Agent header, which shows up in the service's logs.
func WithUserAgent(ua string) Option {
	return func(s *settings) { s.userAgent = ua }
}

// New returns an SDK for the service at baseURL (for example "https://leadchat.example")
// that authenticates with key; use a private key (lc_priv_…) for CreateLead and only on a server.
func New(baseURL, key string, opts ...Option) (*SDK, error) {
	s := settings{timeout: defaultTimeout, retries: defaultRetries, userAgent: defaultUserAgent}
	for _, opt := range opts {
		opt(&s)
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("leadchat: base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("leadchat: base URL %q is not an absolute http(s) URL", baseURL)
	}
	switch {
	case key == "":
		return nil, errors.New("leadchat: the API key is empty")
	case s.timeout < 0:
		return nil, fmt.Errorf("leadchat: negative timeout %v", s.timeout)
	case s.retries < 0:
		return nil, fmt.Errorf("leadchat: negative retries %d", s.retries)
	}
	if s.httpClient == nil {
		s.httpClient = &http.Client{}
	}
	ua := s.userAgent
	api, err := NewClient(baseURL,
		WithHTTPClient(s.httpClient),
		WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			if ua != "" {
				req.Header.Set("User-Agent", ua)
			}
			return nil
		}))
	if err != nil {
		return nil, fmt.Errorf("leadchat: %w", err)
	}
	return &SDK{api: api, key: key, timeout: s.timeout, retries: s.retries}, nil
}

// withKey sends the key the way the lead endpoint reads it first.
func (c *SDK) withKey(_ context.Context, req *http.Request) error {
	req.Header.Set("x-api-key", c.key)
	return nil
}
