// Package openai answers chat turns with a model behind any OpenAI-compatible Chat Completions
// endpoint: OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp. It is a small net/http client
// rather than an SDK, which would make the binary several times larger for one call.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/leadchat/leadchat/internal/assistant"
)

// Defaults of Config.
const (
	DefaultTimeout    = 10 * time.Second
	DefaultMaxRetries = 2
	maxMaxRetries     = 10
	maxResponseBytes  = 1 << 20
	firstBackoff      = 250 * time.Millisecond
)

// Config says where the model is and how long to wait for it.
type Config struct {
	// BaseURL is the API root that "/chat/completions" is appended to, such as
	// https://api.openai.com/v1, http://localhost:11434/v1 (Ollama) or an Azure deployment URL;
	// its query (Azure's api-version) is kept.
	BaseURL string
	// APIKey is sent as a bearer token, or as the api-key header on Azure hosts (*.azure.com);
	// empty for local servers that need none.
	APIKey string
	Model  string
	// Timeout bounds each attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxRetries is the number of retries after a network error, 429 or 5xx; 0 means
	// DefaultMaxRetries and a negative value means none.
	MaxRetries int
	// HTTPClient is used for requests; nil means a new client without a global timeout.
	HTTPClient *http.Client
}

// Client answers chat turns with the configured model; it keeps no state between turns and
// is safe for concurrent use.
type Client struct {
	endpoint   *url.URL
	apiKey     string
	model      string
	timeout    time.Duration
	maxRetries int
	http       *http.Client
	azure      bool
	backoff    time.Duration // before the first retry, doubling after; shortened in tests
}

var _ assistant.Assistant = (*Client)(nil)

// New checks cfg and returns a client for it.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(cfg.BaseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("openai: base URL must be an absolute http or https URL")
	}
	if u.User != nil {
		return nil, errors.New("openai: base URL must not hold credentials; use the API key")
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("openai: model is required")
	}
	if cfg.Timeout < 0 {
		return nil, errors.New("openai: timeout must not be negative")
	}
	if cfg.MaxRetries > maxMaxRetries {
		return nil, fmt.Errorf("openai: at most %d retries", maxMaxRetries)
	}
	c := &Client{apiKey: cfg.APIKey, model: strings.TrimSpace(cfg.Model), timeout: cfg.Timeout,
		maxRetries: cfg.MaxRetries, http: cfg.HTTPClient, backoff: firstBackoff,
		azure: strings.HasSuffix(strings.ToLower(u.Hostname()), ".azure.com")}
	if c.timeout == 0 {
		c.timeout = DefaultTimeout
	}
	switch {
	case c.maxRetries == 0:
		c.maxRetries = DefaultMaxRetries
	case c.maxRetries < 0:
		c.maxRetries = 0
	}
	if c.http == nil {
		c.http = &http.Client{}
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/chat/completions"
	u.RawPath = ""
	c.endpoint = u
	return c, nil
}

// StatusError is an answer of the server that is not a success; Message is the server's
// own error message, shortened, with the API key removed should the server repeat it.
type StatusError struct {
	StatusCode int
	Message    string
}

func (e *StatusError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("openai: status %d", e.StatusCode)
	}
	return fmt.Sprintf("openai: status %d: %s", e.StatusCode, e.Message)
}

// retryable reports whether a later attempt may succeed.
func (e *StatusError) retryable() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

// Answer asks the model for the reply to one turn, retrying a bounded number of times with
// growing pauses after network errors, 429 and 5xx.
func (c *Client) Answer(ctx context.Context, t assistant.Turn) (assistant.Answer, error) {
	body, err := json.Marshal(request{Model: c.model, Messages: messages(t), Temperature: 0.3,
		ResponseFormat: responseFormat{Type: "json_object"}})
	if err != nil {
		return assistant.Answer{}, fmt.Errorf("openai: encode request: %w", err)
	}
	pause := c.backoff
	for attempt := 0; ; attempt++ {
		content, err := c.attempt(ctx, body)
		if err == nil {
			return parseContent(content)
		}
		var se *StatusError
		if ctx.Err() != nil || attempt >= c.maxRetries || errors.As(err, &se) && !se.retryable() || errors.Is(err, errPermanent) {
			return assistant.Answer{}, fmt.Errorf("openai: attempt %d of %d: %w", attempt+1, c.maxRetries+1, err)
		}
		select {
		case <-ctx.Done():
			return assistant.Answer{}, fmt.Errorf("openai: waiting to retry: %w", ctx.Err())
		case <-time.After(pause):
		}
		pause *= 2
	}
}

// errPermanent marks an answer that another attempt would not change.
var errPermanent = errors.New("unusable answer")

// attempt sends the request once and returns the first choice's message content.
func (c *Client) attempt(ctx context.Context, body []byte) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint.String(), bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("%w: build request: %w", errPermanent, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "leadchat")
	switch {
	case c.apiKey == "":
	case c.azure:
		req.Header.Set("api-key", c.apiKey) // Azure reads a bearer token as an Entra ID token
	default:
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its message repeats the URL, which need not be in every log line
		}
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return "", fmt.Errorf("read response: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "", &StatusError{StatusCode: resp.StatusCode, Message: c.serverMessage(data)}
	}
	if len(data) > maxResponseBytes {
		return "", fmt.Errorf("%w: response larger than %d bytes", errPermanent, maxResponseBytes)
	}
	var r response
	if err := json.Unmarshal(data, &r); err != nil {
		return "", fmt.Errorf("%w: response is not Chat Completions JSON: %w", errPermanent, err)
	}
	if len(r.Choices) == 0 {
		return "", fmt.Errorf("%w: response has no choices", errPermanent)
	}
	return r.Choices[0].Message.Content, nil
}

// serverMessage is the error message of an error body, shortened and without the key.
func (c *Client) serverMessage(data []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	msg := ""
	if json.Unmarshal(data, &e) == nil {
		msg = e.Error.Message
	}
	if c.apiKey != "" {
		msg = strings.ReplaceAll(msg, c.apiKey, "[redacted]")
	}
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:200]) + "…"
	}
	return msg
}
