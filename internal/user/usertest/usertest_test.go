package usertest

import (
	"testing"

	"github.com/leadchat/leadchat/internal/user"
)

// The cheap hash logs in with its password alone, and its cost is the least a login accepts:
// a hash made the same way with one KiB less memory is refused.
func TestHashIsTheLeastALoginAccepts(t *testing.T) {
	const pw = "egy jó hosszú jelszó"
	h := Hash(pw)
	if !user.CheckPassword(h, pw) {
		t.Fatalf("CheckPassword refused the password of %s", h)
	}
	if user.CheckPassword(h, pw+"!") {
		t.Error("CheckPassword accepted a wrong password")
	}
	if Hash(pw) == h {
		t.Error("two hashes of one password are the same: no salt")
	}
	if user.CheckPassword(hash(pw, MemoryKiB-1), pw) {
		t.Errorf("a hash of %d KiB logs in: usertest's %d KiB is not the least a login accepts", MemoryKiB-1, MemoryKiB)
	}
}
