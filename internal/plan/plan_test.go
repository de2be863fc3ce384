package plan

import "testing"

func TestLeadLimit(t *testing.T) {
	ten := 10
	tests := []struct {
		name string
		plan Plan
		o    Override
		want int // -1: none
	}{
		{"free default", Free, Override{}, 50},
		{"starter default", Starter, Override{}, 250},
		{"pro default", Pro, Override{}, 1000},
		{"business default", Business, Override{}, 5000},
		{"enterprise has none", Enterprise, Override{}, -1},
		{"override wins", Free, Override{Set: true, Limit: &ten}, 10},
		{"override to none", Business, Override{Set: true}, -1},
		{"override on enterprise", Enterprise, Override{Set: true, Limit: &ten}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := LeadLimit(tt.plan, tt.o)
			switch {
			case tt.want == -1 && got != nil:
				t.Fatalf("limit = %d, want none", *got)
			case tt.want != -1 && (got == nil || *got != tt.want):
				t.Fatalf("limit = %v, want %d", got, tt.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for _, p := range All() {
		if got, err := Parse(string(p)); err != nil || got != p {
			t.Errorf("Parse(%q) = %q, %v", p, got, err)
		}
	}
	if _, err := Parse("gold"); err == nil {
		t.Error("Parse(gold) succeeded, want an error")
	}
}

func TestTheme(t *testing.T) {
	tests := []struct {
		plan                Plan
		primary, whiteLabel bool
	}{
		{Free, false, false}, {Starter, false, false}, {Pro, true, false},
		{Business, true, true}, {Enterprise, true, true},
	}
	for _, tt := range tests {
		p, w := tt.plan.Theme()
		if p != tt.primary || w != tt.whiteLabel {
			t.Errorf("%s.Theme() = %v, %v; want %v, %v", tt.plan, p, w, tt.primary, tt.whiteLabel)
		}
	}
}
