package contact

import "testing"

func TestGold(t *testing.T) {
	for _, m := range readMessages(t) {
		if p := m.PhoneE164; p != "" && toE164(p) != p {
			t.Errorf("bad gold %s", p)
		}
		if e := m.Email; e != "" {
			if g, err := NormalizeEmail(e); err != nil || g != e {
				t.Errorf("bad gold %s", e)
			}
		}
	}
}
