package httpapi

import (
	"errors"
	"net/http"
	"slices"
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
	routes map[routeKey]*routers.Route
	opts   openapi3filter.Options
	// params and bodies are the operations' parameters and JSON body schemas compiled for the
	// common case (bodyCheck): a request they accept, kin-openapi would accept.
	params map[routeKey][]paramCheck
	bodies map[routeKey]*bodyCheck
}

// routeKey names an operation by its method and path template.
type routeKey struct{ method, path string }

func newValidator(doc *openapi3.T) *validator {
	v := &validator{routes: map[routeKey]*routers.Route{}, opts: openapi3filter.Options{
		// Keys are checked by authenticate before validation; the security schemes are
		// documentation here.
		AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
		SkipSettingDefaults: true,
		// The body is parsed once: the value kin-openapi decoded and validated stays on the
		// request, and the generated strict handler binds it instead of decoding the JSON again.
		KeepValidatedValue: true,
	}, params: map[routeKey][]paramCheck{}, bodies: map[routeKey]*bodyCheck{}}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			// kin-openapi would walk the security schemes of every request only to call the
			// no-op above; an operation copy without them skips that walk.
			bare := *op
			bare.Security = &openapi3.SecurityRequirements{}
			v.routes[routeKey{method, path}] = &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: &bare}
			// OpenAPI 3.1 schemas are validated by other rules, which bodyCheck does not follow.
			if doc.IsOpenAPI31OrLater() {
				continue
			}
			if checks, ok := compileParamChecks(item, op); ok {
				v.params[routeKey{method, path}] = checks
			}
			if rb := op.RequestBody; rb != nil && rb.Value != nil {
				if mt := rb.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
					v.bodies[routeKey{method, path}] = compileBodyCheck(mt.Schema.Value)
				}
			}
		}
	}
	return v
}

func (s *server) validate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := stateOf(r.Context())
		key := routeKey{r.Method, st.route}
		route := s.validator.routes[key]
		if route == nil || r.Method == http.MethodOptions {
			next.ServeHTTP(w, r)
			return
		}
		// A request whose parameters and body the compiled checks accept, kin-openapi would
		// accept: it needs no second look. Any other, kin-openapi validates whole, so its error
		// is the one answered.
		if checks, ok := s.validator.params[key]; ok && paramsAccepted(checks, r, st.query) {
			if route.Operation.RequestBody == nil {
				next.ServeHTTP(w, r)
				return
			}
			if check := s.validator.bodies[key]; check != nil && len(st.body) > 0 && r.Header.Get("Content-Type") == "application/json" {
				if value, ok := fastBody(check, st.body, st.plain); ok {
					st.validated = validatedBody{ReadCloser: r.Body, value: value}
					r.Body = &st.validated
					next.ServeHTTP(w, r)
					return
				}
			}
		}
		in := &st.validation
		*in = openapi3filter.RequestValidationInput{Request: r, PathParams: mux.Vars(r), QueryParams: st.query,
			Route: route, Options: &s.validator.opts}
		if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
			s.writeError(w, r, validationError(err, route.Operation))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// validationError turns kin-openapi's verdict on a request to op into our stable codes. The
// message kin-openapi writes stays in the wrapped error for the logs; clients get the Hungarian
// sentence. Keys never get here: authenticate has resolved the request's key before it is
// validated, so an absent, empty or malformed one was answered there.
func validationError(err error, op *openapi3.Operation) error {
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
	e := &errs.Error{Kind: errs.Invalid, Code: errs.CodeInvalidField, Field: strings.Join(path, "."), Err: err}
	if len(path) == 0 {
		switch se.SchemaField {
		case "required":
			e.Code, e.Field = errs.CodeMissingField, missingProperty(se.Reason)
		default:
			e.Code, e.Field = errs.CodeInvalidJSON, "" // the body as a whole is not an object
		}
		return e
	}
	top := path[0]
	code, own := fieldCodes[top]
	switch {
	case se.SchemaField == "required":
		e.Code = errs.CodeMissingField
	case emptyRequired(se, path, op):
		e.Code = errs.CodeMissingField
	case own:
		e.Code, e.Field = code, top
	}
	return e
}

// emptyRequired reports whether se is a required body property sent empty: missing, as one
// blank after trimming is.
func emptyRequired(se *openapi3.SchemaError, path []string, op *openapi3.Operation) bool {
	return se.SchemaField == "minLength" && len(path) == 1 && se.Schema != nil && se.Schema.MinLength == 1 &&
		slices.Contains(bodyRequired(op), path[0])
}

// fieldCodes are the body properties with an error code of their own, answered whatever part
// of their schema they break (type, length, format, enum); the contract's table of codes says
// the same. Every other property's is invalid_field.
var fieldCodes = map[string]errs.Code{
	"email":         errs.CodeInvalidEmail,
	"phone":         errs.CodeInvalidPhone,
	"source":        errs.CodeInvalidSource,
	"referral_data": errs.CodeInvalidReferralData,
	"consent":       errs.CodeInvalidConsent,
	"status":        errs.CodeInvalidStatus,
	"session_id":    errs.CodeInvalidSessionID,
	"message_id":    errs.CodeInvalidMessageID,
}

// bodyRequired lists the required properties of op's JSON request body.
func bodyRequired(op *openapi3.Operation) []string {
	if op == nil || op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil
	}
	mt := op.RequestBody.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	return mt.Schema.Value.Required
}

// paramError is the error for a parameter that breaks the contract, whether kin-openapi or the
// generated binding finds it. An id that is not a UUID names no lead.
func paramError(name string, err error) error {
	code := errs.CodeInvalidField
	switch name {
	case "Idempotency-Key":
		code = errs.CodeInvalidIdempotencyKey
	case "lead_id":
		return errs.Wrap(errs.NotFound, errs.CodeLeadNotFound, err)
	case "status":
		code = errs.CodeInvalidStatus
	case "source":
		code = errs.CodeInvalidSource
	case "cursor":
		code = errs.CodeInvalidCursor
	case "session_id":
		return &errs.Error{Kind: errs.Invalid, Code: errs.CodeInvalidSessionID, Field: name, Err: err}
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
