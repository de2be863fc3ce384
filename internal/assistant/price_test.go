package assistant

import (
	"context"
	"strings"
	"testing"
)

// priceProfile is a made-up watch repairer whose FAQ about opening a watch mentions the seal
// that one of its priced services is.
func priceProfile() Profile {
	return Profile{CompanyName: "Ketyegő Kft.",
		Description:  "Karórák és faliórák javítása, elemcsere és tömítés megvárható.",
		OpeningHours: "Hétfő–péntek 9–17",
		Address:      "Győr, Próba utca 7.",
		Services: []Service{
			{Name: "Elemcsere", Description: "Karóra elemének cseréje, helyben, pár perc alatt.", Price: "3 500 Ft"},
			{Name: "Vízálló tömítés", Description: "Karcolásálló gumitömítés, nyomáspróbával.", Price: "12 000 Ft-tól"},
			{Name: "Szíjcsere", Description: "Bőr- vagy fémszíj felszerelése, a régi szíj elvihető.", Price: "4 000 Ft-tól"},
			{Name: "Sürgős javítás", Description: "Javítás még aznap, a sorban előre véve.", Price: "a javítás ára + 5 000 Ft"},
			{Name: "Rendszeres karbantartás", Description: "Havi átalány: évente kétszeri átvizsgálás.", Price: "9 000 Ft / hó"},
			{Name: "Ultrahangos tisztítás", Description: "A tok és a fémszíj tisztítása, szárítással.", Price: "2 500 Ft"},
		},
		FAQ: []QA{
			{Question: "Kinyitjátok a hátlapot?", Answer: "Igen, kíméletesen: a tömítést sem karcoljuk meg."},
			{Question: "Van garancia a javításra?", Answer: "Minden javításra egy év garanciát adunk."},
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel vagy kártyával, az átvételkor."},
			{Question: "Milyen órákat vállaltok?", Answer: "Kar- és faliórát, mechanikusat és kvarcot is."},
			{Question: "Benne van az árban a tisztítás?", Answer: "A javítás árában nincs benne; a tisztítás külön kérhető."},
		}}
}

// TestTrailingHowMuch: a "mennyi" that stands as a part of its own, with no topic word ("…?
// Mennyi?", "…, az mennyi lesz?"), asks the price of what the message named before it, when
// that is a priced service's own name; and that name said, the rest of the question may
// describe the service in the visitor's words, also when another entry chosen beside the
// service ("Milyen órákat vállaltok?" by "vállaltok") leaves the two short of an answer. A trailing "mennyi" of what no priced service
// names ("…garancia? Mennyi?") asks no price.
func TestTrailingHowMuch(t *testing.T) {
	p := priceProfile()
	for _, tc := range []struct {
		message string
		want    string // a piece of the answer; empty: handed over
		not     string // a piece the answer must not hold
	}{
		{"Van olyan tömítésetek, amit nem lehet megkarcolni? Mennyi?", "12 000 Ft", "kíméletesen"},
		{"Van tömítés, amit nem lehet megkarcolni? Mennyi lenne?", "12 000 Ft", "kíméletesen"},
		{"Tömítés, amit nem lehet megkarcolni, az mennyi lesz?", "12 000 Ft", "kíméletesen"},
		{"Havidíjas karbantartást is vállaltok gyűjtőknek? Mennyi?", "9 000 Ft", ""},
		{"Van garancia a javításra? Mennyi?", "egy év garanciát", "Ft"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == "" && !got.Handover || tc.want != "" && (got.Handover || !strings.Contains(got.Text, tc.want)) ||
			tc.not != "" && strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: handover %v, want %q and not %q in: %s", tc.message, got.Handover, tc.want, tc.not, got.Text)
		}
	}
}

// TestHowMuchOfAPricedService: a bare "mennyi" of a word that an FAQ and one priced service
// both name by their own words ("Mennyi a tisztítás?" of "Benne van az árban a tisztítás?" and
// "Ultrahangos tisztítás") asks what the service costs; a word in the distributive case
// ("alkalmanként", "havonta") in such a question, or right after its "mennyi", is the unit of
// the price, not a topic the profile must say.
func TestHowMuchOfAPricedService(t *testing.T) {
	p := priceProfile()
	for _, tc := range []struct {
		message string
		want    string // a piece of the answer
		not     string // a piece the answer must not hold
	}{
		{"Mennyi a tisztítás?", "2 500 Ft", "külön kérhető"},
		{"Mennyi a tisztítás alkalmanként?", "2 500 Ft", "külön kérhető"},
		{"Mennyi alkalmanként a tisztítás?", "2 500 Ft", "külön kérhető"},
		{"Mennyi havonta a tisztítás?", "2 500 Ft", "külön kérhető"},
		{"Mennyi a garancia?", "egy év garanciát", "Ft"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) || tc.not != "" && strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: handover %v, want %q and not %q in: %s", tc.message, got.Handover, tc.want, tc.not, got.Text)
		}
	}
}

// TestHowMuchMoreToPay: "mennyivel kell többet fizetni" asks what something costs beyond the
// usual, a price, not whether or how one pays.
func TestHowMuchMoreToPay(t *testing.T) {
	p := priceProfile()
	for _, message := range []string{
		"Sürgős javításnál mennyivel kell többet fizetni?",
		"Sürgős javításnál mennyivel többet kell fizetni?",
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, "5 000 Ft") || strings.Contains(got.Text, "Készpénzzel") {
			t.Errorf("%q: handover %v, want the surcharge of the urgent repair in: %s", message, got.Handover, got.Text)
		}
	}
}

// recordProfile is a made-up record cleaner whose FAQ about posting mentions records and a
// price of its own.
func recordProfile() Profile {
	return Profile{CompanyName: "Barázda Bt.",
		Description: "Hanglemezek gondozása Pécsett.",
		Services: []Service{
			{Name: "Bakelit felújítás", Description: "Tisztítás ultrahanggal, antisztatikus tasakkal.", Price: "900 Ft / lemez"},
			{Name: "Digitalizálás", Description: "Lemezről hangfájl, sávokra vágva.", Price: "3 000 Ft / lemez"},
		},
		FAQ: []QA{
			{Question: "Tisztítás postán?", Answer: "Igen, a bakelit lemezeket postán is fogadjuk; a visszaküldés 2 000 Ft."},
			{Question: "Bakelit postán?", Answer: "Igen, fogadjuk; a visszaküldés 2 000 Ft."},
		}}
}

// TestPriceOfTheNamedService: a price question that an FAQ and a priced service match as
// much, the FAQ by a word of its question and one of its answer, which states a price of
// something else, asks the price of the service the question names; so does one that names
// the two alike ("Bakelit ára?" of "Bakelit postán?" and "Bakelit felújítás").
func TestPriceOfTheNamedService(t *testing.T) {
	p := recordProfile()
	for _, message := range []string{"Mennyibe kerül a bakelit tisztítás?", "Mi a bakelit tisztítás ára?", "Bakelit ára?"} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, "900 Ft") || strings.Contains(got.Text, "2 000 Ft") {
			t.Errorf("%q: handover %v, want the cleaning's price, not the postage, in: %s", message, got.Handover, got.Text)
		}
	}
}
