// Package usertest helps tests whose users log in: a password hash that costs little to check.
package usertest

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"

	"golang.org/x/crypto/argon2"
)

// The least argon2id cost that user.CheckPassword accepts in a stored hash: 8 MiB and one
// pass, where user.HashPassword writes 19 MiB and two.
const (
	MemoryKiB = 8 * 1024
	Time      = 1
)

// Hash returns an argon2id hash of pw in the PHC string format at the least cost a login
// accepts, about a fifth of the work of user.HashPassword's. A login checks a hash with the
// parameters the hash names, so a fixture's users log in as any other, only sooner (and
// without the memory release before a hash, which costs more than one this small). Tests of
// what a login costs (its time beside an unknown address's, its memory) store
// user.HashPassword's hashes instead.
func Hash(pw string) string { return hash(pw, MemoryKiB) }

func hash(pw string, memoryKiB uint32) string {
	salt := make([]byte, 16)
	rand.Read(salt)
	key := argon2.IDKey([]byte(pw), salt, Time, memoryKiB, 1, 32)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=1$%s$%s", argon2.Version, memoryKiB, Time,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}
