package user

import (
	"crypto/rand"
	"crypto/sha256"
	"time"
)

// LinkValidity is how long a one-time link that sets a password may be used.
const LinkValidity = 24 * time.Hour

// Link is a one-time link's stored half: the SHA-256 of its token and when it expires. The
// token itself is only ever in the link.
type Link struct {
	Hash    [32]byte
	Expires time.Time
}

// NewLink makes the token of a one-time link (256 random bits, URL-safe) and what is stored of it.
func NewLink(now time.Time) (token string, l Link) {
	token = rand.Text() + rand.Text() // 2 × 26 base32 characters, 2 × 130 bits
	return token, Link{Hash: LinkHash(token), Expires: now.Add(LinkValidity)}
}

// LinkHash is what a link's token is stored and looked up as.
func LinkHash(token string) [32]byte { return sha256.Sum256([]byte(token)) }
