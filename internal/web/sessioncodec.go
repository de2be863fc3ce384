package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/alexedwards/scs/v2"
)

// sessionCodec keeps a session's deadline and values (texts and whole numbers) as JSON. scs's
// default gob codec makes a decoder, which reads the types' descriptions again, for every
// request's session: that was 5% of the lead page's server CPU (BenchmarkLeadPage's profile).
// A session that the gob codec wrote is still read, so nobody is logged out by the change.
type sessionCodec struct{}

type sessionJSON struct {
	Deadline time.Time      `json:"deadline"`
	Values   map[string]any `json:"values"`
}

// sessionValuePath is where the session's value of key is in what Encode writes, as the
// object keys that lead to it (a store that reads the data as JSON finds it there).
func sessionValuePath(key string) []string { return []string{"values", key} }

// Encode writes the deadline and the values as a JSON object.
func (sessionCodec) Encode(deadline time.Time, values map[string]any) ([]byte, error) {
	return json.Marshal(sessionJSON{Deadline: deadline, Values: values})
}

// Decode reads what Encode wrote, whole numbers back as int64; anything else as the gob codec
// wrote it (a gob stream starts with a message's length, never with "{": the test holds it).
func (sessionCodec) Decode(b []byte) (time.Time, map[string]any, error) {
	if len(b) == 0 || b[0] != '{' {
		return scs.GobCodec{}.Decode(b)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var s sessionJSON
	if err := d.Decode(&s); err != nil {
		return time.Time{}, nil, fmt.Errorf("reading a session: %w", err)
	}
	for k, v := range s.Values {
		if n, ok := v.(json.Number); ok {
			i, err := n.Int64()
			if err != nil {
				return time.Time{}, nil, fmt.Errorf("reading a session's %q: %w", k, err)
			}
			s.Values[k] = i
		}
	}
	return s.Deadline, s.Values, nil
}
