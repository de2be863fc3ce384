package httpapi

import "github.com/leadchat/leadchat/internal/limits"

// validIdempotencyKey reports whether k is an Idempotency-Key the contract accepts: 1 to
// limits.IdempotencyKeyMaxLen printable ASCII characters (space to '~'), a space only inside,
// which is what HTTP can carry, since it drops spaces at either end of a header value. The spec's parameter schema says the
// same for the request validator; FuzzIdempotencyKey holds the two together. Anything else
// could not be stored (a byte that is not UTF-8) or could not be told apart in a log.
func validIdempotencyKey(k string) bool {
	if k == "" || len(k) > limits.IdempotencyKeyMaxLen || k[0] == ' ' || k[len(k)-1] == ' ' {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < ' ' || k[i] > '~' {
			return false
		}
	}
	return true
}
