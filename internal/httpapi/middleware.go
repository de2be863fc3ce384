package httpapi

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

// DefaultRequestTimeout bounds a request's work (database and model included). A handler whose
// work is longer by design (the dashboard's export) leaves it behind on purpose.
const DefaultRequestTimeout = 25 * time.Second

// withRequestID gives every request an id, returned as X-Request-Id and logged with its errors,
// a deadline timeout from now (armed by deadline when first waited on; nil is
// context.WithDeadline), and the state the later layers fill in.
func withRequestID(deadline func(context.Context, time.Duration) (context.Context, context.CancelFunc), timeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The id correlates a response with its log lines; it need not be secret, so the
		// runtime's generator (seeded from the OS, no system call per request) makes it.
		var b [8]byte
		var id [16]byte
		binary.LittleEndian.PutUint64(b[:], rand.Uint64())
		hex.Encode(id[:], b[:])
		st := &state{id: string(id[:]), route: "unmatched", base: r.Context(), proto: r.ProtoMajor}
		st.idHeader[0] = st.id
		w.Header()["X-Request-Id"] = st.idHeader[:] // the state's own slice: no allocation
		st.ctx.start(r.Context(), st, timeout, deadline)
		defer st.ctx.end()
		next.ServeHTTP(w, r.WithContext(&st.ctx))
	})
}

// limitHeaders refuses requests whose request line and headers are over limits.HeaderBytes, the
// dashboard's as the API's. The HTTP server reads up to limits.ServerHeaderBytes before it answers
// 431 itself; every request in between gets this package's JSON 431.
func (s *server) limitHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := len(r.Method) + len(r.URL.RawQuery) + len(r.URL.Path)
		for k, vs := range r.Header {
			for _, v := range vs {
				n += len(k) + len(v) + 4
			}
		}
		if n > limits.HeaderBytes {
			s.writeError(w, r, errs.E(errs.HeadersTooLarge, errs.CodeHeadersTooLarge))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// recoverer turns a panic into the JSON internal error; the panic value goes to the log only.
func (s *server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.writeError(w, r, errs.Internalf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// cors lets browsers on any site call the documented endpoints (their keys, not cookies, are
// the credentials) and answers their preflights.
func cors(next http.Handler) http.Handler {
	// Every response carries the same two values: the slices are made once and shared, since
	// setting a header replaces its slice and never writes into it.
	origin := []string{"*"}
	expose := []string{"X-Lead-Limit, X-Lead-Count, Retry-After, X-Request-Id, Idempotent-Replayed"}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Access-Control-Allow-Origin"] = origin
		h["Access-Control-Expose-Headers"] = expose
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Content-Type, Authorization, X-Api-Key, Idempotency-Key")
			h.Set("Access-Control-Max-Age", "86400")
		}
		next.ServeHTTP(w, r)
	})
}

// readBody enforces what every JSON body must be before anything parses it: JSON by its
// Content-Type (415), at most limits.BodyBytes (413), valid UTF-8 (Go's decoder would silently
// replace bad bytes). The body is kept in the context for key extraction and idempotency hashing.
func (s *server) readBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost && r.Method != http.MethodPatch {
			next.ServeHTTP(w, r)
			return
		}
		if !jsonContent(r) {
			s.writeError(w, r, errs.E(errs.UnsupportedMedia, errs.CodeUnsupportedMediaType))
			return
		}
		if r.ContentLength > limits.BodyBytes {
			s.writeError(w, r, errs.E(errs.TooLarge, errs.CodeBodyTooLarge))
			return
		}
		// A body of known length ends there (net/http reads no further), which the check above
		// bounds; only a chunked one needs the byte limit on the reader.
		in := r.Body
		if r.ContentLength < 0 {
			in = http.MaxBytesReader(w, r.Body, limits.BodyBytes)
		}
		body, err := readAll(in, r.ContentLength)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				s.writeError(w, r, errs.E(errs.TooLarge, errs.CodeBodyTooLarge))
				return
			}
			s.writeError(w, r, errs.Wrap(errs.Invalid, errs.CodeInvalidJSON, err))
			return
		}
		st := stateOf(r.Context())
		// A plain object (plainObject) is valid UTF-8 and JSON no deeper than maxJSONDepth, and
		// its decoded value spares validate a second pass. Any other body is checked whole:
		// json.Valid also refuses a second value after the first, which decoders would ignore.
		if st.plain, _ = plainObject(body); st.plain == nil &&
			(!utf8.Valid(body) || !json.Valid(body) || tooDeep(body, maxJSONDepth)) {
			s.writeError(w, r, errs.E(errs.Invalid, errs.CodeInvalidJSON))
			return
		}
		st.body = body
		st.bodyReader.Reset(body)
		r.Body = &st.bodyReader // in the state, which is allocated anyway
		next.ServeHTTP(w, r)
	})
}

// jsonContent reports whether the request's Content-Type is JSON. navigator.sendBeacon sends
// a string as text/plain, which needs no preflight: the widget's events come so, and are
// relabelled JSON for the later layers.
func jsonContent(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	if ct == "application/json" {
		return true // the common case, which needs no parsing
	}
	mt, _, err := mime.ParseMediaType(ct)
	if mt == "text/plain" && r.URL.Path == pathEvents {
		mt = "application/json"
		r.Header.Set("Content-Type", mt)
	}
	return err == nil && mt == "application/json"
}

// readAll is io.ReadAll in one allocation of the body's size when its length is known, where
// io.ReadAll would start at 512 bytes and grow. It returns what io.ReadAll returns: a body
// longer than told still reads whole, and an error of the reader (a body cut short) is
// returned, never taken for its end.
func readAll(body io.Reader, length int64) ([]byte, error) {
	if length <= 0 {
		return io.ReadAll(body)
	}
	buf := make([]byte, 0, length+1) // the extra byte finds a body longer than told
	for len(buf) < cap(buf) {
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	rest, err := io.ReadAll(body)
	return append(buf, rest...), err
}

// maxJSONDepth bounds nesting: no request of the contract goes deeper than 3, and a deep
// document costs every later parser and validator.
const maxJSONDepth = 16

// tooDeep reports whether valid JSON nests objects and arrays deeper than max.
func tooDeep(b []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > max {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}
