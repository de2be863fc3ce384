package httpapi

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/leadchat/leadchat/internal/errs"
)

// status maps an error kind to its HTTP status: the one place that does.
func status(k errs.Kind) int {
	switch k {
	case errs.Invalid:
		return http.StatusBadRequest
	case errs.Unauthorized:
		return http.StatusUnauthorized
	case errs.Forbidden:
		return http.StatusForbidden
	case errs.NotFound:
		return http.StatusNotFound
	case errs.MethodNotAllowed:
		return http.StatusMethodNotAllowed
	case errs.Conflict:
		return http.StatusConflict
	case errs.Unprocessable:
		return http.StatusUnprocessableEntity
	case errs.TooLarge:
		return http.StatusRequestEntityTooLarge
	case errs.UnsupportedMedia:
		return http.StatusUnsupportedMediaType
	case errs.RateLimited:
		return http.StatusTooManyRequests
	case errs.Unavailable:
		return http.StatusServiceUnavailable
	case errs.HeadersTooLarge:
		return http.StatusRequestHeaderFieldsTooLarge
	}
	return http.StatusInternalServerError
}

// message is the Hungarian sentence for an error code: the one catalogue of them. A field name is
// quoted after a colon, which avoids the a/az article that would depend on the word.
func message(e *errs.Error) string {
	field := e.Field
	if field == "" {
		field = "ismeretlen"
	}
	switch e.Code {
	case "missing_api_key":
		return "Hiányzik az API-kulcs."
	case "invalid_api_key":
		return "Az API-kulcs érvénytelen vagy visszavonták."
	case "private_key_from_browser":
		return "Privát API-kulcs nem használható böngészőből."
	case "public_key_required":
		return "Ehhez a végponthoz nyilvános API-kulcs kell."
	case "origin_not_allowed":
		return "Ez a weboldal nem használhatja ezt az API-kulcsot."
	case "missing_field":
		return "Hiányzó kötelező mező: " + field + "."
	case "invalid_email":
		return "Az e-mail cím formátuma érvénytelen."
	case "invalid_phone":
		return "A telefonszám érvénytelen: 6–15 számjegyet adjon meg."
	case "invalid_source":
		return "A forrás (source) csak form, api, chat vagy manual lehet."
	case "invalid_field":
		return "Érvénytelen mező: " + field + "."
	case "invalid_referral_data":
		return "A referral_data csak legfeljebb 2048 karakteres szöveges értékeket tartalmazhat."
	case "invalid_session_id":
		return "A session_id legfeljebb 128 karakter lehet, és csak betűket, számokat és a ._:- jeleket tartalmazhatja."
	case "invalid_json":
		return "A kérés törzse nem érvényes JSON-objektum."
	case "invalid_idempotency_key":
		return "Az Idempotency-Key fejléc 1–255 nyomtatható ASCII-karakterből állhat."
	case "body_too_large":
		return "A kérés törzse túl nagy (legfeljebb 64 KiB lehet)."
	case "unsupported_media_type":
		return "A kérés törzsének application/json típusúnak kell lennie."
	case "idempotency_key_in_use":
		return "Egy azonos Idempotency-Key kulcsú kérés feldolgozása még folyamatban van."
	case "idempotency_key_reused":
		return "Ezt az Idempotency-Key kulcsot már egy másik kéréshez használták."
	case "rate_limited":
		return "Túl sok kérés érkezett. Kérjük, próbálja újra később."
	case "session_limit":
		return "Ebben a beszélgetésben elérte az üzenetek számának korlátját."
	case "not_found":
		return "A kért erőforrás nem található."
	case "method_not_allowed":
		return "Ez a HTTP-metódus itt nem engedélyezett."
	case "headers_too_large":
		return "A kérés fejlécei túl nagyok."
	case "unavailable":
		return "A szolgáltatás átmenetileg nem érhető el. Kérjük, próbálja újra később."
	}
	return "Belső hiba történt. Kérjük, próbálja újra később."
}

// errorBody is the one shape of every error response.
type errorBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// writeError answers with the JSON error body for err. A server error is logged here, once,
// with the request id; the client only ever sees the code and the Hungarian sentence.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := errs.As(err)
	st := status(e.Kind)
	code := e.Code
	if st == http.StatusInternalServerError {
		code = "internal"
	}
	if st >= 500 {
		// An outage is expected and shows in every request during it: a warning, not an error.
		level := slog.LevelError
		if st == http.StatusServiceUnavailable {
			level = slog.LevelWarn
		}
		s.log.Log(r.Context(), level, "request failed", "request_id", requestID(r.Context()),
			"method", clip(r.Method), "path", clip(r.URL.Path), "status", st, "err", err.Error())
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Del("Content-Length")
	w.WriteHeader(st)
	_ = json.NewEncoder(w).Encode(errorBody{Error: message(e), Code: code})
}
