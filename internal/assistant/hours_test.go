package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestTimeOfVisitIsAnsweredByTheHours: a question of whether or when the company can be
// visited at a time of day or on a day ("Lehet jönni 7-kor?", "Mettől meddig vagytok nyitva?",
// "Are you open at 8am?") is answered by the opening hours, not handed over, on a made-up
// profile whose entries say nothing of the hours; a FAQ that answers it still does.
func TestTimeOfVisitIsAnsweredByTheHours(t *testing.T) {
	p := Profile{
		CompanyName:    "Próba Kerámiaműhely Kft.",
		OpeningHours:   "Hétfő–péntek 9:00–17:00, szombat 10:00–14:00, vasárnap zárva",
		OpeningHoursEN: "Monday–Friday 9:00–17:00, Saturday 10:00–14:00, Sunday closed",
		Services: []Service{{Name: "Korongozás", Description: "Kezdő korongozó alkalom, agyaggal együtt.", Price: "8 000 Ft / alkalom",
			NameEN: "Wheel throwing", DescriptionEN: "A beginner wheel-throwing session, clay included."}},
		FAQ: []QA{{Question: "Van parkoló?", Answer: "Igen, az udvarban.", QuestionEN: "Is there parking?", AnswerEN: "Yes, in the yard."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		lang    Language
		message string
		want    string
	}{
		{Hungarian, "Mettől meddig vagytok nyitva?", "9:00–17:00"},
		{Hungarian, "Lehet jönni 7-kor?", "9:00–17:00"},
		{Hungarian, "Nyitva vagytok vasárnap délután?", "vasárnap zárva"},
		{Hungarian, "Be lehet menni szombaton 11 órakor?", "10:00–14:00"},
		{English, "Are you open at 8am?", "9:00–17:00"},
		{English, "Can I come by at 6 pm on Friday?", "9:00–17:00"},
		{English, "Can I come at 7?", "9:00–17:00"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%q: handover %v, %q", tc.message, got.Handover, got.Text)
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want the hours %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
	// A time of day with a topic the profile lacks is still a colleague's question, and a FAQ
	// that answers a question with a time still answers it.
	for _, tc := range []struct {
		message string
		want    string
	}{
		{"Lehet 7-kor úszni a tóban?", ""},
		{"Van parkoló 7-kor?", "udvarban"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%q: handover %v, %q", tc.message, got.Handover, got.Text)
		if tc.want == "" && (!got.Handover || strings.Contains(got.Text, "9:00")) || tc.want != "" && (got.Handover || !strings.Contains(got.Text, tc.want) || strings.Contains(got.Text, "9:00")) {
			t.Errorf("%q: handover %v, %q; want %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
}

// TestTimeAskedIsSaidOpenOrClosed: a question that names a time of day, and a day or none, is
// told whether the company is open then when the hours text says it plainly for every day and
// reading of the time asked; else the hours alone answer it.
func TestTimeAskedIsSaidOpenOrClosed(t *testing.T) {
	p := Profile{
		CompanyName:    "Próba Kerámiaműhely Kft.",
		OpeningHours:   "Hétfőtől péntekig 9:00–17:00; szombat 10.00-14.00; vasárnap zárva",
		OpeningHoursEN: "Mon–Fri 9:00–17:00, Sat 10:00–14:00, Sun closed",
		FAQ:            []QA{{Question: "Van parkoló?", Answer: "Igen, az udvarban.", QuestionEN: "Is there parking?", AnswerEN: "Yes, in the yard."}},
	}
	x := NewIndex(p)
	const open, closed, neither = "nyitva vagyunk.", "nem vagyunk nyitva", ""
	for _, tc := range []struct {
		lang    Language
		message string
		want    string
	}{
		{Hungarian, "Lehet jönni 7-kor?", closed}, // neither 7:00 nor 19:00 on any day
		{Hungarian, "Nyitva vagytok szombaton 15:00-kor?", closed},
		{Hungarian, "Be lehet menni szerdán 10:30-kor?", open},
		{Hungarian, "Be lehet menni szombaton 11 órakor?", neither}, // 11:00 open, 23:00 not
		{Hungarian, "Nyitva vagytok vasárnap délután?", neither},    // no time of day
		{English, "Are you open at 8am?", closed},
		{English, "Are you open at 10am?", neither}, // open on weekdays, not on Sunday
		{English, "Can I come by at 6 pm on Friday?", closed},
		{English, "Can I come at 11am on Saturday?", open},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%q: %q", tc.message, got.Text)
		said := neither
		for _, v := range []string{open, closed, "we are open then", "we are not open then"} {
			if strings.Contains(got.Text, v) {
				said = map[string]string{open: open, closed: closed, "we are open then": open, "we are not open then": closed}[v]
			}
		}
		if got.Handover || !strings.Contains(got.Text, "9:00–17:00") || said != tc.want {
			t.Errorf("%q: handover %v, %q; want the hours and %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
}
