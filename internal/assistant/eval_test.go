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
// the profile does not answer it and the reply must hand over to a colleague. Questions are
// answered with the language a company set to auto gets: the one the visitor writes in, unless
// the file names a language. english lists the questions asked in English.
type answerSet struct {
	ProfileFile string         `yaml:"profile_file"`
	Profile     map[string]any `yaml:"profile"`
	Language    string         `yaml:"language"`
	Questions   []labelled     `yaml:"questions"`
	English     []labelled     `yaml:"english"`
}

type labelled struct {
	Q    string   `yaml:"q"`
	Want []string `yaml:"want"`
}

// The groups of answer sets: the tuning half the matcher was developed on, the held-out half
// written before it and never tuned on, the project's own earlier profiles, and development
// sets of further trades, written after the tuning half met its targets to find what the
// matcher still fails on outside the trades it was tuned with (tuned on like the tuning half;
// not part of the two halves, so held to no target). fresh: validation sets of further
// trades, each written by a writer who had not seen the matcher's output on it, to judge changes
// unseen; their single failures are never shown, and they are held to no target. Once a fresh
// set has judged a session's changes it may become a development set (moved to dev), and a new
// fresh set is written before anyone looks. testdata/answers/next holds sets written blind ahead
// of time, not loaded: they become the fresh sets when the present ones move to dev.
const (
	tuning  = "tuning"
	heldOut = "heldout"
	legacy  = "legacy"
	dev     = "dev"
	fresh   = "fresh"
)

// question is one labelled question with its profile.
type question struct {
	group, set string
	profile    assistant.Profile
	language   assistant.Language
	english    bool
	text       string
	want       []string // empty: not covered
}

// loadAnswerSets reads the sets of testdata/answers (legacy) and of its tuning, heldout, dev
// and fresh folders.
func loadAnswerSets(t *testing.T) []question {
	t.Helper()
	var out []question
	for _, g := range []struct{ group, glob string }{
		{legacy, "testdata/answers/*.yaml"}, {tuning, "testdata/answers/tuning/*.yaml"}, {heldOut, "testdata/answers/heldout/*.yaml"},
		{dev, "testdata/answers/dev/*.yaml"}, {fresh, "testdata/answers/fresh/*.yaml"},
	} {
		files, err := filepath.Glob(g.glob)
		if err != nil || len(files) == 0 && g.group != dev && g.group != fresh {
			t.Fatalf("no answer sets in %s: %v", g.glob, err)
		}
		for _, f := range files {
			out = append(out, loadAnswerSet(t, g.group, f)...)
		}
	}
	return out
}

