package assistant

import (
	"slices"
	"testing"
)

// adjadvProfile is a made-up upholsterer whose entries say no evaluative adjective.
func adjadvProfile() Profile {
	return Profile{CompanyName: "Bársony Kárpitosműhely",
		Description:  "Kárpitozás és bútorfelújítás Kecskeméten.",
		OpeningHours: "Hétfő–péntek 8–17",
		Address:      "Kecskemét, Minta utca 12.",
		Services: []Service{
			{Name: "Székkárpitozás", Description: "Étkezőszékek ülőlapjának áthúzása, szövettel együtt.", Price: "12 000 Ft / szék"},
			{Name: "Kanapéáthúzás", Description: "Két- és háromszemélyes kanapék új huzattal.", Price: "85 000 Ft-tól"},
		},
		FAQ: []QA{
			{Question: "Elhozzátok a bútort?", Answer: "Kecskeméten belül 5 000 Ft-ért elszállítjuk és visszahozzuk."},
			{Question: "Van kedvezmény?", Answer: "Hat széktől 10% kedvezményt adunk."},
		}}
}

// TestAdjectiveOfNamedThingAside: an adjective only (as the dictionary lists it: "sima",
// plain; "régi", old) that no entry says, right before a word the first entry names by its
// own name, says what kind of that entry's thing is asked about and leaves the question no
// less answered. An adjective before a word no entry names ("antik fotel") or one the first
// entry does not name ("a penészes szövetet" of "Kanapéáthúzás"), or one the profile says
// ("kétszemélyes"), keeps its weight; a relative price ("olcsóbb") stays a price question.
func TestAdjectiveOfNamedThingAside(t *testing.T) {
	checkAnswers(t, adjadvProfile(), []answerCase{
		{Hungarian, "Mennyibe kerül egy sima székkárpitozás?", "12 000 Ft", false, ""},
		{Hungarian, "Mennyi egy régi fehér kanapéáthúzás?", "85 000 Ft", false, ""},
		{Hungarian, "Mennyibe kerül egy antik fotel áthúzása?", "kollégánk", true, ""},
		{Hungarian, "Beázott a kanapé, kicserélitek a penészes szövetet?", "kollégánk", true, "85 000"},
		{Hungarian, "Van olcsóbb székkárpitozás?", "10%", false, ""},
		{Hungarian, "Kétszemélyes kanapét is áthúztok?", "85 000 Ft", false, ""},
	})
}

// TestAdjectiveOfAKindKeepsWeight: where another entry names a kind of the thing ("Expressz
// székkárpitozás" beside "Székkárpitozás"), an adjective no entry says ("gyors", quick) may
// be the visitor's word for that kind: the question is handed over rather than answered with
// the plain entry's price; the kind's own word ("expressz") finds the kind.
func TestAdjectiveOfAKindKeepsWeight(t *testing.T) {
	p := adjadvProfile()
	p.Services = slices.Insert(p.Services, 1, Service{Name: "Expressz székkárpitozás", Description: "Két munkanapon belül kész.", Price: "18 000 Ft / szék"})
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Mennyibe kerül egy gyors székkárpitozás?", "kollégánk", true, "12 000"},
		{Hungarian, "Mennyi az expressz székkárpitozás?", "18 000 Ft", false, ""},
		{Hungarian, "Mennyibe kerül egy sima kanapéáthúzás?", "85 000 Ft", false, ""},
	})
}

// TestMannerAdverbAside: an adverb of manner made of an adjective ("rendesen", properly;
// "olcsón", cheaply) that no entry says, in a question that names the first entry and whose
// other topic words it says, asks how that entry's thing is done and leaves the question no
// less answered; next to a kind of that thing ("Expressz székkárpitozás") it may ask for
// the kind, and the question is handed over.
func TestMannerAdverbAside(t *testing.T) {
	checkAnswers(t, adjadvProfile(), []answerCase{
		{Hungarian, "Rendesen és pontosan megcsináljátok a székkárpitozást?", "12 000 Ft", false, ""},
		{Hungarian, "Olcsón és szépen megcsináljátok a kanapéáthúzást?", "85 000 Ft", false, ""},
		{Hungarian, "Rendesen és pontosan festetek ajtót?", "kollégánk", true, ""},
	})
	p := adjadvProfile()
	p.Services = slices.Insert(p.Services, 1, Service{Name: "Expressz székkárpitozás", Description: "Két munkanapon belül kész.", Price: "18 000 Ft / szék"})
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Rendesen és pontosan megcsináljátok a székkárpitozást?", "kollégánk", true, "12 000"},
	})
}
