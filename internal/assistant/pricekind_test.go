package assistant

import (
	"context"
	"strings"
	"testing"
)

// pricekindProfile is a made-up glass workshop whose booking FAQ mentions its services' words.
func pricekindProfile() Profile {
	return Profile{CompanyName: "Fénytörés Kft.",
		Description:  "Üvegművesség kezdőknek és haladóknak, egy alkalomtól a hosszabb kurzusokig.",
		OpeningHours: "Kedd–szombat 10–19",
		Address:      "Szeged, Próba utca 3.",
		Services: []Service{
			{Name: "Olvasztás", Description: "Üveglapokból ékszer vagy tál, kemencében kiégetve.", Price: "9 000 Ft"},
			{Name: "Üvegfúvás", Description: "Egy alkalom mesterrel: a saját poharát fújja meg.", Price: "15 000 Ft / alkalom"},
			{Name: "Ólomüveg kurzus", Description: "Ablakkép készítése, 4 hetes kurzus heti egy alkalommal.", Price: "42 000 Ft",
				NameEN: "Leaded glass course", DescriptionEN: "Making a window panel, a 4-week course, one session a week."},
		},
		FAQ: []QA{
			{Question: "Kell előre jelentkezni?", Answer: "Igen, az olvasztás alkalmakra egy héttel előtte, a többire három nappal előtte."},
			{Question: "Van garancia a kész tárgyakra?", Answer: "A kiégetett tárgyakra nem vállalunk garanciát."},
		}}
}

// TestBareHowMuchNamesAPricedService: a bare "mennyi" of what a priced service's name alone
// names asks its price ("Olvasztás alkalom mennyi?"), though an FAQ that mentions the words
// ranks first; a "mennyi" of something no service's name holds ("Mennyi a garancia?") or of
// a count ("Mennyi ember fér be...?") is no price question.
func TestBareHowMuchNamesAPricedService(t *testing.T) {
	p := pricekindProfile()
	for _, tc := range []struct {
		message string
		want    string // a piece of the answer; empty: handed over
		not     string // a piece the answer must not hold
	}{
		{"Olvasztás alkalom mennyi?", "9 000 Ft", "egy héttel előtte"},
		{"Mennyi az olvasztás alkalom?", "9 000 Ft", "egy héttel előtte"},
		{"Mennyi a garancia?", "nem vállalunk garanciát", "Ft"},
		{"Mennyi ember fér be egy olvasztás alkalomra?", "", "9 000 Ft"},
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

// TestPriceAndLengthOfOneService: a question of what a service costs and how long it lasts is
// answered by the service's description, which states its length ("4 hetes kurzus"), with its
// price; "how long does it last" asks a length, and "last" names no topic that the opening
// hours could answer.
func TestPriceAndLengthOfOneService(t *testing.T) {
	p := pricekindProfile()
	for _, tc := range []struct {
		message string
		lang    Language
		want    []string // pieces of the answer
	}{
		{"How much is the leaded glass course and how long does it last?", English, []string{"42 000 Ft", "4-week"}},
		{"How long does the leaded glass course last?", English, []string{"4-week"}},
		{"Mennyibe kerül az ólomüveg kurzus és meddig tart?", Hungarian, []string{"42 000 Ft", "4 hetes"}},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		ok := !got.Handover && !strings.Contains(got.Text, "Kedd–szombat")
		for _, w := range tc.want {
			ok = ok && strings.Contains(got.Text, w)
		}
		if !ok {
			t.Errorf("%q: handover %v, want %q and no opening hours in: %s", tc.message, got.Handover, tc.want, got.Text)
		}
	}
}
