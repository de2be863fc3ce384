package contact

import (
	"strings"
	"testing"
	"time"
)

func TestProbeWorst(t *testing.T) {
	inputs := map[string]string{
		"phones":   strings.Repeat("+36 30 123 4567 ", 200),
		"badphones": strings.Repeat("+36 99 999 9999 ", 200),
		"digits":   strings.Repeat("1 ", 1000),
		"zeros":    strings.Repeat("06 ", 700),
		"at":       strings.Repeat("a@", 1000),
		"atdots":   strings.Repeat("a.b@c.d", 300),
		"emails":   strings.Repeat("x@y.hu ", 300),
		"names":    strings.Repeat("Anna Nagy vagyok ", 120),
		"caps":     strings.Repeat("Ádám ", 400),
		"kw":       strings.Repeat("tel 123456789 ", 150),
		"dates":    strings.Repeat("2024.05.12. ", 170),
		"parens":   strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 999),
		"long":     longMessage(),
		"mix":      strings.Repeat("06-30/1 ", 260),
	}
	for name, s := range inputs {
		if len(s) > 2000 {
			s = s[:2000]
		}
		st := time.Now()
		n := 200
		for i := 0; i < n; i++ {
			Extract(s)
		}
		t.Logf("%-10s %v %+v", name, time.Since(st)/time.Duration(n), Extract(s))
	}
}
