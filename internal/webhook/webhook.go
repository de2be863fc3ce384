// Package webhook sends lead events to a company's endpoints as Standard Webhooks: signed with
// the endpoint's secret (and the previous one during a rotation's grace period), over https
// only, through a dialler that refuses private addresses at connect time, without following
// redirects, and reading at most a few KiB of the answer.
package webhook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/limits"
)

// Timeout is how long an endpoint has to answer an attempt.
const Timeout = 10 * time.Second

// cutNote ends a kept answer whose body was longer than limits.ReceiverBodyBytes.
const cutNote = "\n[cut: the answer was longer than %d bytes]"

// NewSecret makes a signing secret: whsec_ and the base64 of 32 random bytes.
func NewSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(b), nil
}

// Sign is the webhook-signature header of a message: one "v1,<signature>" per secret,
// separated by spaces.
func Sign(secrets []string, id string, at time.Time, body []byte) (string, error) {
	sigs := make([]string, 0, len(secrets))
	for _, s := range secrets {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			return "", fmt.Errorf("webhook secret: %w", err)
		}
		sig, err := wh.Sign(id, at, body)
		if err != nil {
			return "", err
		}
		sigs = append(sigs, sig)
	}
	return strings.Join(sigs, " "), nil
}

// ErrSpecialTarget is wrapped by the refusal of an endpoint's address whose host is an IP
// address of the special-purpose registries (see SpecialPurpose).
var ErrSpecialTarget = errors.New("special-purpose address")

// CheckURL checks an endpoint's address: an absolute https URL with a host (http too when
// private targets are allowed, for development), at most limits.WebhookURLLen bytes, whose host, when
// it is an IP address, is not a special-purpose one (ErrSpecialTarget) unless private targets
// are allowed. A host name is judged when it is dialled, by the address it resolves to.
func CheckURL(raw string, allowPrivate bool) error {
	if len(raw) > limits.WebhookURLLen {
		return fmt.Errorf("%w: longer than %d characters", ErrBadURL, limits.WebhookURLLen)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil {
		return fmt.Errorf("%w: %q is not an absolute URL with a host (and no user info)", ErrBadURL, raw)
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && allowPrivate:
	default:
		return fmt.Errorf("%w: %q must be https", ErrBadURL, raw)
	}
	if a, err := netip.ParseAddr(u.Hostname()); err == nil && !allowPrivate {
		if reason := SpecialPurpose(a); reason != "" {
			return fmt.Errorf("%w: %s is a %s address", ErrSpecialTarget, a, reason)
		}
	}
	return nil
}

// Sender makes webhook attempts.
type Sender struct {
	client       *http.Client
	allowPrivate bool
	now          func() time.Time
}

// Options tune a Sender.
type Options struct {
	// AllowPrivate lifts the https rule and the address checks, for development and tests.
	AllowPrivate bool
	// Timeout bounds an attempt; 0 means Timeout.
	Timeout time.Duration
}

// NewSender builds a sender.
func NewSender(o Options) *Sender {
	if o.Timeout == 0 {
		o.Timeout = Timeout
	}
	d := &net.Dialer{Timeout: o.Timeout, KeepAlive: 30 * time.Second}
	if !o.AllowPrivate {
		d.Control = refusePrivate
	}
	t := &http.Transport{
		Proxy:                 nil, // a proxy would dial the target for us, past the check
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   o.Timeout,
		ResponseHeaderTimeout: o.Timeout,
		// Larger headers fail the attempt unread rather than being buffered (Go's default
		// would hold 10 MB per attempt in flight).
		MaxResponseHeaderBytes: limits.ReceiverHeaderBytes,
	}
	return &Sender{allowPrivate: o.AllowPrivate, now: time.Now, client: &http.Client{
		Transport: t,
		Timeout:   o.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

// Send makes one attempt of a delivery to its endpoint: a POST of the event's body with the
// Standard Webhooks headers, its webhook-id the delivery's id on every attempt.
func (s *Sender) Send(ctx context.Context, d event.Delivery) event.Result {
	ep := d.Endpoint
	if err := CheckURL(ep.URL, s.allowPrivate); err != nil {
		return event.Result{Err: err.Error()}
	}
	body, err := d.Event.Body()
	if err != nil {
		return event.Result{Err: "encoding the event: " + err.Error()}
	}
	now := s.now()
	id := d.ID.String()
	sig, err := Sign(ep.Secrets(now), id, now, body)
	if err != nil {
		return event.Result{Err: err.Error()}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return event.Result{Err: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "leadchat-webhooks/1")
	req.Header.Set(standardwebhooks.HeaderWebhookID, id)
	req.Header.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(now.Unix(), 10))
	req.Header.Set(standardwebhooks.HeaderWebhookSignature, sig)
	resp, err := s.client.Do(req)
	if err != nil {
		return event.Result{Err: describe(err)}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, limits.ReceiverBodyBytes+1))
	answer := strings.ToValidUTF8(string(b[:min(len(b), limits.ReceiverBodyBytes)]), "\uFFFD")
	if len(b) > limits.ReceiverBodyBytes {
		answer += fmt.Sprintf(cutNote, limits.ReceiverBodyBytes)
	}
	// Drain a little more, a few KiB through io.Discard's buffer, so the connection can be
	// reused; a longer answer closes it.
	_, _ = io.CopyN(io.Discard, resp.Body, 16<<10)
	return event.Result{Status: resp.StatusCode, Response: answer,
		RetryAfter: retryAfter(resp.Header.Get("Retry-After"), now)}
}

// describe words a failed request for the delivery log, without Go's "Post <url>:" prefix.
func describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return "no answer in time: " + err.Error()
	}
	if m := err.Error(); strings.Contains(m, "response headers exceeded") || strings.Contains(m, "header list larger") {
		// net/http's only words for it (HTTP/1 and HTTP/2): the errors have no type.
		return fmt.Sprintf("the answer's headers are larger than %d KiB: refused unread", limits.ReceiverHeaderBytes>>10)
	}
	return err.Error()
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date; 0 when absent or bad.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
