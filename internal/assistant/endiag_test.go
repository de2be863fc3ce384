package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestTiedSecondAnswerIsNone: a word the first answer leaves, which two entries mention alike
// in what they say and neither names, picks no second answer: "Do you make frames for
// windows?" of a picture framer whose parking and delivery answers both mention a window is
// handed over, not answered with the picture frames and the parking. A question the first
// answer explains alone is still answered.
func TestTiedSecondAnswerIsNone(t *testing.T) {
	p := Profile{CompanyName: "Maple & Birch",
		Description: "A small framing workshop in town.",
		Services:    []Service{{Name: "Picture frames", Description: "Wooden and metal frames made to measure.", Price: "from EUR 40"}},
		FAQ: []QA{{Question: "Where can I park?", Answer: "Park by the shop window, free for an hour."},
			{Question: "Do you deliver?", Answer: "Yes, we bring the finished work to your home and hang it by a window if you like."},
			{Question: "Can I pay by card?", Answer: "Yes, cards and cash; you pay when you collect the order."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"Do you make frames for windows?", "", true},
		{"Do you make picture frames?", "made to measure", false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}
