package user

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/argon2"

	"github.com/leadchat/leadchat/internal/user/usertest"
)

// The dummy hash is a real hash with today's parameters: checking it costs what a user's does.
func TestDummyHashMatchesParameters(t *testing.T) {
	p, _, key, ok := parseHash(dummyHash)
	if !ok || p.memory != argonMemoryKiB || p.time != argonTime || p.threads != argonThreads || len(key) != argonKeyLen {
		t.Errorf("dummyHash parameters %+v (key %d bytes, ok %v) differ from the hashing parameters", p, len(key), ok)
	}
}

// Every hash the service makes or checks gives the process's memory back first (a new hash, a
// stored one, the dummy of an unknown address); only one at the least cost a login accepts,
// the test fixtures', is derived alone.
func TestHashesReleaseMemoryFirst(t *testing.T) {
	hash, err := HashPassword("egy jó hosszú jelszó")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, hash string
		release    bool
	}{
		{"a new hash", hash, true},
		{"the dummy hash", dummyHash, true},
		{"the least a login accepts (usertest)", usertest.Hash("egy jó hosszú jelszó"), false},
		{"one KiB more than the least", strings.Replace(usertest.Hash("egy jó hosszú jelszó"), fmt.Sprintf("m=%d,", usertest.MemoryKiB),
			fmt.Sprintf("m=%d,", usertest.MemoryKiB+1), 1), true},
	} {
		p, _, _, ok := parseHash(tc.hash)
		if !ok {
			t.Fatalf("%s: %s does not parse", tc.name, tc.hash)
		}
		if got := releasesMemory(p); got != tc.release {
			t.Errorf("%s (%d KiB): releases memory first %v, want %v", tc.name, p.memory, got, tc.release)
		}
	}
}

// A hash's 19 MiB of work memory are not taken from the heap, and the process holds no more
// memory after a hash and a check than before: the heap holds what it held (heap spans not
// released), and the resident memory is no higher (the work area is unmapped).
func TestHashingReturnsItsMemory(t *testing.T) {
	held := func() (heap, total uint64) {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapSys - m.HeapReleased, m.TotalAlloc
	}
	debug.FreeOSMemory()
	before, allocBefore := held()
	rssBefore := residentAnon(t)
	hash, err := HashPassword("egy jó hosszú jelszó")
	if err != nil {
		t.Fatal(err)
	}
	afterHash, allocAfter := held()
	if !CheckPassword(hash, "egy jó hosszú jelszó") {
		t.Fatal("the password does not match its own hash")
	}
	afterCheck, _ := held()
	rssAfter := residentAnon(t)
	const slack = 4 << 20
	if afterHash > before+slack || afterCheck > before+slack {
		t.Errorf("heap held from the system: %.1f MiB before, %.1f MiB after hashing, %.1f MiB after checking (want at most 4 MiB more)",
			mib(before), mib(afterHash), mib(afterCheck))
	}
	if allocAfter-allocBefore > 1<<20 {
		t.Errorf("a hash allocated %.1f MiB on the heap: want its work memory outside it", mib(allocAfter-allocBefore))
	}
	if rssBefore > 0 && rssAfter > rssBefore+slack {
		t.Errorf("anonymous resident memory %.1f MiB before, %.1f MiB after a hash and a check (want at most 4 MiB more)",
			mib(rssBefore), mib(rssAfter))
	}
}

// Hashes stored before the work memory left the heap, made by golang.org/x/crypto/argon2 (the
// passwords' parameters, and the tests' cheaper ones), still match; and a new hash is the one
// x/crypto computes from its salt.
func TestHashesOfXCryptoMatch(t *testing.T) {
	const pw = "régi jelszó, régi hash"
	salt := []byte("0123456789abcdef")
	b64 := base64.RawStdEncoding
	for _, p := range []argonParams{{argonMemoryKiB, argonTime, argonThreads}, {usertest.MemoryKiB, usertest.Time, 1}} {
		key := argon2.IDKey([]byte(pw), salt, p.time, p.memory, p.threads, argonKeyLen)
		stored := fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$%s$%s", p.memory, p.time, p.threads,
			b64.EncodeToString(salt), b64.EncodeToString(key))
		if !CheckPassword(stored, pw) {
			t.Errorf("x/crypto's hash %s does not match its password", stored)
		}
		if CheckPassword(stored, pw+"!") {
			t.Errorf("x/crypto's hash %s matches another password", stored)
		}
	}
	if h := usertest.Hash(pw); !CheckPassword(h, pw) {
		t.Errorf("usertest's hash %s does not match its password", h)
	}
	h, err := HashPassword(pw)
	if err != nil {
		t.Fatal(err)
	}
	p, salt, key, ok := parseHash(h)
	if !ok {
		t.Fatalf("HashPassword wrote %q, which does not parse", h)
	}
	if want := argon2.IDKey([]byte(pw), salt, p.time, p.memory, p.threads, uint32(len(key))); !bytes.Equal(key, want) {
		t.Errorf("HashPassword's key %x, x/crypto's %x", key, want)
	}
}

// While hashes run, the runtime's soft memory limit is lower by a hash's work memory for each
// (the runtime does not count memory mapped outside its heap), and back where it was after.
func TestGateLowersMemoryLimitWhileHashing(t *testing.T) {
	const work = argonMemoryKiB << 10
	for _, tc := range []struct {
		name              string
		limit, whileThree int64
	}{
		{"room for three hashes", 64 << 20, 64<<20 - 3*work},
		{"room for two", 48 << 20, 48<<20 - 2*work},
		{"no room", 16 << 20, 16 << 20},
		{"no limit", math.MaxInt64, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := debug.SetMemoryLimit(tc.limit)
			t.Cleanup(func() { debug.SetMemoryLimit(old) })
			g := NewGate(3)
			var entered, running sync.WaitGroup
			entered.Add(3)
			release := make(chan struct{})
			for range 3 {
				running.Go(func() {
					g.hash(context.Background(), func() {
						entered.Done()
						<-release
					})
				})
			}
			entered.Wait()
			seen := debug.SetMemoryLimit(-1)
			close(release)
			running.Wait()
			if seen != tc.whileThree {
				t.Errorf("limit while three hashes run: %d, want %d", seen, tc.whileThree)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.limit {
				t.Errorf("limit after the hashes: %d, want %d as before", got, tc.limit)
			}
		})
	}
}

// residentAnon is the process's anonymous resident memory (heap, stacks, mappings such as the
// hash's work area), in bytes; 0 where /proc does not tell.
func residentAnon(t *testing.T) uint64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	return 0
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }
