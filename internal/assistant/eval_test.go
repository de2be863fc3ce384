package assistant_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/assistant/openai"
)

// answerSet is one file of testdata/answers: a business profile (inline or in a file) and
// visitor questions, each labelled with what a right reply must contain, or with nothing when
// the profile does not answer it and the reply must hand over to a colleague.
type answerSet struct {
	ProfileFile string         `yaml:"profile_file"`
	Profile     map[string]any `yaml:"profile"`
	Language    string         `yaml:"language"`
	Questions   []struct {
		Q    string   `yaml:"q"`
		Want []string `yaml:"want"`
	} `yaml:"questions"`
}

// question is one labelled question with its profile.
type question struct {
	set      string
	profile  assistant.Profile
	language assistant.Language
	text     string
	want     []string // empty: not covered
}

func loadAnswerSets(t *testing.T) []question {
	t.Helper()
	files, err := filepath.Glob("testdata/answers/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no answer sets: %v", err)
	}
	var out []question
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s answerSet
		if err := yaml.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var raw []byte
		if s.ProfileFile != "" {
			if raw, err = os.ReadFile(filepath.Join(filepath.Dir(f), s.ProfileFile)); err != nil {
				t.Fatal(err)
			}
		} else if raw, err = yaml.Marshal(s.Profile); err != nil {
			t.Fatal(err)
		}
		p, err := assistant.ParseProfile(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		lang := assistant.Hungarian
		if s.Language == "en" {
			lang = assistant.English
		}
		for _, q := range s.Questions {
			for _, w := range q.Want {
				if !strings.Contains(flat(profileText(p)), flat(w)) {
					t.Fatalf("%s: %q: the label %q is not in the profile", f, q.Q, w)
				}
			}
			out = append(out, question{set: strings.TrimSuffix(filepath.Base(f), ".yaml"), profile: p,
				language: lang, text: q.Q, want: q.Want})
		}
	}
	return out
}

// profileText is every text of a profile, to check the labels against.
func profileText(p assistant.Profile) string {
	parts := []string{p.CompanyName, p.Description, p.OpeningHours, p.Phone, p.Email, p.Address}
	for _, s := range p.Services {
		parts = append(parts, s.Name, s.Description, s.Price)
	}
	for _, q := range p.FAQ {
		parts = append(parts, q.Question, q.Answer)
	}
	return strings.Join(parts, "\n")
}

// flat collapses white space (a no-break space in a price is a space here).
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// outcome is how one reply did.
type outcome int

const (
	right     outcome = iota // covered, and the reply holds every labelled fact
	handover                 // the reply says it cannot answer and offers a colleague
	wrong                    // the reply answers, but not with what was asked
	handedOff                // covered, but the reply handed over (a miss, not a wrong answer)
)

func judge(q question, a assistant.Answer) outcome {
	if a.Handover {
		if len(q.want) == 0 {
			return handover
		}
		return handedOff
	}
	if len(q.want) == 0 {
		return wrong
	}
	for _, w := range q.want {
		if !strings.Contains(flat(a.Text), flat(w)) {
			return wrong
		}
	}
	return right
}

// figures are the evaluation's results.
type figures struct {
	covered, uncovered, right, handedOver, wrong, missed int
}

func (f figures) String() string {
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	return fmt.Sprintf("%d questions (%d covered, %d not covered): answered right %.1f%%, not covered handed over %.1f%%, "+
		"confidently wrong %.1f%% (%d), covered but handed over %d",
		f.covered+f.uncovered, f.covered, f.uncovered, pct(f.right, f.covered), pct(f.handedOver, f.uncovered),
		pct(f.wrong, f.covered+f.uncovered), f.wrong, f.missed)
}

// meets reports whether the figures meet the targets: at least 90% of covered questions
// answered right, at least 90% of uncovered ones handed over, at most 3% confidently wrong.
func (f figures) meets() bool {
	return f.right*10 >= f.covered*9 && f.handedOver*10 >= f.uncovered*9 && f.wrong*100 <= (f.covered+f.uncovered)*3
}

