package admin

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
)

// Explain turns the error a command returned into the one line the operator reads. An error
// the store classified (not found, unavailable...) is said in words, after whatever the
// command put before it ("company …:"), and what it wraps, a driver's text, is left out: it
// would tell the operator nothing they can act on. Other errors are the commands' own
// sentences, joined into one line. flag.ErrHelp and nil pass through.
func Explain(err error) error {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted")
	}
	msg := err.Error()
	var e *errs.Error
	if errors.As(err, &e) {
		prefix, ok := strings.CutSuffix(msg, e.Error())
		if !ok {
			prefix = ""
		}
		msg = explainKind(strings.TrimSuffix(prefix, ": "), e)
	}
	return errors.New(oneLine(msg))
}

// explainKind says what a classified error means, about subject (which may be "").
func explainKind(subject string, e *errs.Error) string {
	about := func(s string) string {
		if subject == "" {
			return s
		}
		return subject + ": " + s
	}
	switch e.Kind {
	case errs.NotFound:
		if subject == "" {
			return "not found: check the id"
		}
		return subject + " not found: check the id"
	case errs.Unavailable:
		return about("the database did not answer in time or is unreachable; try again")
	case errs.Conflict:
		return about("it conflicts with what is stored (another command changed it meanwhile, or it exists already)")
	case errs.Internal:
		return about("an unexpected error in the database or in leadchat; if it persists, report it with the command you ran")
	}
	what := strings.ReplaceAll(string(e.Code), "_", " ")
	if e.Field != "" {
		what += " (" + e.Field + ")"
	}
	return about(what)
}

// oneLine joins the lines of msg with "; ".
func oneLine(msg string) string {
	lines := strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "; ")
}

// notFound says which thing was not found when err is a store's not found: "company … not
// found: check --company"; other errors pass through.
func notFound(err error, what string, id uuid.UUID, flagName string) error {
	if errs.Is(err, errs.NotFound) {
		return fmt.Errorf("%s %s not found: check --%s", what, id, flagName)
	}
	return err
}

// plural is "1 lead", "2 leads": the English noun for a count. (Hungarian, the widget's and
// the API's language, keeps the singular after a number: "3 üzenet".)
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
