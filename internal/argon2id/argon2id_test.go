package argon2id

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"golang.org/x/crypto/argon2"
)

// The keys are x/crypto's, byte for byte, over lanes, passes, memory sizes that are and are
// not a multiple of the lanes' sync points, key lengths and inputs, and the passwords'
// parameters (19 MiB, 2 passes, 1 lane).
func TestIDKeyMatchesXCrypto(t *testing.T) {
	long := bytes.Repeat([]byte("jelszó "), 150)
	for _, tc := range []struct {
		password, salt []byte
		time, memory   uint32
		threads        uint8
		keyLen         uint32
	}{
		{[]byte("correct horse battery"), []byte("saltsaltsaltsalt"), 2, 19 * 1024, 1, 32},
		{[]byte(""), []byte("12345678"), 1, 8, 1, 16},
		{[]byte("p"), []byte("somesaltsomesalt"), 3, 64, 1, 32},
		{[]byte("árvíztűrő tükörfúrógép"), []byte("0123456789abcdef"), 1, 8 * 1024, 4, 64},
		{long, bytes.Repeat([]byte{0xff}, 32), 2, 1000, 3, 24},
		{[]byte("password"), []byte("somesalt"), 4, 4096 + 7, 2, 32},
		{[]byte{0}, []byte{1, 2, 3, 4, 5, 6, 7, 8}, 10, 33, 8, 128},
	} {
		t.Run(fmt.Sprintf("t=%d m=%d p=%d len=%d", tc.time, tc.memory, tc.threads, tc.keyLen), func(t *testing.T) {
			want := argon2.IDKey(tc.password, tc.salt, tc.time, tc.memory, tc.threads, tc.keyLen)
			got := IDKey(tc.password, tc.salt, tc.time, tc.memory, tc.threads, tc.keyLen)
			if !bytes.Equal(got, want) {
				t.Errorf("IDKey = %x, x/crypto's %x", got, want)
			}
		})
	}
}

// RFC 9106's Argon2id test vector needs a secret and associated data, which IDKey does not
// take; deriveKey does.
func TestRFC9106Vector(t *testing.T) {
	password := bytes.Repeat([]byte{0x01}, 32)
	salt := bytes.Repeat([]byte{0x02}, 16)
	secret := bytes.Repeat([]byte{0x03}, 8)
	data := bytes.Repeat([]byte{0x04}, 12)
	want := []byte{0x0d, 0x64, 0x0d, 0xf5, 0x8d, 0x78, 0x76, 0x6c, 0x08, 0xc0, 0x37, 0xa3, 0x4a, 0x8b, 0x53, 0xc9,
		0xd0, 0x1e, 0xf0, 0x45, 0x2d, 0x75, 0xb6, 0x5e, 0xb5, 0x25, 0x20, 0xe9, 0x6b, 0x01, 0xe6, 0x59}
	if got := deriveKey(argon2id, password, salt, secret, data, 3, 32, 4, 32); !bytes.Equal(got, want) {
		t.Errorf("deriveKey = %x, want %x", got, want)
	}
}

// A password's 19 MiB are not allocated on the Go heap (x/crypto allocates them there).
func TestIDKeyWorksOffTheHeap(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the work area is mapped on Linux and macOS only")
	}
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	pw, salt := []byte("correct horse battery"), []byte("saltsaltsaltsalt")
	heap := allocated(func() { argon2.IDKey(pw, salt, 1, 19*1024, 1, 32) })
	mapped := allocated(func() { IDKey(pw, salt, 1, 19*1024, 1, 32) })
	if heap < 19<<20 {
		t.Fatalf("x/crypto allocated %d bytes: the comparison is off", heap)
	}
	if mapped > 64<<10 {
		t.Errorf("IDKey allocated %d bytes on the heap, want at most 64 KiB (x/crypto: %d)", mapped, heap)
	}
}
