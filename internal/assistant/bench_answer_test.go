package assistant

import (
	"context"
	"os"
	"testing"
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
