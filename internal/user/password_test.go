package user

import "testing"

// The dummy hash is a real hash with today's parameters: checking it costs what a user's does.
func TestDummyHashMatchesParameters(t *testing.T) {
	p, _, key, ok := parseHash(dummyHash)
	if !ok || p.memory != argonMemoryKiB || p.time != argonTime || p.threads != argonThreads || len(key) != argonKeyLen {
		t.Errorf("dummyHash parameters %+v (key %d bytes, ok %v) differ from the hashing parameters", p, len(key), ok)
	}
}
