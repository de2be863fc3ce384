package assistant

import "testing"

// TestClippedFirstPart: a visitor's compound whose first part is a clipping of a profile
// compound's first part, with the same head ("akkucsere" of "Akkumulátorcsere"), names that
// entry, as its full form does; a beginning that is no clipping is none (see TestClips).
func TestClippedFirstPart(t *testing.T) {
	p := Profile{CompanyName: "Zöldhegy Bringa Kft.", Address: "9400 Sopron, Tűzoltó u. 3.",
		Services: []Service{
			{Name: "Akkumulátorcsere", Description: "Gyengén tartó cellák cseréje gyári egységre.", Price: "64 000 Ft"},
			{Name: "Fékbetétcsere", Description: "Tárcsafék betétjeinek cseréje.", Price: "7 500 Ft"},
			{Name: "Láncolajozás", Description: "Lánc tisztítása és olajozása.", Price: "2 000 Ft"}},
		FAQ: []QA{
			{Question: "Van garancia a javításra?", Answer: "Minden javításra fél év garanciát adunk."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Mennyi az akkucsere?", lang: Hungarian, want: "64 000 Ft"},
		{message: "Mennyi az akkumulátorcsere?", lang: Hungarian, want: "64 000 Ft"},
	})
}

// TestClips: a clipping is the beginning of a longer dictionary word that shares a main
// English sense with it and whose rest is no word, suffix or part; a verb that begins its
// derivation is none.
func TestClips(t *testing.T) {
	for _, tc := range []struct {
		short, long string
		want        bool
	}{
		{"akku", "akkumulator", true},
		{"nyolc", "nyolcadik", false},      // a suffix
		{"elefant", "elefantcsont", false}, // a compound
		{"olvas", "olvasmany", false},      // a verb's derivation
		{"akku", "akkumulatorcsere", false},
		{"kapu", "kapualj", false},
	} {
		if got := clips(tc.short, tc.long); got != tc.want {
			t.Errorf("clips(%q, %q) = %v, want %v", tc.short, tc.long, got, tc.want)
		}
	}
}
