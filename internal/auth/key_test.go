package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"testing"
)

// Keys whose checksums were computed outside Go (Python's zlib.crc32), so the format is pinned
// by something other than the code under test.
const (
	publicVector  = "lc_pub_AbC1dEf2GhI3jKl4MnO5pQr6StU7vWx837Nuj8"
	privateVector = "lc_priv_AbC1dEf2GhI3jKl4MnO5pQr6StU7vWx82r6Ntx"
)

func TestParseKind(t *testing.T) {
	tests := []struct {
		name, in string
		want     Kind
		wantErr  bool
	}{
		{"public", "public", Public, false},
		{"private", "private", Private, false},
		{"case and spaces ignored", " Private\n", Private, false},
		{"empty rejected", "", "", true},
		{"unknown rejected", "secret", "", true},
		{"prefix is not a kind", "lc_pub_", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseKind(tt.in)
			if got != tt.want {
				t.Errorf("ParseKind(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if (err != nil) != tt.wantErr {
				t.Errorf("ParseKind(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			}
		})
	}
}

func TestGenerateParsesBack(t *testing.T) {
	tests := []struct {
		name    string
		kind    Kind
		pattern string
	}{
		{"public key", Public, `^lc_pub_[0-9A-Za-z]{38}$`},
		{"private key matches the secret scanners' pattern", Private, `^lc_priv_[0-9A-Za-z]{38}$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			re := regexp.MustCompile(tt.pattern)
			seen := map[string]bool{}
			for range 100 {
				key, err := Generate(tt.kind)
				if err != nil {
					t.Fatalf("Generate(%q): %v", tt.kind, err)
				}
				if !re.MatchString(key) {
					t.Fatalf("Generate(%q) = %q, want a match of %s", tt.kind, key, tt.pattern)
				}
				got, err := Parse(key)
				if err != nil || got != tt.kind {
					t.Fatalf("Parse(%q) = %q, %v; want %q, nil", key, got, err, tt.kind)
				}
				if seen[key] {
					t.Fatalf("Generate(%q) repeated %q", tt.kind, key)
				}
				seen[key] = true
			}
		})
	}
}

func TestGenerateUnknownKindFails(t *testing.T) {
	if key, err := Generate("secret"); err == nil {
		t.Errorf(`Generate("secret") = %q, nil; want an error`, key)
	}
}

func TestParseAcceptsVectors(t *testing.T) {
	tests := []struct {
		name, key string
		want      Kind
	}{
		{"public vector", publicVector, Public},
		{"private vector", privateVector, Private},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.key)
			if err != nil || got != tt.want {
				t.Errorf("Parse(%q) = %q, %v; want %q, nil", tt.key, got, err, tt.want)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	body := publicVector[len(publicPrefix):]
	tests := []struct{ name, key string }{
		{"empty", ""},
		{"prefix only", publicPrefix},
		{"unknown prefix", "lc_sec_" + body},
		{"upper-case prefix", "LC_PUB_" + body},
		{"public body relabelled private", privatePrefix + body},
		{"private body relabelled public", publicPrefix + privateVector[len(privatePrefix):]},
		{"one character short", publicVector[:len(publicVector)-1]},
		{"one character long", publicVector + "0"},
		{"leading space", " " + publicVector},
		{"trailing newline", publicVector + "\n"},
		{"hyphen in random part", publicVector[:10] + "-" + publicVector[11:]},
		{"underscore in checksum", publicVector[:len(publicVector)-1] + "_"},
		{"non-ASCII of the same byte length", publicVector[:10] + "é" + publicVector[12:]},
		{"invalid UTF-8", publicVector[:10] + "\xff" + publicVector[11:]},
		{"NUL byte", publicVector[:10] + "\x00" + publicVector[11:]},
		{"checksum swapped between kinds", publicVector[:len(publicVector)-checksumLen] + privateVector[len(privateVector)-checksumLen:]},
		{"huge", publicPrefix + strings.Repeat("A", 1<<20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertMalformed(t, tt.key)
		})
	}
}

// Every single-character change, in the random part or in the checksum, must fail: CRC32 finds
// every error burst of up to 32 bits, and the checksum's encoding is canonical.
func TestParseRejectsEveryChangedCharacter(t *testing.T) {
	for _, key := range []string{publicVector, privateVector} {
		start := strings.IndexByte(key[3:], '_') + 4
		for i := start; i < len(key); i++ {
			for j := 0; j < len(base62); j++ {
				if base62[j] == key[i] {
					continue
				}
				assertMalformed(t, key[:i]+string(base62[j])+key[i+1:])
			}
		}
	}
}

func assertMalformed(t *testing.T, key string) {
	t.Helper()
	kind, err := Parse(key)
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("Parse(%.60q) = %q, %v; want an error wrapping ErrMalformed", key, kind, err)
	}
	if len(key) > 8 && strings.Contains(err.Error(), key[8:]) {
		t.Fatalf("Parse error %q quotes the key", err)
	}
	if got := DisplayPrefix(key); got != "" {
		t.Fatalf("DisplayPrefix(%.60q) = %q, want empty for a malformed key", key, got)
	}
}

func TestChecksumEncoding(t *testing.T) {
	tests := []struct {
		name string
		sum  uint32
		want string
	}{
		{"zero is padded", 0, "000000"},
		{"one", 1, "000001"},
		{"largest CRC32 fits six characters", 1<<32 - 1, "4gfFC3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendChecksum(nil, tt.sum)); got != tt.want {
				t.Errorf("appendChecksum(%d) = %q, want %q", tt.sum, got, tt.want)
			}
		})
	}
}

func TestHash(t *testing.T) {
	tests := []struct{ name, key, want string }{
		{"SHA-256 of the whole key", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"public vector", publicVector, sha256Hex(publicVector)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := Hash(tt.key)
			if got := hex.EncodeToString(h[:]); got != tt.want {
				t.Errorf("Hash(%q) = %s, want %s", tt.key, got, tt.want)
			}
		})
	}
	if Hash(publicVector) == Hash(privateVector) {
		t.Error("two keys hash the same")
	}
	// Every length, around the stack buffer's size and past it, hashes the key's bytes.
	for n := range 200 {
		key := strings.Repeat("k", n)
		if got, want := Hash(key), sha256.Sum256([]byte(key)); got != want {
			t.Errorf("Hash of %d bytes = %x, want %x", n, got, want)
		}
	}
	// A key of either kind is hashed without an allocation.
	for _, key := range []string{publicVector, privateVector} {
		if n := testing.AllocsPerRun(100, func() { _ = Hash(key) }); n != 0 {
			t.Errorf("Hash of a %d-byte key: %v allocations", len(key), n)
		}
	}
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func TestDisplayPrefix(t *testing.T) {
	tests := []struct{ name, key, want string }{
		{"public key", publicVector, "lc_pub_AbC1"},
		{"private key", privateVector, "lc_priv_AbC1"},
		{"malformed key shows nothing", publicVector[:20], ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DisplayPrefix(tt.key); got != tt.want {
				t.Errorf("DisplayPrefix(%q) = %q, want %q", tt.key, got, tt.want)
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		if _, err := Parse(privateVector); err != nil {
			b.Fatal(err)
		}
	}
}
