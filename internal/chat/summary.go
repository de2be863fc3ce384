package chat

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/limits"
)

// Summary is what a conversation has shown of the visitor's needs so far, kept with the
// session; the lead's note is written from it (Note) in the conversation's language, so a
// salesperson reads labels and the open questions, not the visitor's messages.
type Summary struct {
	// Wants are the wishes shown, in the order first shown.
	Wants []Want
	// Topics are the general subjects asked about, in the order first asked.
	Topics []Topic
	// Asked are the other questions the assistant answered, as asked (the latest maxAsked).
	Asked []string
	// Unanswered are the questions the assistant handed over to a colleague, as asked (the
	// latest limits.UnansweredQuestions).
	Unanswered []string
}

// Want is a wish a visitor shows.
type Want string

// The wishes.
const (
	WantQuote    Want = "quote"
	WantCallback Want = "callback"
	WantOrder    Want = "order" // to order, buy or book
)

// Topic is a general subject a visitor asks about.
type Topic string

// The topics.
const (
	TopicPrice    Topic = "price"
	TopicHours    Topic = "hours"
	TopicServices Topic = "services"
)

// maxAsked bounds the answered questions a summary quotes: the note stays a five-second read.
const maxAsked = 3

// add is the summary after one visitor message: its intent's wishes and topics, and its
// question, among the unanswered ones when the assistant handed it over (unless it only
// states a wish), among the asked ones when it was answered and no topic covers it. The summary only grows; a question asked
// again is not repeated.
func (s Summary) add(message string, in assistant.Intent, handedOver bool, c Contact) Summary {
	out := Summary{Wants: s.Wants, Topics: s.Topics, Asked: s.Asked, Unanswered: s.Unanswered}
	for _, w := range []struct {
		on   bool
		want Want
	}{{in.Quote, WantQuote}, {in.Callback, WantCallback}, {in.Buying, WantOrder}} {
		if w.on && !slices.Contains(out.Wants, w.want) {
			out.Wants = append(slices.Clip(out.Wants), w.want)
		}
	}
	for _, t := range []struct {
		on    bool
		topic Topic
	}{{in.Price, TopicPrice}, {in.Hours, TopicHours}, {in.Services, TopicServices}} {
		if t.on && !slices.Contains(out.Topics, t.topic) {
			out.Topics = append(slices.Clip(out.Topics), t.topic)
		}
	}
	topical := in.Price || in.Hours || in.Services || in.Quote || in.Callback || in.Buying
	asks := strings.Contains(message, "?")
	// A wish handed over ("Kérek árajánlatot.") is among the wants, and no open question.
	wish := (in.Quote || in.Callback || in.Buying) && !asks
	switch {
	case handedOver && !wish:
		out.Unanswered = addQuestion(out.Unanswered, question(message, c), limits.UnansweredQuestions)
	case !handedOver && !topical && asks:
		out.Asked = addQuestion(out.Asked, question(message, c), maxAsked)
	}
	return out
}

// addQuestion appends q to qs unless it is empty or there already, keeping the latest max.
func addQuestion(qs []string, q string, max int) []string {
	if q == "" || slices.ContainsFunc(qs, func(s string) bool { return strings.EqualFold(s, q) }) {
		return qs
	}
	qs = append(slices.Clip(qs), q)
	if len(qs) > max {
		qs = qs[len(qs)-max:]
	}
	return qs
}

// Note words the summary for the lead's details.note in the conversation's language ("en",
// else Hungarian), one labelled line per part that applies; "" when nothing is known beyond
// the contact details.
func (s Summary) Note(service, lang string) string {
	l := summaryLabels[lang]
	if l.interested == "" {
		l = summaryLabels["hu"]
	}
	var lines []string
	if service != "" {
		lines = append(lines, l.interested+service)
	}
	if len(s.Wants) > 0 {
		wants := make([]string, len(s.Wants))
		for i, w := range s.Wants {
			wants[i] = l.wants[w]
		}
		lines = append(lines, l.wantsLabel+strings.Join(wants, ", "))
	}
	var asked []string
	for _, t := range s.Topics {
		asked = append(asked, l.topics[t])
	}
	for _, q := range s.Asked {
		asked = append(asked, l.open+q+l.close)
	}
	if len(asked) > 0 {
		lines = append(lines, l.asked+strings.Join(asked, ", "))
	}
	if len(s.Unanswered) > 0 {
		open := make([]string, len(s.Unanswered))
		for i, q := range s.Unanswered {
			open[i] = l.open + q + l.close
		}
		lines = append(lines, l.unanswered+strings.Join(open, " "))
	}
	return strings.Join(lines, "\n")
}

// labels are a language's words of a note.
type labels struct {
	interested, wantsLabel, asked, unanswered string
	open, close                               string // the quotation marks
	wants                                     map[Want]string
	topics                                    map[Topic]string
}

