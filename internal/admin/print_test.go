package admin

import (
	"encoding/json"
	"testing"
)

func TestPrintable(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Kovács Péter", "Kovács Péter"},
		{"שלום عالم", "שלום عالم"},
		{"nem\u00a0törhető szóköz", "nem\u00a0törhető szóköz"},
		{"a\nb", `a\nb`},
		{"a\r\nb\tc", `a\r\nb\tc`},
		{"\x1b[2J\x1b]0;pwned\x07", `\x1b[2J\x1b]0;pwned\a`},
		{"\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", `\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\`},
		{"a\x7fb\u0085c\u009bd", `a\x7fb\u0085c\u009bd`},
		{"user\u202egnp.exe", `user\u202egnp.exe`},
		{"\u2066x\u2069\u200e\u200f", `\u2066x\u2069\u200e\u200f`},
		{"sor\u2028elválasztó", `sor\u2028elválasztó`},
		{`C:\Users`, `C:\\Users`},
		{`literally \n`, `literally \\n`},
		{"bad \xff byte", `bad \xff byte`},
	}
	for _, tt := range tests {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	t.Parallel()
	v := map[string]string{"name": "Anna\u202eBéla\u0085\x7f\U000E0001 é \n", "plain": "Kovács"}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got := escapeJSON(raw)
	want := `{"name":"Anna\u202eBéla\u0085\u007f\udb40\udc01 é \n","plain":"Kovács"}`
	if string(got) != want {
		t.Errorf("escapeJSON = %s\nwant          %s", got, want)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["name"] != v["name"] || back["plain"] != v["plain"] {
		t.Errorf("escaped JSON reads back as %q (%v), want %q", back, err, v)
	}
}
