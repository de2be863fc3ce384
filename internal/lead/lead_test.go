package lead

import (
	"strings"
	"testing"
)

func TestDisplayName(t *testing.T) {
	tests := []struct {
		first, last, want string
	}{
		{"Anna", "Kovács", "Kovács Anna"},     // a chat lead, split
		{"Kovács Péter", "", "Kovács Péter"},  // one field, as typed
		{"Péter", "Kovács", "Kovács Péter"},   // an API lead with both fields
		{"Zsófiána", "Nagy", "Nagy Zsófiána"}, // a known family name
		{"Éva", "Smith", "Smith Éva"},         // a Hungarian letter
		{"John", "Smith", "John Smith"},       // not Hungarian
		{"", "Szabóné", "Szabóné"},
		{"", "", ""},
		{"John", "", "John"},
	}
	for _, tt := range tests {
		l := Lead{FirstName: tt.first, LastName: tt.last}
		if got := l.DisplayName(); got != tt.want {
			t.Errorf("DisplayName(%q, %q) = %q, want %q", tt.first, tt.last, got, tt.want)
		}
		// DisplayNameParts are the names DisplayName joins with a space, the second empty when
		// it is one name alone.
		a, b := l.DisplayNameParts()
		if got := strings.TrimSuffix(a+" "+b, " "); got != tt.want || b == "" && a != tt.want {
			t.Errorf("DisplayNameParts(%q, %q) = %q, %q, want %q joined", tt.first, tt.last, a, b, tt.want)
		}
	}
}