// evaluate answers every question as the first message of a conversation, with prices open.
func evaluate(t *testing.T, a assistant.Assistant, qs []question) figures {
	t.Helper()
	var f figures
	for _, q := range qs {
		turn := assistant.Turn{Language: q.language, Profile: q.profile, Message: q.text,
			Missing: []string{"name", "email"}}
		got, err := a.Answer(context.Background(), turn)
		if err != nil {
			t.Fatalf("%s: %q: %v", q.set, q.text, err)
		}
		if len(q.want) == 0 {
			f.uncovered++
		} else {
			f.covered++
		}
		switch judge(q, got) {
		case right:
			f.right++
		case handover:
			f.handedOver++
		case handedOff:
			f.missed++
			t.Logf("%s: handed over a covered question %q (want %q): %s", q.set, q.text, q.want, got.Text)
		case wrong:
			f.wrong++
			t.Logf("%s: WRONG %q (want %q): %s", q.set, q.text, q.want, got.Text)
		}
	}
	return f
}

// TestAnswerDataset measures the built-in assistant on the labelled questions of
// testdata/answers and prints the figures.
func TestAnswerDataset(t *testing.T) {
	qs := loadAnswerSets(t)
	sets := map[string]bool{}
	for _, q := range qs {
		sets[q.set] = true
	}
	if len(sets) < 3 || len(qs) < 200 {
		t.Fatalf("%d profiles and %d questions; want at least 3 and 200", len(sets), len(qs))
	}
	f := evaluate(t, assistant.Builtin{}, qs)
	fmt.Printf("built-in assistant on %d profiles: %s\n", len(sets), f)
	if !f.meets() {
		t.Errorf("targets missed: %s", f)
	}
}

// scriptedModel is a local OpenAI-compatible server that plays a model which answers from the
// system prompt it is sent: for a labelled question it replies with the labelled facts only
// when each is in the prompt (so a profile that did not reach the prompt makes wrong answers),
// and it hands an uncovered question over. failing makes every call a 500.
func scriptedModel(t *testing.T, qs []question, failing bool) (url string, calls *atomic.Int64) {
	t.Helper()
	// Questions repeat across profiles ("Mikor vagytok nyitva?"): the company's name, which
	// the prompt states, tells them apart.
	want := map[[2]string][]string{}
	for _, q := range qs {
		want[[2]string{q.profile.CompanyName, q.text}] = q.want
	}
	calls = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if failing {
			http.Error(w, `{"error": {"message": "model overloaded"}}`, http.StatusInternalServerError)
			return
		}
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) < 2 || req.Messages[0].Role != "system" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		system, question := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		company, _, _ := strings.Cut(strings.SplitN(system, "Company name: ", 2)[1:][0], "\n")
		out := map[string]any{"reply": "Erre sajnos nem tudok válaszolni; kollégánk szívesen segít.", "handover": true}
		if facts, ok := want[[2]string{company, question}]; ok && len(facts) > 0 {
			out = map[string]any{"reply": "Nem tudom.", "handover": false}
			if !slices.ContainsFunc(facts, func(f string) bool { return !strings.Contains(flat(system), flat(f)) }) {
				out["reply"] = strings.Join(facts, "; ") + "."
			}
		}
		content, _ := json.Marshal(out)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]any{"role": "assistant", "content": string(content)}}}})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", calls
}

// TestAnswerDatasetWithModel runs the same questions through the OpenAI-compatible client and
// the fallback: with a scripted model every profile reaches the prompt and every answer comes
// back; with a failing one the built-in assistant answers every question, as well as it does alone.
func TestAnswerDatasetWithModel(t *testing.T) {
	qs := loadAnswerSets(t)
	for _, tc := range []struct {
		name    string
		failing bool
	}{{"scripted model", false}, {"failing model", true}} {
		t.Run(tc.name, func(t *testing.T) {
			url, calls := scriptedModel(t, qs, tc.failing)
			client, err := openai.New(openai.Config{BaseURL: url, Model: "scripted", MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			f := evaluate(t, assistant.WithFallback(client, assistant.Builtin{}), qs)
			fmt.Printf("OpenAI-compatible path, %s: %s\n", tc.name, f)
			if n := calls.Load(); n != int64(len(qs)) {
				t.Errorf("the model was called %d times for %d questions", n, len(qs))
			}
			want := figures{covered: f.covered, uncovered: f.uncovered, right: f.covered, handedOver: f.uncovered}
			if tc.failing {
				want = evaluate(t, assistant.Builtin{}, qs)
			}
			if f != want {
				t.Errorf("figures %s, want %s", f, want)
			}
		})
	}
}