func loadAnswerSet(t *testing.T, group, f string) []question {
	t.Helper()
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
	var out []question
	add := func(qs []labelled, english bool) {
		for _, q := range qs {
			for _, w := range q.Want {
				if !strings.Contains(flat(profileText(p)), flat(w)) {
					t.Fatalf("%s: %q: the label %q is not in the profile", f, q.Q, w)
				}
			}
			lang, _ := assistant.DetectLanguage(q.Q)
			switch s.Language {
			case "en":
				lang = assistant.English
			case "hu":
				lang = assistant.Hungarian
			}
			out = append(out, question{group: group, set: strings.TrimSuffix(filepath.Base(f), ".yaml"), profile: p,
				language: lang, english: english || s.Language == "en", text: q.Q, want: q.Want})
		}
	}
	add(s.Questions, false)
	add(s.English, true)
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
	handover                 // not covered, and the reply offers a colleague
	wrong                    // the reply answers, but not with what was asked: confidently wrong
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

func (f *figures) add(q question, o outcome) {
	if len(q.want) == 0 {
		f.uncovered++
	} else {
		f.covered++
	}
	switch o {
	case right:
		f.right++
	case handover:
		f.handedOver++
	case handedOff:
		f.missed++
	case wrong:
		f.wrong++
	}
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }

func (f figures) String() string {
	return fmt.Sprintf("%d questions (%d covered, %d not): covered answered right %.1f%%, not covered handed over %.1f%%, "+
		"confidently wrong %.1f%% (%d), covered but handed over %d",
		f.covered+f.uncovered, f.covered, f.uncovered, pct(f.right, f.covered), pct(f.handedOver, f.uncovered),
		pct(f.wrong, f.covered+f.uncovered), f.wrong, f.missed)
}

// target is one of the figures each half is measured against. Only a target the built-in
// assistant meets is asserted; the others are printed with their gap, so that the test guards
// what was reached and nobody mistakes a lowered bar for the goal.
type target struct {
	name     string
	min      bool    // the figure must be at least goal; else at most
	goal     float64 // percent
	asserted bool
	figure   func(all, english figures) float64
}

var targets = []target{
	{"covered answered right", true, 90, false, func(a, _ figures) float64 { return pct(a.right, a.covered) }},
	{"English covered answered right", true, 85, false, func(_, e figures) float64 { return pct(e.right, e.covered) }},
	{"not covered handed over", true, 90, true, func(a, _ figures) float64 { return pct(a.handedOver, a.uncovered) }},
	{"confidently wrong", false, 2, false, func(a, _ figures) float64 { return pct(a.wrong, a.covered+a.uncovered) }},
}

// missedTargets lists the targets all and english (the same half's English questions) miss,
// the asserted ones and the others apart.
func missedTargets(all, english figures) (asserted, gaps []string) {
	for _, tg := range targets {
		f := tg.figure(all, english)
		if tg.min && f >= tg.goal || !tg.min && f <= tg.goal {
			continue
		}
		cmp := "<"
		if !tg.min {
			cmp = ">"
		}
		m := fmt.Sprintf("%s %.1f%% %s %.0f%%", tg.name, f, cmp, tg.goal)
		if tg.asserted {
			asserted = append(asserted, m)
		} else {
			gaps = append(gaps, m)
		}
	}
	return asserted, gaps
}

// answerAll answers every question as the first message of a conversation, with prices open,
// and returns the outcomes in order.
func answerAll(t *testing.T, a assistant.Assistant, qs []question) []outcome {
	t.Helper()
	out := make([]outcome, len(qs))
	indexes := map[[2]string]*assistant.Index{} // one per profile, as the chat keeps it
	for i, q := range qs {
		k := [2]string{q.group, q.set}
		if indexes[k] == nil {
			indexes[k] = assistant.NewIndex(q.profile)
		}
		turn := assistant.Turn{Language: q.language, Profile: q.profile, Index: indexes[k], Message: q.text,
			Missing: []string{"name", "email"}}
		got, err := a.Answer(context.Background(), turn)
		if err != nil {
			t.Fatalf("%s: %q: %v", q.set, q.text, err)
		}
		out[i] = judge(q, got)
		// The held-out half's and the fresh sets' single failures are never shown: they stay
		// unseen by whoever tunes.
		if q.group == heldOut || q.group == fresh {
			continue
		}
		switch out[i] {
		case handedOff:
			t.Logf("%s: handed over a covered question %q (want %q): %s", q.set, q.text, q.want, got.Text)
		case wrong:
			t.Logf("%s: WRONG %q (want %q): %s", q.set, q.text, q.want, got.Text)
		}
	}
	return out
}

// evaluate sums the outcomes of qs.
func evaluate(t *testing.T, a assistant.Assistant, qs []question) figures {
	t.Helper()
	var f figures
	for i, o := range answerAll(t, a, qs) {
		f.add(qs[i], o)
	}
	return f
}

// TestAnswerDataset measures the built-in assistant on the labelled questions of
// testdata/answers, prints the figures per profile, per group and for English alone, and holds
// the tuning and the held-out half to the targets they meet (see targets).
func TestAnswerDataset(t *testing.T) {
	qs := loadAnswerSets(t)
	outcomes := answerAll(t, assistant.Builtin{}, qs)
	type key struct{ group, set string }
	perSet := map[key]*figures{}
	var order []key
	perGroup, english := map[string]*figures{}, map[string]*figures{}
	for _, g := range []string{tuning, heldOut, legacy, dev, fresh} {
		perGroup[g], english[g] = &figures{}, &figures{}
	}
	for i, q := range qs {
		k := key{q.group, q.set}
		if perSet[k] == nil {
			perSet[k] = &figures{}
			order = append(order, k)
		}
		perSet[k].add(q, outcomes[i])
		perGroup[q.group].add(q, outcomes[i])
		if q.english {
			english[q.group].add(q, outcomes[i])
		}
	}
	for _, k := range order {
		f := perSet[k]
		if f.covered+f.uncovered < 60 && k.group != legacy {
			t.Errorf("%s/%s has %d questions; want at least 60", k.group, k.set, f.covered+f.uncovered)
		}
		fmt.Printf("%-8s %-12s answered right %3d/%-3d handed over %3d/%-3d confidently wrong %3d\n",
			k.group, k.set, f.right, f.covered, f.handedOver, f.uncovered, f.wrong)
	}
	for _, g := range []string{tuning, heldOut, legacy, dev, fresh} {
		fmt.Printf("%s: %s\n%s, English alone: %s\n", g, perGroup[g], g, english[g])
	}
	for _, g := range []string{tuning, heldOut} {
		asserted, gaps := missedTargets(*perGroup[g], *english[g])
		if len(gaps) > 0 {
			fmt.Printf("%s: GAP to the targets not yet met: %s\n", g, strings.Join(gaps, "; "))
		}
		if len(asserted) > 0 {
			t.Errorf("%s half misses its targets: %s", g, strings.Join(asserted, "; "))
		}
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
