package assistant

import "testing"

// TestSavingCompound: a word written with the noun "mentés" (saving, rescue) is a compound
// of it ("fájlmentés", file recovery; "adatmentés"), not its first part with the suffix of
// lack "-mentes" (free of), which folds alike: it names the entry of that name with full
// weight, though the stripped stem's lemma ("ad", give, of "adat") is a generic word. A word
// written with the suffix stays a word of lack.
func TestSavingCompound(t *testing.T) {
	p := Profile{CompanyName: "Kvarc Gépház Bt.", Address: "7621 Pécs, Király u. 20.",
		Services: []Service{
			{Name: "Adatmentés", Description: "Sérült lemezről, pendrive-ról.", Price: "29 000 Ft-tól"},
			{Name: "Háztól házig", Description: "A gépet elhozzuk és visszavisszük.", Price: "3 500 Ft"},
			{Name: "Porszűrőcsere", Description: "Porszűrő cseréje allergénmentes szűrőre.", Price: "6 000 Ft"}},
		FAQ: []QA{
			{Question: "Milyen gépeket javítotok?", Answer: "Asztali gépeket és laptopokat."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Adatmentés mennyi?", lang: Hungarian, want: "29 000 Ft"},
		{message: "Adatmentés mennyi, és el tudjátok hozni a gépet?", lang: Hungarian, want: "29 000 Ft"},
	})
	for _, w := range []string{"adatmentés", "adatmentést"} {
		if q := newTerm(w, false); q.lemmas[0] != "adatmentes" || len(q.parts) != 2 || q.parts[0] != "adat" {
			t.Errorf("%s: lemmas %v, parts %v; want the compound adat + mentés", w, q.lemmas, q.parts)
		}
	}
	if q := newTerm("cukormentes", false); q.lacks != "cukor" {
		t.Errorf("cukormentes lacks %q, want cukor", q.lacks)
	}
}
