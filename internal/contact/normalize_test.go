package contact

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"
)

func TestNormalizeEmail(t *testing.T) {
	ok := []struct{ name, in, want string }{
		{"plain", "anna@example.hu", "anna@example.hu"},
		{"trimmed", "  anna@example.hu\n", "anna@example.hu"},
		{"domain lower-cased, local kept", "Anna.Nagy@Example.HU", "Anna.Nagy@example.hu"},
		{"plus tag", "anna+leads@mail.example.co.uk", "anna+leads@mail.example.co.uk"},
		{"hyphen and digits in domain", "x_1@my-shop2.hu", "x_1@my-shop2.hu"},
		{"punycode domain", "info@xn--kvcs-3qa0b.hu", "info@xn--kvcs-3qa0b.hu"},
		{"64 character local part", strings.Repeat("a", 64) + "@x.hu", strings.Repeat("a", 64) + "@x.hu"},
		{"254 characters", longEmail(254), longEmail(254)},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			got, err := NormalizeEmail(c.in)
			if err != nil {
				t.Fatalf("NormalizeEmail(%q) error %v", c.in, err)
			}
			if got != c.want {
				t.Errorf("NormalizeEmail(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}

	bad := []struct{ name, in string }{
		{"empty", ""},
		{"blank", "   "},
		{"no at", "anna.example.hu"},
		{"two ats", "anna@b@example.hu"},
		{"display name", `"Bob" <b@x.hu>`},
		{"bare display name", `Bob <b@x.hu>`},
		{"angle brackets", "<b@x.hu>"},
		{"comment", "b@x.hu (Bob)"},
		{"quoted local part", `"b c"@x.hu`},
		{"two addresses", "a@x.hu, b@x.hu"},
		{"space inside", "an na@x.hu"},
		{"tab inside", "anna@x\t.hu"},
		{"control character", "anna\x00@x.hu"},
		{"no dot in domain", "anna@localhost"},
		{"ip literal", "anna@[192.168.0.1]"},
		{"dotted ip", "anna@192.168.0.1"},
		{"numeric tld", "anna@example.123"},
		{"empty label", "anna@example..hu"},
		{"trailing dot", "anna@example.hu."},
		{"leading dot in domain", "anna@.example.hu"},
		{"label starts with hyphen", "anna@-x.hu"},
		{"label ends with hyphen", "anna@x-.hu"},
		{"underscore in domain", "anna@my_shop.hu"},
		{"unicode domain", "anna@kovács.hu"},
		{"leading dot in local", ".anna@x.hu"},
		{"double dot in local", "an..na@x.hu"},
		{"empty local", "@x.hu"},
		{"empty domain", "anna@"},
		{"local part of 65", strings.Repeat("a", 65) + "@x.hu"},
		{"label of 64", "a@" + strings.Repeat("b", 64) + ".hu"},
		{"255 characters", longEmail(255)},
		{"invalid utf-8", "anna\xff@x.hu"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			got, err := NormalizeEmail(c.in)
			if !errors.Is(err, ErrInvalidEmail) {
				t.Errorf("NormalizeEmail(%q) = %q, %v; want ErrInvalidEmail", c.in, got, err)
			}
		})
	}
}

func TestNormalizePhone(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"international mobile", "+36 30 123 4567", "+36301234567"},
		{"national trunk prefix", "06-30/123-4567", "+36301234567"},
		{"digits only", "06301234567", "+36301234567"},
		{"budapest landline", "+36-1-234-5678", "+3612345678"},
		{"parenthesised area code", "(06 1) 234 5678", "+3612345678"},
		{"without prefix", "30 123 4567", "+36301234567"},
		{"dots", "06.30.123.4567", "+36301234567"},
		{"uk", "+44 20 7946 0958", "+442079460958"},
		{"us", "+1 (415) 555-2671", "+14155552671"},
		{"trimmed", "  +36301234567 ", "+36301234567"},
		{"plausible but not a known number", "123456", ""},
		{"unknown country", "+999 123 4567", ""},
		{"fifteen digits", "123456789012345", ""},
		{"fifty characters", "1 2 3 4 5 6" + strings.Repeat(" ", 39), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := NormalizePhone(c.in)
			if err != nil {
				t.Fatalf("NormalizePhone(%q) error %v", c.in, err)
			}
			if got != c.want {
				t.Errorf("NormalizePhone(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}

	bad := []struct{ name, in string }{
		{"empty", ""},
		{"five digits", "12345"},
		{"sixteen digits", "1234567890123456"},
		{"letters", "+36 30 ABC 4567"},
		{"extension word", "+36 30 123 4567 mell. 12"},
		{"email", "anna@x.hu"},
		{"fifty-one characters", "+36 30 123 4567" + strings.Repeat(" ", 36) + "8"},
		{"control character", "+36 30\x00123 4567"},
		{"only punctuation", "+() - /."},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			got, err := NormalizePhone(c.in)
			if !errors.Is(err, ErrInvalidPhone) {
				t.Errorf("NormalizePhone(%q) = %q, %v; want ErrInvalidPhone", c.in, got, err)
			}
		})
	}
}

// longEmail builds an otherwise valid address of n characters (n between 200 and 256).
func longEmail(n int) string {
	s := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "."
	return s + strings.Repeat("d", n-len(s)-3) + ".hu"
}

// TestQuickE164AgreesWithTheParser: every number the quick path formats, libphonenumber's parser
// formats the same way; the rest fall through to the parser. The numbers are random digits
// after common country codes and after the national prefix, plus real shapes, so that many are
// valid.
func TestQuickE164AgreesWithTheParser(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 36))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	inputs := []string{"+36301234567", "+3612345678", "06301234567", "0612345678", "+12125550123",
		"+447911123456", "+4915123456789", "+390612345678", "+39 3123456789", "+78001234567",
		"+11234567890", "+36", "+", "06", "+80012345678", "+8823456789012", "+012125550123", "+036301234567"}
	codes := []string{"1", "7", "20", "27", "30", "31", "33", "34", "36", "39", "40", "43", "44", "48", "49",
		"52", "55", "61", "81", "86", "91", "353", "358", "372", "380", "381", "385", "420", "421", "800", "882", "979"}
	for range 40000 {
		n := 4 + rng.IntN(11)
		switch rng.IntN(6) {
		case 0:
			inputs = append(inputs, "06"+digits(n))
		case 1:
			inputs = append(inputs, "+36"+huNational(rng, digits))
		case 2:
			inputs = append(inputs, "06"+huNational(rng, digits))
		case 3:
			// Bare numbers, the country code's digits in front of some.
			if rng.IntN(3) == 0 {
				inputs = append(inputs, "36"+huNational(rng, digits))
			} else {
				inputs = append(inputs, huNational(rng, digits), digits(n))
			}
		default:
			inputs = append(inputs, "+"+codes[rng.IntN(len(codes))]+digits(n))
		}
	}
	quick, valid := 0, 0
	for _, s := range inputs {
		want := parseE164(s)
		if want != "" {
			valid++
		}
		got, ok := quickE164(s)
		if !ok {
			continue
		}
		quick++
		if got != want {
			t.Errorf("quickE164(%q) = %q, the parser says %q", s, got, want)
		}
	}
	// The comparison means something only if the quick path answered for many numbers.
	if quick < valid/2 || quick < 1000 {
		t.Errorf("the quick path answered %d of %d numbers (%d valid)", quick, len(inputs), valid)
	}
	t.Logf("%d numbers, %d valid, %d by the quick path", len(inputs), valid, quick)
}

