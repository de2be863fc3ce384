package httpapi

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
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

// entry is what a client is told for one error code.
type entry struct {
	// kinds are the error kinds the code comes with; status gives each its HTTP status, and
	// the contract's table of codes lists the same statuses.
	kinds []errs.Kind
	// text is the Hungarian sentence. One that ends in a colon is followed by the field's name,
	// which avoids the a/az article that would depend on the word.
	text string
}

// catalogue is every code the service writes, keyed by code: the one place a code gets its
// status and its sentence. The codes are the contract's ErrorCode enum (a test holds the two
// equal), and a number in a sentence is read from the limits table.
var catalogue = map[errs.Code]entry{
	errs.CodeMissingAPIKey:         {kinds(errs.Unauthorized, errs.Invalid), "Hiányzik az API-kulcs."},
	errs.CodeInvalidAPIKey:         {kinds(errs.Unauthorized), "Az API-kulcs érvénytelen vagy visszavonták."},
	errs.CodePrivateKeyFromBrowser: {kinds(errs.Forbidden), "Privát API-kulcs nem használható böngészőből."},
	errs.CodePublicKeyRequired:     {kinds(errs.Forbidden), "Ehhez a végponthoz nyilvános API-kulcs kell."},
	errs.CodePrivateKeyRequired:    {kinds(errs.Forbidden), "Ehhez a végponthoz privát API-kulcs kell."},
	errs.CodeOriginNotAllowed:      {kinds(errs.Forbidden), "Ez a weboldal nem használhatja ezt az API-kulcsot."},
	errs.CodeMissingField:          {kinds(errs.Invalid), "Hiányzó kötelező mező:"},
	errs.CodeInvalidEmail:          {kinds(errs.Invalid), "Az e-mail cím formátuma érvénytelen."},
	errs.CodeInvalidPhone: {kinds(errs.Invalid), fmt.Sprintf(
		"A telefonszám érvénytelen: %d–%d számjegyet adjon meg.", limits.PhoneMinDigits, limits.PhoneMaxDigits)},
	errs.CodeInvalidSource:     {kinds(errs.Invalid), "A forrás (source) csak form, api, chat vagy manual lehet."},
	errs.CodeInvalidField:      {kinds(errs.Invalid), "Érvénytelen mező:"},
	errs.CodeInvalidCharacters: {kinds(errs.Invalid), "A mező nem engedélyezett vezérlőkaraktert tartalmaz:"},
	errs.CodeInvalidReferralData: {kinds(errs.Invalid), fmt.Sprintf(
		"A referral_data csak legfeljebb %d karakteres szöveges értékeket tartalmazhat.", limits.ReferralValueLen)},
	errs.CodeInvalidConsent: {kinds(errs.Invalid), fmt.Sprintf(
		"A hozzájárulás (consent) érvénytelen: a marketing mező igaz vagy hamis lehet, bejelölt hozzájárulásnál "+
			"a szöveg kötelező (legfeljebb %d karakter), az adatkezelési tájékoztató címe https:// kezdetű lehet.",
		limits.ConsentTextLen)},
	errs.CodeInvalidSessionID: {kinds(errs.Invalid), fmt.Sprintf(
		"A session_id %d–%d karakter hosszú lehet, és csak betűket, számokat és a ._:- jeleket tartalmazhatja.",
		limits.SessionIDMinLen, limits.SessionIDMaxLen)},
	errs.CodeInvalidMessageID: {kinds(errs.Invalid), fmt.Sprintf(
		"A message_id %d–%d karakter hosszú lehet, és csak betűket, számokat és a ._:- jeleket tartalmazhatja.",
		limits.MessageIDMinLen, limits.MessageIDMaxLen)},
	errs.CodeInvalidStatus: {kinds(errs.Invalid), "Az állapot (status) csak new, contacted, qualified, won vagy lost lehet."},
	errs.CodeInvalidCursor: {kinds(errs.Invalid), "A lapozási kurzor (cursor) érvénytelen."},
	errs.CodeInvalidJSON:   {kinds(errs.Invalid), "A kérés törzse nem érvényes JSON-objektum."},
	errs.CodeInvalidIdempotencyKey: {kinds(errs.Invalid), fmt.Sprintf(
		"Az Idempotency-Key fejléc %d–%d karakter hosszú lehet.", limits.IdempotencyKeyMinLen, limits.IdempotencyKeyMaxLen)},
	errs.CodeBodyTooLarge: {kinds(errs.TooLarge), fmt.Sprintf(
		"A kérés törzse túl nagy (legfeljebb %d KiB lehet).", limits.BodyBytes>>10)},
	errs.CodeHeadersTooLarge: {kinds(errs.HeadersTooLarge), fmt.Sprintf(
		"A kérés fejlécei túl nagyok (legfeljebb %d KiB lehetnek).", limits.HeaderBytes>>10)},
	errs.CodeUnsupportedMediaType: {kinds(errs.UnsupportedMedia), "A kérés törzsének application/json típusúnak kell lennie."},
	errs.CodeIdempotencyKeyInUse: {kinds(errs.Conflict),
		"Egy azonos Idempotency-Key kulcsú kérés feldolgozása még folyamatban van."},
	errs.CodeIdempotencyKeyReused: {kinds(errs.Unprocessable),
		"Ezt az Idempotency-Key kulcsot már egy másik kéréshez használták."},
	errs.CodeRateLimited: {kinds(errs.RateLimited), "Túl sok kérés érkezett. Kérjük, próbálja újra később."},
	errs.CodeSessionBusy: {kinds(errs.Conflict),
		"A beszélgetésbe egyszerre túl sok üzenet érkezett. Kérjük, küldje el újra."},
	errs.CodeSessionLimit: {kinds(errs.RateLimited), fmt.Sprintf(
		"Ebben a beszélgetésben elérte az üzenetek számának korlátját (%d üzenet).", limits.SessionMessages)},
	errs.CodeInvalidAssignee: {kinds(errs.Invalid),
		"Az érdeklődő csak a cég egyik felhasználójához rendelhető; ilyen azonosítójú felhasználója a cégnek nincs."},
	errs.CodeNotFound:         {kinds(errs.NotFound), "A kért erőforrás nem található."},
	errs.CodeLeadNotFound:     {kinds(errs.NotFound), "A lead nem található."},
	errs.CodeMethodNotAllowed: {kinds(errs.MethodNotAllowed), "Ez a HTTP-metódus itt nem engedélyezett."},
	errs.CodeUnavailable: {kinds(errs.Unavailable),
		"A szolgáltatás átmenetileg nem érhető el. Kérjük, próbálja újra később."},
	errs.CodeInternal: {kinds(errs.Internal), "Belső hiba történt. Kérjük, próbálja újra később."},
}

func kinds(k ...errs.Kind) []errs.Kind { return k }

// describe returns the code, status and sentence a client gets for e. An error whose code is
// not in the catalogue, or comes with a kind its entry does not list, is a server error: so
// the server only ever writes a code of the contract, with a status the contract gives it.
func describe(e *errs.Error) (api.ErrorCode, int, string) {
	ent, ok := catalogue[e.Code]
	st := status(e.Kind)
	if !ok || !slices.Contains(ent.kinds, e.Kind) || st == http.StatusInternalServerError {
		return api.ErrorCodeInternal, http.StatusInternalServerError, catalogue[errs.CodeInternal].text
	}
	text := ent.text
	if strings.HasSuffix(text, ":") {
		field := e.Field
		if field == "" {
			field = "ismeretlen"
		}
		text += " " + field + "."
	}
	return api.ErrorCode(e.Code), st, text
}

// writeError answers with the JSON error body for err. A server error is logged here, once,
// with the request id; the client only ever sees the code and the Hungarian sentence.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := errs.As(err)
	code, st, text := describe(e)
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
	_ = json.NewEncoder(w).Encode(api.Error{Error: text, Code: code})
}
