package user

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// The dummy hash is a real hash with today's parameters: checking it costs what a user's does.
func TestDummyHashMatchesParameters(t *testing.T) {
	p, _, key, ok := parseHash(dummyHash)
	if !ok || p.memory != argonMemoryKiB || p.time != argonTime || p.threads != argonThreads || len(key) != argonKeyLen {
		t.Errorf("dummyHash parameters %+v (key %d bytes, ok %v) differ from the hashing parameters", p, len(key), ok)
	}
}

// A hash gives its 19 MiB of work memory back to the system before it returns: the memory the
// process holds from the system (heap spans not released) is no higher after a hash and a
// check than before. Without argonKey's FreeOSMemory it is about 19 MiB higher.
func TestHashingReturnsItsMemory(t *testing.T) {
	held := func() uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapSys - m.HeapReleased
	}
	debug.FreeOSMemory()
	before := held()
	hash, err := HashPassword("egy jó hosszú jelszó")
	if err != nil {
		t.Fatal(err)
	}
	afterHash := held()
	if !CheckPassword(hash, "egy jó hosszú jelszó") {
		t.Fatal("the password does not match its own hash")
	}
	afterCheck := held()
	const slack = 4 << 20
	if afterHash > before+slack || afterCheck > before+slack {
		t.Errorf("heap held from the system: %.1f MiB before, %.1f MiB after hashing, %.1f MiB after checking (want at most 4 MiB more)",
			mib(before), mib(afterHash), mib(afterCheck))
	}
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }
