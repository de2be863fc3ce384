package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/gorilla/mux"

	"github.com/leadchat/leadchat/internal/errs"
)

// validator checks requests against api/openapi.yaml with kin-openapi. Routes are looked up
// once, at start, by gorilla's path template, so a request costs no second routing.
type validator struct {
	routes map[string]*routers.Route // "METHOD /path"
	opts   openapi3filter.Options
}

func newValidator(doc *openapi3.T) *validator {
	v := &validator{routes: map[string]*routers.Route{}, opts: openapi3filter.Options{
		// Keys are checked by authenticate before validation; the security schemes are
		// documentation here.
		AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
		SkipSettingDefaults: true,
	}}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			// kin-openapi would walk the security schemes of every request only to call the
			// no-op above; an operation copy without them skips that walk.
			bare := *op
			bare.Security = &openapi3.SecurityRequirements{}
			v.routes[method+" "+path] = &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: &bare}
		}
	}
	return v
}

func (s *server) validate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route := s.validator.routes[r.Method+" "+stateOf(r.Context()).route]
		if route == nil || r.Method == http.MethodOptions {
			next.ServeHTTP(w, r)
			return
		}
		in := &openapi3filter.RequestValidationInput{Request: r, PathParams: mux.Vars(r), Route: route, Options: &s.validator.opts}
		if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
			s.writeError(w, r, validationError(err))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// validationError turns kin-openapi's verdict into our stable codes. The message kin-openapi
// writes stays in the wrapped error for the logs; clients get the Hungarian sentence.
func validationError(err error) error {
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return errs.Wrap(errs.Invalid, errs.CodeInvalidField, err)
	}
	if re.Parameter != nil {
		return paramError(re.Parameter.Name, err)
	}
	var se *openapi3.SchemaError
	if !errors.As(err, &se) {
		// Not a schema violation: the body did not parse as JSON.
		return &errs.Error{Kind: errs.Invalid, Code: errs.CodeInvalidJSON, Err: err}
	}
	path := se.JSONPointer()
	field := strings.Join(path, ".")
	top := ""
	if len(path) > 0 {
		top = path[0]
	}
	e := &errs.Error{Kind: errs.Invalid, Code: errs.CodeInvalidField, Field: field, Err: err}
	switch {
	case se.SchemaField == "required":
		e.Code = errs.CodeMissingField
		if len(path) == 0 {
			e.Field = missingProperty(se.Reason)
		}
		if e.Field == "api_key" {
			e.Code, e.Field = errs.CodeMissingAPIKey, ""
		}
	case top == "first_name" && se.SchemaField == "minLength":
		e.Code = errs.CodeMissingField
	case top == "email":
		e.Code = errs.CodeInvalidEmail
		if se.SchemaField == "minLength" {
			e.Code = errs.CodeMissingField
		}
	case top == "message" && se.SchemaField == "minLength":
		e.Code = errs.CodeMissingField
	case top == "phone":
		e.Code = errs.CodeInvalidPhone
	case top == "source":
		e.Code = errs.CodeInvalidSource
	case top == "referral_data":
		e.Code, e.Field = errs.CodeInvalidReferralData, "referral_data"
	case top == "status":
		e.Code = errs.CodeInvalidStatus
	case top == "session_id":
		e.Code, e.Field = errs.CodeInvalidSessionID, "session_id"
	case top == "message_id":
		e.Code, e.Field = errs.CodeInvalidMessageID, "message_id"
	case len(path) == 0:
		e.Code, e.Field = errs.CodeInvalidJSON, "" // the body as a whole is not an object
	}
	return e
}

// paramError is the error for a parameter that breaks the contract, whether kin-openapi or the
// generated binding finds it. An id that is not a UUID names no lead.
func paramError(name string, err error) error {
	code := errs.CodeInvalidField
	switch name {
	case "Idempotency-Key":
		code = errs.CodeInvalidIdempotencyKey
	case "api_key":
		code = errs.CodeMissingAPIKey
	case "lead_id":
		return errs.Wrap(errs.NotFound, errs.CodeLeadNotFound, err)
	case "status":
		code = errs.CodeInvalidStatus
	case "source":
		code = errs.CodeInvalidSource
	case "cursor":
		code = errs.CodeInvalidCursor
	default:
		return &errs.Error{Kind: errs.Invalid, Code: code, Field: name, Err: err}
	}
	return &errs.Error{Kind: errs.Invalid, Code: code, Err: err}
}

// missingProperty reads the property name from kin-openapi's `property "x" is missing`.
func missingProperty(reason string) string {
	if i := strings.IndexByte(reason, '"'); i >= 0 {
		if j := strings.IndexByte(reason[i+1:], '"'); j >= 0 {
			return reason[i+1 : i+1+j]
		}
	}
	return ""
}
