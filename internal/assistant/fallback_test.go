package assistant

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// assistantFunc turns a function into an Assistant.
type assistantFunc func(ctx context.Context, t Turn) (Answer, error)

func (f assistantFunc) Answer(ctx context.Context, t Turn) (Answer, error) { return f(ctx, t) }

func replying(text string) Assistant {
	return assistantFunc(func(context.Context, Turn) (Answer, error) {
		return Answer{Text: text, Proposed: Contact{Email: "p@example.hu"}}, nil
	})
}

func TestWithFallback(t *testing.T) {
	// blocked ignores ctx and answers only when the test ends.
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	blocked := assistantFunc(func(context.Context, Turn) (Answer, error) {
		<-release
		return Answer{Text: "late"}, nil
	})
	slow := assistantFunc(func(ctx context.Context, _ Turn) (Answer, error) {
		<-ctx.Done()
		return Answer{}, ctx.Err()
	})
	failing := assistantFunc(func(context.Context, Turn) (Answer, error) {
		return Answer{}, errors.New("openai: status 503")
	})
	gated := Turn{Message: "Mennyibe kerül?", GateQuote: true}
	tests := []struct {
		name       string
		primary    Assistant
		turn       Turn
		want       string
		wantReason string // "" when the primary answers
	}{
		{"good primary", replying("Jó napot!"), Turn{}, "Jó napot!", ""},
		{"failing primary", failing, Turn{}, "fallback", "error: openai: status 503"},
		{"slow primary", slow, Turn{}, "fallback", "timeout"},
		{"primary ignoring ctx", blocked, Turn{}, "fallback", "timeout"},
		{"empty reply", replying("  \n"), Turn{}, "fallback", "empty reply"},
		{"price while gated", replying("Ára 1 900 000 Ft."), gated, "fallback", "price"},
		{"price after contact", replying("Ára 1 900 000 Ft."), Turn{GateQuote: true, ContactComplete: true}, "Ára 1 900 000 Ft.", ""},
		{"price without gate", replying("Ára 1 900 000 Ft."), Turn{}, "Ára 1 900 000 Ft.", ""},
		{"no price while gated", replying("Személyre szabott ajánlatot küldünk."), gated, "Személyre szabott ajánlatot küldünk.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := WithFallback(tt.primary, replying("fallback"))
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			got, err := a.Answer(ctx, tt.turn)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got.Text != tt.want {
				t.Errorf("answer = %q, want %q", got.Text, tt.want)
			}
			switch {
			case tt.wantReason == "" && got.FellBack != "":
				t.Errorf("fell back: %q", got.FellBack)
			case tt.wantReason != "" && !strings.Contains(got.FellBack, tt.wantReason):
				t.Errorf("FellBack = %q, want one with %q", got.FellBack, tt.wantReason)
			}
		})
	}
}

func TestWithFallbackToBuiltinAfterDeadline(t *testing.T) {
	slow := assistantFunc(func(ctx context.Context, _ Turn) (Answer, error) {
		<-ctx.Done()
		return Answer{}, ctx.Err()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	got, err := WithFallback(slow, Builtin{}).Answer(ctx, Turn{Message: "Jó napot!", Profile: Profile{CompanyName: "Béta Bt."}})
	if err != nil || !strings.Contains(got.Text, "Béta Bt.") {
		t.Errorf("answer = %q, %v; want the built-in greeting", got.Text, err)
	}
}

func TestWithFallbackReportsFallbackError(t *testing.T) {
	failing := assistantFunc(func(context.Context, Turn) (Answer, error) { return Answer{}, errors.New("down") })
	if _, err := WithFallback(failing, failing).Answer(context.Background(), Turn{}); err == nil {
		t.Error("err = nil when both assistants fail")
	}
}
