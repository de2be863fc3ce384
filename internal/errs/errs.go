// Package errs holds the few kinds of error the service distinguishes. Each error carries a
// stable code; the HTTP layer maps kind to status and code to a Hungarian sentence, in one place.
// The codes are those of the contract's ErrorCode enum, generated into codes.gen.go.
package errs

import (
	"errors"
	"fmt"
)

// Kind is the class of an error, which decides its HTTP status.
type Kind int

// The kinds of error; Internal is the zero value so that an unclassified error is never shown.
const (
	Internal Kind = iota
	Invalid
	Unauthorized
	Forbidden
	NotFound
	Conflict
	Unprocessable
	TooLarge
	UnsupportedMedia
	RateLimited
	Unavailable
	MethodNotAllowed
	HeadersTooLarge
)

// Code is a stable error code a client matches on: one of the constants of codes.gen.go.
type Code string

// Error is an error the client may learn about: its kind, its stable code and, for input
// errors, the field it concerns.
type Error struct {
	Kind  Kind
	Code  Code
	Field string
	// RetryAfter is the number of seconds a rate-limited client should wait.
	RetryAfter int
	Err        error
}

func (e *Error) Error() string {
	msg := string(e.Code)
	if e.Field != "" {
		msg += " (" + e.Field + ")"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// E builds an error of a kind and code.
func E(kind Kind, code Code) *Error { return &Error{Kind: kind, Code: code} }

// Field builds an input error about one field.
func Field(code Code, field string) *Error { return &Error{Kind: Invalid, Code: code, Field: field} }

// Wrap classifies err, keeping it for the logs.
func Wrap(kind Kind, code Code, err error) *Error { return &Error{Kind: kind, Code: code, Err: err} }

// Internalf is a server error with a message for the logs only.
func Internalf(format string, args ...any) *Error {
	return &Error{Kind: Internal, Code: CodeInternal, Err: fmt.Errorf(format, args...)}
}

// As returns the classified error in err's chain, or an internal error wrapping err.
func As(err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	return &Error{Kind: Internal, Code: CodeInternal, Err: err}
}

// Is reports whether err is classified with the given kind.
func Is(err error, kind Kind) bool {
	// errors.AsType, unlike errors.As with a pointer, allocates nothing: Is runs on every
	// request, mostly with a nil error.
	e, ok := errors.AsType[*Error](err)
	return ok && e.Kind == kind
}