// huNational is a national number of Hungary's shapes: a real area or mobile prefix, or any
// digit, followed by digits, the length around the plan's 8 and 9.
func huNational(rng *rand.Rand, digits func(int) string) string {
	prefixes := []string{"1", "20", "21", "22", "30", "31", "32", "40", "50", "51", "62", "70", "71", "80", "90", "99"}
	p := prefixes[rng.IntN(len(prefixes))]
	if rng.IntN(5) == 0 {
		p = digits(1)
	}
	return p + digits(max(0, 6+rng.IntN(5)-len(p)))
}

// TestNumberPlanAgreesWithTheLibrary: the default region's compiled plan calls valid exactly the
// national numbers libphonenumber's IsValidNumber calls valid, over numbers of every length
// and prefix around the plan's, valid and not.
func TestNumberPlanAgreesWithTheLibrary(t *testing.T) {
	if defaultPlan == nil {
		t.Fatal("no numbering plan for the default region")
	}
	rng := rand.New(rand.NewPCG(36, 7))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	cc := int32(defaultCountryCode)
	valid, n := 0, 0
	for range 200000 {
		national := huNational(rng, digits)
		if rng.IntN(4) == 0 {
			national = digits(1 + rng.IntN(17))
		}
		if national[0] == '0' {
			continue // a national significant number has no leading zero
		}
		nn, err := strconv.ParseUint(national, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		want := phonenumbers.IsValidNumber(&phonenumbers.PhoneNumber{CountryCode: &cc, NationalNumber: &nn})
		if got := defaultPlan.valid(national); got != want {
			t.Errorf("valid(%q) = %v, libphonenumber says %v", national, got, want)
		}
		n++
		if want {
			valid++
		}
	}
	// Both answers must be common for the agreement to mean something.
	if valid < n/10 || n-valid < n/10 {
		t.Errorf("%d of %d numbers valid", valid, n)
	}
	t.Logf("%d numbers, %d valid", n, valid)
}

func BenchmarkNormalizePhone(b *testing.B) {
	for _, in := range []string{"+36 30 123 4567", "06 30 123 4567", "30 123 4567"} {
		b.Run(in, func(b *testing.B) {
			for b.Loop() {
				if e, err := NormalizePhone(in); err != nil || e != "+36301234567" {
					b.Fatal(e, err)
				}
			}
		})
	}
}

// FuzzNormalizeEmail: an address whose local part plainLocal accepts, which skips net/mail's
// parser, gets the outcome it gets through the parser: the same address, or an error.
func FuzzNormalizeEmail(f *testing.F) {
	for _, s := range []string{"anna@example.hu", "Anna.Nagy@Example.HU", "a.b@x.hu", ".a@x.hu", "a.@x.hu",
		"a..b@x.hu", "a+b%c_d-e@x.hu", "a@-x.hu", "a@x..hu", "a@x.hu.", "a@\u212aexample.hu", "a!b@x.hu",
		"a@[1.2.3.4]", "a@x", "a@1.2", "kovács@x.hu", "a@b@c.hu", "@x.hu", "a@"} {
		f.Add(s)
	}
	parsed := func(string) bool { return false }
	f.Fuzz(func(t *testing.T, s string) {
		got, err := NormalizeEmail(s)
		want, wantErr := normalizeEmail(s, parsed)
		if got != want || (err == nil) != (wantErr == nil) {
			t.Fatalf("NormalizeEmail(%q) = %q, %v; through net/mail %q, %v", s, got, err, want, wantErr)
		}
		if err != nil && !errors.Is(err, ErrInvalidEmail) {
			t.Fatalf("NormalizeEmail(%q) error %v is not ErrInvalidEmail", s, err)
		}
	})
}

// BenchmarkNormalizeEmail: go test -run '^$' -bench Normalize -benchmem ./internal/contact/
func BenchmarkNormalizeEmail(b *testing.B) {
	for _, in := range []string{"peter.kovacs@example.hu", "Peter.Kovacs@Example.HU", "o'brien@example.co.uk"} {
		b.Run(in, func(b *testing.B) {
			for b.Loop() {
				if _, err := NormalizeEmail(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
