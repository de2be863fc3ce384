package user

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/argon2id"
	"github.com/leadchat/leadchat/internal/exepages"
)

// Password rules: long enough to resist guessing, bounded so that hashing cost stays fixed.
const (
	MinPasswordLen   = 10   // characters
	MaxPasswordBytes = 1024 // bytes
)

// The argon2id parameters of new hashes: 19 MiB, 2 passes, 1 lane (OWASP's first choice). Each
// hash records its own, so they can change without invalidating stored passwords.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// ErrPasswordTooShort and ErrPasswordTooLong are the password rules' verdicts.
var (
	ErrPasswordTooShort = fmt.Errorf("the password must be at least %d characters", MinPasswordLen)
	ErrPasswordTooLong  = fmt.Errorf("the password must be at most %d bytes", MaxPasswordBytes)
	ErrPasswordInvalid  = errors.New("the password is not valid UTF-8 or holds a NUL character")
)

// CheckPasswordRules reports whether a new password may be used.
func CheckPasswordRules(pw string) error {
	switch {
	case !utf8.ValidString(pw) || strings.ContainsRune(pw, 0):
		return ErrPasswordInvalid
	case len(pw) > MaxPasswordBytes:
		return ErrPasswordTooLong
	case utf8.RuneCountInString(pw) < MinPasswordLen:
		return ErrPasswordTooShort
	}
	return nil
}

// leastArgonMemoryKiB is the least work memory a stored hash may name (parseHash): the cost of
// the test fixtures' hashes (usertest), never written by HashPassword.
const leastArgonMemoryKiB = 8 * 1024

// HashPassword checks the password rules and returns an argon2id hash in the PHC string format
// ($argon2id$v=19$m=19456,t=2,p=1$salt$hash).
func HashPassword(pw string) (string, error) {
	if err := CheckPasswordRules(pw); err != nil {
		return "", err
	}
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argonKey([]byte(pw), salt, argonParams{memory: argonMemoryKiB, time: argonTime, threads: argonThreads}, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2id.Version, argonMemoryKiB, argonTime,
		argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Gate bounds how many password hashes run at once: argon2id takes 19 MiB for each, so logins
// sent together wait for their turn instead of adding up to any amount of memory. It holds the
// hash alone, not the database work around it, so a throttled or failing login does not wait.
type Gate struct {
	turns chan struct{}
	run   *atomic.Int64
}

// NewGate lets n hashes run at once.
func NewGate(n int) Gate { return Gate{turns: make(chan struct{}, n), run: new(atomic.Int64)} }

// Hashed is how many hashes have had their turn since the gate was made: what a flood of
// requests cost in hashing shows there.
func (g Gate) Hashed() int64 { return g.run.Load() }

// hash runs f when a turn is free, or returns the context's error when it ends first.
func (g Gate) hash(ctx context.Context, f func()) error {
	select {
	case g.turns <- struct{}{}:
		defer func() { <-g.turns }()
		g.run.Add(1)
		defer lowerMemoryLimit(argonMemoryKiB << 10)()
		f()
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// memoryLimit serialises the changes of lowerMemoryLimit to the runtime's soft memory limit,
// which is one for the process whatever the number of gates.
var memoryLimit sync.Mutex

// lowerMemoryLimit lowers the Go runtime's soft memory limit by n bytes until the returned
// function is called. A hash's work area is mapped outside the Go heap, where the runtime does
// not count it: without this, the heap could fill the limit's whole room beside it, and the
// process hold the limit plus the hash. A limit no higher than n (or none set) is left alone.
func lowerMemoryLimit(n int64) (restore func()) {
	memoryLimit.Lock()
	defer memoryLimit.Unlock()
	if limit := debug.SetMemoryLimit(-1); limit <= n || limit == math.MaxInt64 {
		return func() {}
	}
	debug.SetMemoryLimit(debug.SetMemoryLimit(-1) - n)
	return func() {
		memoryLimit.Lock()
		defer memoryLimit.Unlock()
		debug.SetMemoryLimit(debug.SetMemoryLimit(-1) + n)
	}
}

// dummyHash is checked when there is no user or no password, so that such a login takes as
// long as a wrong password. It is a constant (the hash of a password nobody has, with the
// parameters above), not computed at start: hashing takes 19 MiB, which would stay in the
// process's resident memory from its first second.
const dummyHash = "$argon2id$v=19$m=19456,t=2,p=1$9OUJH+ptJs/AKxytFNv9EQ$Vu+4ZCOl8Yz2XHh4aSoh+h7/AETlfdtYKBkI4HtOrBQ"

// CheckPassword reports whether pw matches hash, in constant time. An empty or malformed hash
// matches nothing, but costs as much as a real one: a login cannot tell by its time whether
// an account exists.
func CheckPassword(hash, pw string) bool {
	p, salt, want, ok := parseHash(hash)
	if !ok {
		p, salt, want, _ = parseHash(dummyHash)
	}
	if len(pw) > MaxPasswordBytes {
		pw = pw[:MaxPasswordBytes]
	}
	got := argonKey([]byte(pw), salt, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1 && ok
}

// argonKey derives an argon2id key with the process's memory at its least. The key's work
// memory (19 MiB for new hashes) is mapped for the hash alone and unmapped after it, outside
// the Go heap. Before the hash, the heap holds the garbage of the requests since the last
// collection and pages the runtime freed but kept (under load about as much as the live
// heap), and the binary's pages read since they were last released, most of them 64 KiB read
// around one that was needed once: with the hash's 19 MiB on top, that took the process over
// 64 MiB. Both are given back first; a full collection and the pages read again cost far less
// than the hash itself. A hash at the least memory a stored hash may name is derived alone
// (releasesMemory).
func argonKey(pw, salt []byte, p argonParams, keyLen uint32) []byte {
	if releasesMemory(p) {
		debug.FreeOSMemory()
		// Failing, it leaves the pages resident, as they were.
		_, _ = exepages.Release()
	}
	return argon2id.IDKey(pw, salt, p.time, p.memory, p.threads, keyLen)
}

// releasesMemory reports whether a hash of p gives the process's memory back first: every hash
// but one at leastArgonMemoryKiB, which is less than half of HashPassword's work area and one
// pass instead of two, and then costs less than the full collection and the binary's pages
// read again (the test fixtures' logins, usertest).
func releasesMemory(p argonParams) bool { return p.memory > leastArgonMemoryKiB }

type argonParams struct {
	memory  uint32
	time    uint32
	threads uint8
}

// parseHash reads a PHC argon2id string; parameters far outside sane bounds are refused, so a
// tampered row cannot make a login allocate gigabytes.
func parseHash(s string) (p argonParams, salt, key []byte, ok bool) {
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, false
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2id.Version {
		return p, nil, nil, false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &p.threads); err != nil {
		return p, nil, nil, false
	}
	if p.memory < leastArgonMemoryKiB || p.memory > 256*1024 || p.time < 1 || p.time > 10 || p.threads < 1 || p.threads > 8 {
		return p, nil, nil, false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	key, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(key) < 16 || len(key) > 64 {
		return p, nil, nil, false
	}
	return p, salt, key, true
}
