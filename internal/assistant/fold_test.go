package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestAccentsTellContentWords: folding drops the accents that tell a noun, verb or adjective
// from a function word ("óra", hour, and "őrá", onto him; "mély", deep, and "mely", which;
// "nő", woman, and "no", well), so a word typed with accents is a function word only as
// spelled, an English word's Hungarian words keep the content words folding made look like
// function words, and a function word spelled as such is still none of the topic.
func TestAccentsTellContentWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string // a folded word the profile's words hold, "" for none
	}{
		{"Egy vezetési óra 50 perces.", "ora"},
		{"Mély barázdák tisztítása.", "mely"},
		{"Női hajvágás, nő és férfi vendégeknek.", "no"},
		{"Elem cseréje.", "elem"},
		{"Mely napokon?", ""},
	} {
		got := termsOf(tc.text)
		folds := make([]string, len(got))
		for i := range got {
			folds[i] = got[i].fold
		}
		if tc.want != "" && !slices.Contains(folds, tc.want) {
			t.Errorf("%q: words %q, want %q among them", tc.text, folds, tc.want)
		}
		if tc.want == "" && slices.Contains(folds, "mely") {
			t.Errorf("%q: words %q, want no %q (which)", tc.text, folds, "mely")
		}
	}
	for en, hu := range map[string]string{"hour": "ora", "hair": "haj", "deep": "mely", "woman": "no", "element": "elem"} {
		if q := newTerm(en, true); !slices.Contains(q.trans, hu) {
			t.Errorf("%q translates to %q, want %q among them", en, q.trans, hu)
		}
	}
	p := Profile{CompanyName: "Próba Uszoda",
		FAQ: []QA{{Question: "Milyen hosszú a medence?", Answer: "A medence 25 méteres."},
			{Question: "Milyen mély a medence?", Answer: "A medence 1,4 méter mély."},
			{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával is."}}}
	for _, tc := range []struct {
		message, want string
		lang          Language
	}{
		{"Mély a medence?", "1,4 méter", Hungarian},
		{"Mennyire mély?", "1,4 méter", Hungarian},
		{"Is the pool deep?", "1,4 méter", English},
		{"Is it deep?", "1,4 méter", English},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
}

// TestSuffixesOnWordsTheDictionaryLacks: a word of the profile that the dictionary lacks (a
// loan, a brand) takes Hungarian suffixes as any word does, and the visitor's suffixed form is
// that word: "podcastoznék" is "podcast" with "-oz", "-na" and "-k".
func TestSuffixesOnWordsTheDictionaryLacks(t *testing.T) {
	p := Profile{CompanyName: "Próba Stúdió",
		Services: []Service{{Name: "Podcast", Description: "Saját műsor felvétele stúdióban, vágással.", Price: "60 000 Ft / epizód"},
			{Name: "Instagram-kezelés", Description: "Heti három poszt és sztorik.", Price: "80 000 Ft / hó"},
			{Name: "Weboldal", Description: "Bemutatkozó oldal tárhellyel.", Price: "250 000 Ft"}},
		FAQ: []QA{{Question: "Hol van a stúdió?", Answer: "Szegeden, a Kárász utcában."}}}
	for _, tc := range []struct{ message, want string }{
		{"Mennyibe kerül, ha podcastoznék nálatok?", "60 000 Ft"},
		{"Instagramozni helyettem mennyiért?", "80 000 Ft"},
		{"Mennyi a podcast?", "60 000 Ft"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
}
