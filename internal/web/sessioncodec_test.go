package web

import (
	"testing"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/google/go-cmp/cmp"
)

// A session's values come back with their types (scs's GetString and GetInt64 assert them),
// and a session that the gob codec wrote before is still read.
func TestSessionCodecKeepsTypesAndReadsGob(t *testing.T) {
	t.Parallel()
	deadline := time.Date(2026, 12, 27, 14, 5, 6, 789, time.UTC)
	values := map[string]any{keyUser: "0b7e1a3c-1111-4a4a-9a9a-000000000001", keyCompany: "0b7e1a3c-2222-4a4a-9a9a-000000000002",
		keySeen: time.Date(2026, 11, 27, 14, 5, 6, 0, time.UTC).Unix(), keyFlash: `"Mentve" <b>{}</b>`}
	gob, err := scs.GobCodec{}.Encode(deadline, values)
	if err != nil {
		t.Fatal(err)
	}
	if gob[0] == '{' {
		t.Fatal("a gob session starts with {: the codec would take it for JSON")
	}
	own, err := sessionCodec{}.Encode(deadline, values)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"json": own, "gob": gob} {
		t.Run(name, func(t *testing.T) {
			d, v, err := sessionCodec{}.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !d.Equal(deadline) {
				t.Errorf("deadline %v, want %v", d, deadline)
			}
			if diff := cmp.Diff(values, v); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
	if _, _, err := (sessionCodec{}).Decode([]byte(`{"values": {"seen": 1.5}}`)); err == nil {
		t.Error("a fraction read as a whole number")
	}
}
