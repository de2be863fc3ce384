package lead

import "testing"

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
	}
	for _, tt := range tests {
		if got := (Lead{FirstName: tt.first, LastName: tt.last}).DisplayName(); got != tt.want {
			t.Errorf("DisplayName(%q, %q) = %q, want %q", tt.first, tt.last, got, tt.want)
		}
	}
}
