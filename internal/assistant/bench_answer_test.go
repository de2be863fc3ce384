package assistant

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// BenchmarkBuiltinAnswer answers a question from the demo company's profile, as every chat
// turn without an AI model does.
func BenchmarkBuiltinAnswer(b *testing.B) {
	data, err := os.ReadFile("../dev/demo-profile.yaml")
	if err != nil {
		b.Fatal(err)
	}
	p, err := ParseProfile(data)
	if err != nil {
		b.Fatal(err)
	}
	turn := Turn{Profile: p, Index: NewIndex(p), Message: "Van most valamilyen pályázat napelemre?", Missing: []string{"name", "email"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Builtin{}).Answer(context.Background(), turn); err != nil {
			b.Fatal(err)
		}
	}
}

// fortyEntries is a profile of 40 entries (services and FAQ pairs) taken from the tuning
// profiles of testdata/answers, with their fixed facts.
func fortyEntries(tb testing.TB) Profile {
	tb.Helper()
	files, err := filepath.Glob("testdata/answers/tuning/*.yaml")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no tuning profiles: %v", err)
	}
	var out Profile
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var s struct {
			Profile Profile `yaml:"profile"`
		}
		if err := yaml.Unmarshal(data, &s); err != nil {
			tb.Fatal(err)
		}
		if out.CompanyName == "" {
			out = s.Profile
			continue
		}
		out.Services = append(out.Services, s.Profile.Services...)
		out.FAQ = append(out.FAQ, s.Profile.FAQ...)
	}
	out.Services, out.FAQ = out.Services[:20], out.FAQ[:20]
	return out
}

// fortyEntryQuestions are the questions asked of fortyEntries: Hungarian and English, covered
// and not.
func fortyEntryQuestions() []string {
	return []string{
		"Mennyibe kerül egy fogkő-eltávolítás?",
		"How much does a dental implant cost?",
		"Szombaton nyitva vagytok?",
		"Can I pay in instalments?",
		"Van gyerekmegőrző, amíg festenek?",
		"Do you do nails?",
	}
}

// BenchmarkAnswer answers one chat turn from a 40-entry profile whose index the caller keeps,
// as the chat does per company: the matcher's CPU per turn. The questions alternate between
// Hungarian and English, covered and not.
func BenchmarkAnswer(b *testing.B) {
	p := fortyEntries(b)
	if n := len(p.Services) + len(p.FAQ); n != 40 {
		b.Fatalf("%d entries", n)
	}
	x := NewIndex(p)
	questions := fortyEntryQuestions()
	b.ReportAllocs()
	i := 0
	start := cpuTime(b)
	for b.Loop() {
		turn := Turn{Language: Hungarian, Profile: p, Index: x, Message: questions[i%len(questions)], Missing: []string{"name", "email"}}
		if _, err := (Builtin{}).Answer(context.Background(), turn); err != nil {
			b.Fatal(err)
		}
		i++
	}
	// On a shared machine the wall time per turn includes waiting for a core; the process's
	// CPU time per turn is what a turn costs the server.
	b.ReportMetric(float64((cpuTime(b)-start).Nanoseconds())/float64(max(i, 1)), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkNewIndex builds the index of a 40-entry profile, once per profile version.
func BenchmarkNewIndex(b *testing.B) {
	p := fortyEntries(b)
	for b.Loop() {
		_ = NewIndex(p)
	}
}

// TestIndexSharedByConcurrentTurns: one company's turns run at once on the Index the chat keeps
// for it; each gets the reply it gets alone (the index lends its scoring tables to one turn at
// a time). Run with -race too.
func TestIndexSharedByConcurrentTurns(t *testing.T) {
	p := fortyEntries(t)
	x := NewIndex(p)
	questions := fortyEntryQuestions()
	answer := func(q string) string {
		r, err := (Builtin{}).Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Index: x, Message: q, Missing: []string{"name", "email"}})
		if err != nil {
			t.Error(err)
		}
		return r.Text
	}
	want := make([]string, len(questions))
	for i, q := range questions {
		want[i] = answer(q)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				k := (g + i) % len(questions)
				if got := answer(questions[k]); got != want[k] {
					t.Errorf("%q answered at once with others: %q, alone: %q", questions[k], got, want[k])
					return
				}
			}
		})
	}
	wg.Wait()
}
