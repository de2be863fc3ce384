package leadclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// APIError is any answer of the service that is not a success, decoded from its JSON error body.
type APIError struct {
	// StatusCode is the HTTP status, such as 400 or 503.
	StatusCode int
	// Code is the stable snake_case code to match on, one of the ErrorCode constants
	// (ErrorCodeInvalidEmail, ErrorCodeRateLimited…) or a code newer than this SDK; it is ""
	// when the body was not the service's JSON error body, as from a proxy in between.
	Code ErrorCode
	// Message is the service's Hungarian sentence for people, or a short description of a
	// body that was not JSON; it may be reworded at any time, so never match on it.
	Message string
	// RequestID is the X-Request-Id of the answer; quote it when reporting a problem.
	RequestID string
	// RetryAfter is the wait the service asked for in Retry-After, or 0.
	RetryAfter time.Duration
}

// Error reads like "leadchat: 400 invalid_email: Az e-mail cím formátuma érvénytelen.".
func (e *APIError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("leadchat: %d: %s", e.StatusCode, e.Message)
	}
	return fmt.Sprintf("leadchat: %d %s: %s", e.StatusCode, e.Code, e.Message)
}

// IsCode reports whether err is, or wraps, an *APIError with the given code.
func IsCode(err error, code ErrorCode) bool {
	var e *APIError
	return errors.As(err, &e) && e.Code == code
}

// maxMessage bounds the message taken from a body that is not JSON, such as a proxy's page.
const maxMessage = 120

// newAPIError decodes an answer that is not a success; it never fails, because a proxy or a
// crashed upstream may answer with anything.
func newAPIError(resp *http.Response, body []byte, now time.Time) *APIError {
	e := &APIError{
		StatusCode: resp.StatusCode,
		RequestID:  resp.Header.Get("X-Request-Id"),
		RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), now),
	}
	var b Error
	if mediaType(resp) == "application/json" && json.Unmarshal(body, &b) == nil && b.Code != "" {
		e.Code, e.Message = b.Code, b.Error
		return e
	}
	e.Message = shortText(resp, body)
	return e
}

// shortText keeps the first line of a plain-text body and replaces anything else (HTML, binary,
// nothing at all) with the status text.
func shortText(resp *http.Response, body []byte) string {
	if mediaType(resp) == "text/plain" && utf8.Valid(body) {
		line, _, _ := strings.Cut(strings.TrimSpace(string(body)), "\n")
		line = strings.TrimSpace(line)
		if len(line) > maxMessage {
			cut := maxMessage
			for !utf8.RuneStart(line[cut]) {
				cut--
			}
			line = line[:cut] + "…"
		}
		if line != "" {
			return line
		}
	}
	if text := http.StatusText(resp.StatusCode); text != "" {
		return text
	}
	return "unexpected answer"
}

// mediaType is the Content-Type without its parameters, "" when there is none or it is garbled.
func mediaType(resp *http.Response) string {
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}
