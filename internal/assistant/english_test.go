package assistant

import "testing"

// TestEnglishLoanWordEndsCompound: a Hungarian profile writes English loan words into its
// compounds ("webshop", "showroom"), so an English word whose stem ends such a compound names a part of
// it, as a Hungarian part does.
func TestEnglishLoanWordEndsCompound(t *testing.T) {
	for _, c := range []struct {
		en, hu string
		want   float64
	}{
		{"shops", "webshop", compound},
		{"stores", "webstore", compound},
		{"rooms", "showroom", compound},
	} {
		q := newTerm(c.en, true)
		k := makeTerm(c.hu, false, true)
		if got := match(&q, &k); got != c.want {
			t.Errorf("match(%s, %s) = %v, want %v", c.en, c.hu, got, c.want)
		}
	}
}
