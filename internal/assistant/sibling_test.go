package assistant

import (
	"context"
	"strings"
	"testing"
)

// siblingProfile is a made-up cleaning firm with compound service names that share a part:
// two of one head ("Ablaktisztítás", "Autótisztítás") and two of one first part
// ("Autótisztítás", "Autómosás"). The car cleaning's description tells a visitor's story
// (stains, mud) in words any visitor may use.
var siblingProfile = Profile{
	CompanyName: "Próba Bt.",
	Services: []Service{
		{Name: "Ablaktisztítás", Description: "Lakások és irodák ablakainak tisztítása kívül-belül, kerettel együtt.", Price: "9 000 Ft"},
		{Name: "Autótisztítás", Description: "Ha a kárpit foltos lett vagy sáros maradt: az autó belsejének tisztítása gőzzel.", Price: "12 000 Ft"},
		{Name: "Autómosás", Description: "Kézi mosás kívül, viasz bevonattal.", Price: "6 000 Ft"},
	},
	FAQ: []QA{
		{Question: "Hétvégén is dolgoztok?", Answer: "Szombaton délelőtt igen."},
	},
}

// TestSiblingNamedWhole: of two entries whose compound names share a part, the one whose name
// the question says whole (its first part and its last, as two words of a Hungarian message,
// "az ablak … megtisztítani", or as an English phrase, "window cleaning") answers first, not
// the sibling its shared part alone matches, however many of the visitor's other words that
// sibling's description says. A compound of the shared head whose first part no entry's
// name says ("szőnyegtisztítás", "kárpittisztítás", "carpet cleaning") names none of them
// by the head alone: handed over, as before.
func TestSiblingNamedWhole(t *testing.T) {
	for _, tc := range []struct {
		lang               Language
		message, want, not string
	}{
		{Hungarian, "Foltos lett és sáros maradt az ablak, mennyibe kerülne megtisztítani?", "9 000 Ft", "12 000 Ft"},
		{English, "Stained and muddy: how much would window cleaning cost?", "9 000 Ft", "12 000 Ft"},
	} {
		checkFirst(t, siblingProfile, tc.lang, tc.message, tc.want, tc.not)
	}
	checkAnswers(t, siblingProfile, []answerCase{
		{Hungarian, "Mennyibe kerül a szőnyegtisztítás?", "", true, ""},
		{Hungarian, "Vállaltok kárpittisztítást?", "", true, ""},
		{English, "How much is carpet cleaning?", "", true, ""},
	})
}

// checkFirst answers message on p with Builtin and checks that it is not handed over and that
// its text holds want, before other if it holds other at all.
func checkFirst(t *testing.T, p Profile, lang Language, message, want, other string) {
	t.Helper()
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: lang, Profile: p, Message: message})
	if err != nil {
		t.Fatal(err)
	}
	at, before := strings.Index(got.Text, want), strings.Index(got.Text, other)
	if got.Handover || at < 0 || before >= 0 && before < at {
		t.Errorf("%q: handover %v, %q; want %q first", message, got.Handover, got.Text, want)
	}
}
