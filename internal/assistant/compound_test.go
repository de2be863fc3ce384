package assistant

import "testing"

// compoundProfile is a made-up window and garden care firm whose services are Hungarian
// compounds.
var compoundProfile = Profile{
	CompanyName: "Próba Bt.",
	Services: []Service{
		{Name: "Fűnyírás", Description: "Kisebb udvarokban, gyűjtéssel együtt.", Price: "45 Ft / m²"},
		{Name: "Sövénynyírás", Description: "Formára vágás, a nyesedék elvitelével.", Price: "6 200 Ft / óra"},
		{Name: "Fakivágás", Description: "Darabolással, a törzs elszállításával.", Price: "18 000 Ft-tól"},
		{Name: "Párkánycsere", Description: "A régi párkány bontása, új beépítése.", Price: "14 500 Ft / m"},
		{Name: "Ablaktisztítás", Description: "Keretekkel és párkányokkal.", Price: "1 900 Ft / ablak"},
	},
	FAQ: []QA{
		{Question: "Van kedvezmény?", Answer: "Diákoknak 10% kedvezményt adunk."},
		{Question: "Hétvégén is dolgoztok?", Answer: "Szombaton délelőtt igen."},
	},
}

// TestCompoundSaidAsTwoWords: a profile's compound that the visitor says as two words of one
// message, each as the compound writes it ("a tujasövényt … nyírni" of "Sövénynyírás"), names
// it as a phrase: a visitor's compound by its end ("almafa … ki kéne vágni" of "Fakivágás"), a
// verb with its prefix, a verb whose noun ends the compound ("cseréltetni a párkányokat" of
// "Párkánycsere"), a first part of two letters where the dictionary lets it begin a compound
// ("füvet" of "Fűnyírás").
func TestCompoundSaidAsTwoWords(t *testing.T) {
	checkAnswers(t, compoundProfile, []answerCase{
		{Hungarian, "A tujasövényt meg tudjátok nyírni?", "6 200 Ft", false, ""},
		{Hungarian, "Mennyiért nyírjátok le a füvet?", "45 Ft", false, ""},
		{Hungarian, "Az ablakot is ki tudjátok tisztítani?", "1 900 Ft", false, ""},
		{Hungarian, "Van egy öreg almafa az udvaron, ki kéne vágni, mennyi?", "18 000 Ft", false, ""},
		{Hungarian, "A fát ki tudjátok vágni?", "18 000 Ft", false, ""},
		{Hungarian, "le akarom cseréltetni a párkányokat, mennyibe kerül?", "14 500 Ft", false, ""},
		{Hungarian, "Az ablak alatt elkorhadt a párkány, kicserélitek?", "14 500 Ft", false, ""},
	})
}

// TestCompoundOfTheFactsWords: a visitor's compound whose head is an FAQ's key is that FAQ
// when the FAQ also says the compound's first part ("diákkedvezmény", "Diákoknak …
// kedvezményt"); one whose first part the FAQ never says may be another thing, and is handed
// over as before.
func TestCompoundOfTheFactsWords(t *testing.T) {
	checkAnswers(t, compoundProfile, []answerCase{
		{Hungarian, "diákkedvezmény van?", "10% kedvezményt", false, ""},
		{Hungarian, "csoportkedvezmény van?", "", true, ""},
	})
}

// TestTwoLetterFirstPart: a first part of two letters joins the next word only where the
// dictionary's compounding flags let it begin a compound: "fű" (grass) does, "ad" (give), a
// verb, does not.
func TestTwoLetterFirstPart(t *testing.T) {
	next := newTerm("vetni", false)
	for _, tc := range []struct {
		first, whole string
		want         bool
	}{
		{"füvet", "fuvetes", true},
		{"adni", "advetes", false},
	} {
		first := newTerm(tc.first, false)
		if got := joins(&first, &next, tc.whole); got != tc.want {
			t.Errorf("joins(%q (%v), vetni, %q) = %v, want %v", tc.first, first.lemmas, tc.whole, got, tc.want)
		}
	}
}

// TestPrefixThreeWordsBefore: an adverb may stand between the auxiliary and the infinitive
// its verbal prefix belongs to ("Be tudunk már jelentkezni?", can we check in already), and
// the question asks about the prefixed verb (check in), not the bare one (apply).
func TestPrefixThreeWordsBefore(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Vendégház",
		FAQ: []QA{
			{Question: "Hogyan lehet jelentkezni a túrákra?", Answer: "A túrákra a honlapon lehet jelentkezni."},
			{Question: "Mikortól lehet bejelentkezni?", Answer: "A szobákat 15 órától adjuk át."},
		},
	}
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Be tudunk már jelentkezni?", "15 órától", false, ""},
		{Hungarian, "Be tudunk akkor jelentkezni?", "15 órától", false, ""},
	})
}
