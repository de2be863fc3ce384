// Package auth holds what an API key is and where it may be used from: generating, parsing and
// hashing keys, and matching a request's origin against a key's allowed domains.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
)

// Kind tells where a key may be used: a public key is meant to sit in a web page, a private key
// only on a server.
type Kind string

// The two kinds of key; their values are what the database stores.
const (
	Public  Kind = "public"
	Private Kind = "private"
)

// ParseKind reads a kind as given on the command line, so "Public " works as well as "public".
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case string(Public):
		return Public, nil
	case string(Private):
		return Private, nil
	}
	return "", fmt.Errorf("unknown key kind %q: want %q or %q", s, Public, Private)
}

// ErrMalformed is wrapped by every error of Parse, so callers can tell a key that cannot be ours
// (answered without a database lookup) from one that is well formed but unknown.
var ErrMalformed = errors.New("malformed API key")

// The key format, GitHub-token style: a prefix naming the kind, so people and secret scanners
// can tell a private key at a glance (lc_priv_[0-9A-Za-z]{38}); randomLen base62 characters from
// crypto/rand (32 × log2(62) ≈ 190 bits); and checksumLen base62 characters of the CRC32 (IEEE)
// of everything before them, so a mistyped or truncated key is rejected without a database hit.
const (
	publicPrefix  = "lc_pub_"
	privatePrefix = "lc_priv_"
	randomLen     = 32
	checksumLen   = 6 // 62^6 > 2^32, so any CRC32 fits
	displayLen    = 4 // random characters shown in listings: enough to tell keys apart, not to guess one
)

// base62 is in ASCII order, so a key's characters sort the way its bytes do.
const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// prefix is the key prefix of a kind, or "" for a kind that is neither.
func (k Kind) prefix() string {
	switch k {
	case Public:
		return publicPrefix
	case Private:
		return privatePrefix
	}
	return ""
}

// Generate makes a new key of a kind; the caller shows it once and stores only Hash of it.
func Generate(kind Kind) (string, error) {
	p := kind.prefix()
	if p == "" {
		return "", fmt.Errorf("generate key: unknown key kind %q", kind)
	}
	b := make([]byte, 0, len(p)+randomLen+checksumLen)
	b = append(b, p...)
	b, err := appendRandom(b, randomLen)
	if err != nil {
		return "", fmt.Errorf("generate key: %w", err)
	}
	b = appendChecksum(b, crc32.ChecksumIEEE(b))
	return string(b), nil
}

// appendRandom appends n uniformly random base62 characters. Bytes of 248 and above are
// dropped rather than reduced modulo 62, which would favour the first eight characters.
func appendRandom(b []byte, n int) ([]byte, error) {
	const limit = 256 - 256%len(base62) // 248
	var buf [64]byte
	for n > 0 {
		if _, err := rand.Read(buf[:]); err != nil {
			return nil, err
		}
		for _, c := range buf {
			if n == 0 {
				break
			}
			if int(c) < limit {
				b = append(b, base62[int(c)%len(base62)])
				n--
			}
		}
	}
	return b, nil
}

// appendChecksum appends sum as exactly checksumLen base62 digits, most significant first.
func appendChecksum(b []byte, sum uint32) []byte {
	var d [checksumLen]byte
	for i := checksumLen - 1; i >= 0; i-- {
		d[i] = base62[sum%uint32(len(base62))]
		sum /= uint32(len(base62))
	}
	return append(b, d[:]...)
}

// Parse checks a key's form (prefix, length, characters, checksum) and tells its kind. It does
// no lookup and bounds its work by the key length before reading further, so it can run on every
// request before the database is asked; its errors wrap ErrMalformed and never quote the key.
func Parse(key string) (Kind, error) {
	var kind Kind
	switch {
	case strings.HasPrefix(key, publicPrefix):
		kind = Public
	case strings.HasPrefix(key, privatePrefix):
		kind = Private
	default:
		return "", fmt.Errorf("%w: unknown prefix", ErrMalformed)
	}
	p := kind.prefix()
	if len(key) != kind.keyLen() {
		return "", fmt.Errorf("%w: wrong length", ErrMalformed)
	}
	for i := len(p); i < len(key); i++ {
		if !isBase62(key[i]) {
			return "", fmt.Errorf("%w: invalid character", ErrMalformed)
		}
	}
	body := key[:len(key)-checksumLen]
	var want [checksumLen]byte
	appendChecksum(want[:0], crc32.ChecksumIEEE([]byte(body)))
	if key[len(body):] != string(want[:]) {
		return "", fmt.Errorf("%w: checksum mismatch", ErrMalformed)
	}
	return kind, nil
}

// keyLen is the length of a key of kind k.
func (k Kind) keyLen() int { return len(k.prefix()) + randomLen + checksumLen }

func isBase62(c byte) bool {
	return '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
}

// Hash is what the database stores in place of a key: SHA-256 of the whole key. A key carries
// 190 random bits, so a fast unsalted hash is enough to make a leaked table useless.
func Hash(key string) [32]byte {
	// A key's bytes are copied to the stack to be hashed: a conversion would put each key
	// longer than 32 bytes on the heap.
	var buf [64]byte
	return sha256.Sum256(append(buf[:0], key...))
}

// DisplayPrefix is the part of a key shown in listings, the kind prefix and the first four
// random characters (lc_pub_AbC1); it is "" for a key that Parse rejects.
func DisplayPrefix(key string) string {
	kind, err := Parse(key)
	if err != nil {
		return ""
	}
	return key[:len(kind.prefix())+displayLen]
}
