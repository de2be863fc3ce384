package assistant

import "testing"

// TestTidy: white space collapses, the full stop a template adds after a sentence's end goes,
// an ellipsis stays; text without such a stop comes back as it is, and invalid UTF-8 is
// written as the replacement character either way.
func TestTidy(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  Nyitva:\n hétfőtől  péntekig. ", "Nyitva: hétfőtől péntekig."},
		{"A cég neve Minta Kft..", "A cég neve Minta Kft."},
		{"Köszönjük!. Várjuk?. Jó…. Kész", "Köszönjük! Várjuk? Jó… Kész"},
		{"Majd meglátjuk... Talán.", "Majd meglátjuk... Talán."},
		{"Pont..", "Pont."},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"bad \xff byte!.", "bad \uFFFD byte!"},
		{"", ""},
		{" ", ""},
		{"egy\u00a0kettő\thárom ", "egy kettő három"},
		{"Már rendben van.", "Már rendben van."},
	} {
		if got := tidy(c.in); got != c.want {
			t.Errorf("tidy(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