var summaryLabels = map[string]labels{
	"hu": {interested: "Érdeklődik: ", wantsLabel: "Kér: ", asked: "Kérdezte: ", unanswered: "Nyitott kérdések: ",
		open: "„", close: "”",
		wants:  map[Want]string{WantQuote: "árajánlat", WantCallback: "visszahívás", WantOrder: "megrendelés vagy időpont"},
		topics: map[Topic]string{TopicPrice: "ár", TopicHours: "nyitvatartás", TopicServices: "szolgáltatások"}},
	"en": {interested: "Interested in: ", wantsLabel: "Wants: ", asked: "Asked about: ", unanswered: "Open questions: ",
		open: "“", close: "”",
		wants:  map[Want]string{WantQuote: "a quote", WantCallback: "a call back", WantOrder: "to order or book"},
		topics: map[Topic]string{TopicPrice: "price", TopicHours: "opening hours", TopicServices: "services"}},
}

// question is what a visitor message asks, in their words, for the lead: its sentences
// without the clauses that carry contact details (the lead keeps those in its own fields, and
// a clause with a detail cut out reads badly) and without the sentences that only greet or
// thank. "" when nothing is left.
func question(message string, c Contact) string {
	var kept []string
	for _, sentence := range sentences(message) {
		var clauses []string
		for _, cl := range clausesOf(sentence) {
			if !holdsContact(cl, c) {
				clauses = append(clauses, cl)
			}
		}
		s := strings.Join(clauses, ", ")
		if s == "" || onlyCourtesy(s) {
			continue
		}
		if len(clauses) < len(clausesOf(sentence)) {
			s = capitalise(s)
		}
		kept = append(kept, s)
	}
	q := strings.Join(kept, " ")
	if letters(q) < 3 {
		return ""
	}
	return clipText(q, limits.UnansweredQuestionLen)
}

// sentences splits a message after each ".", "!", "?" or "…" that ends a word, and at line
// breaks, so that "1.5 kW" and "a@b.hu" stay whole.
func sentences(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i, r := range rs {
		end := r == '\n' || strings.ContainsRune(".!?…", r) && (i+1 == len(rs) || unicode.IsSpace(rs[i+1]))
		if end {
			if t := strings.TrimSpace(string(rs[start : i+1])); t != "" && t != "." {
				out = append(out, t)
			}
			start = i + 1
		}
	}
	if t := strings.TrimSpace(string(rs[start:])); t != "" {
		out = append(out, t)
	}
	return out
}

// clausesOf splits a sentence at its commas and semicolons, keeping the sentence's end mark on
// the last clause.
func clausesOf(sentence string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(sentence, func(r rune) bool { return r == ',' || r == ';' }) {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// holdsContact reports whether a clause gives a contact detail: an address, a number as long
// as a phone's that is no price, or the visitor's name, given or known.
func holdsContact(clause string, c Contact) bool {
	if strings.Contains(clause, "@") {
		return true
	}
	digits := 0
	for _, r := range clause {
		if unicode.IsDigit(r) {
			digits++
		}
	}
	if digits >= limits.PhoneMinDigits && !assistant.ContainsPrice(clause) {
		return true
	}
	lower := strings.ToLower(clause)
	for _, v := range []string{c.FirstName, c.LastName, c.Email, c.Phone} {
		if v != "" && containsWord(lower, strings.ToLower(v)) {
			return true
		}
	}
	// A self-introduction names the visitor even before the name is known.
	for _, w := range strings.Fields(lower) {
		if w = strings.Trim(w, ".!?…"); w == "vagyok" || w == "nevem" {
			return true
		}
	}
	return strings.HasPrefix(lower, "i'm ") || strings.HasPrefix(lower, "i am ") || strings.HasPrefix(lower, "my name")
}

// containsWord reports whether s holds w as whole words.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[j+len(w):])
		if (j == 0 || !unicode.IsLetter(before)) && (j+len(w) == len(s) || !unicode.IsLetter(after)) {
			return true
		}
		i = j + 1
	}
}

// onlyCourtesy reports whether a sentence only greets or thanks ("Jó napot!", "Köszönöm.").
func onlyCourtesy(s string) bool {
	if strings.Contains(s, "?") || len(strings.Fields(s)) > 3 {
		return false
	}
	in := assistant.DetectIntent(s)
	return (in.Greeting || in.Thanks) && !(in.Price || in.Quote || in.Callback || in.Buying || in.Hours || in.Services)
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// clipText cuts s to at most n characters, at a word's end, marking the cut with "…".
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)[:n-1]
	cut := string(rs)
	if i := strings.LastIndexFunc(cut, unicode.IsSpace); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
