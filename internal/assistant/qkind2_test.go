package assistant

import (
	"slices"
	"testing"
)

// glaziers is a made-up profile of the tests in this file.
var glaziers = Profile{CompanyName: "Gyors Üveges Bt.",
	Description:  "Üvegezés és ablakjavítás Szolnokon és környékén.",
	OpeningHours: "Hétfő–péntek 8:00–17:00, szombat 9:00–12:00, vasárnap zárva",
	Phone:        "+36 56 555 010",
	Address:      "Szolnok, Kossuth tér 3.",
	Services: []Service{{Name: "Ablaküveg csere", Description: "Betört ablaküveg cseréje a helyszínen, hőszigetelő üveggel.", Price: "18 000 Ft-tól"},
		{Name: "Tükör szabás", Description: "Tükör méretre vágása és felszerelése.", Price: "9 000 Ft / m²"}},
	FAQ: []QA{{Question: "Mennyi idő alatt értek ki?", Answer: "Szolnokon belül általában 40 percen belül ott vagyunk."},
		{Question: "Van kiszállási díj?", Answer: "Szolnokon belül a kiszállás ingyenes, azon kívül 150 Ft / km."},
		{Question: "Mennyi idő alatt készül el az új ablak?", Answer: "Egyedi méretre 8–12 munkanap."}}}

// TestHowFastAsksALength: "how fast" before a verb of doing asks a length of time, as "how
// long", "how quickly" and "how soon" do: an entry that states no length (a call-out fee) does
// not answer it. "How fast is the wifi?" asks a speed, which an entry states without a length.
func TestHowFastAsksALength(t *testing.T) {
	checkAnswers(t, glaziers, []answerCase{
		{English, "How fast can you get here?", "", true, ""},
		{English, "How fast can you make a new window?", "8–12 munkanap", false, ""},
	})
	office := Profile{CompanyName: "Irodaház Kft.", Description: "Bérelhető irodák Szolnokon.",
		FAQ: []QA{{Question: "Van wifi?", Answer: "Igen, gyors wifi van minden irodában."}}}
	checkAnswers(t, office, []answerCase{
		{English, "How fast is the wifi?", "gyors wifi", false, ""},
	})
}

// TestClockInWordsAsksTheHours: a time of day said in words ("kettőkor", "hétkor"), or with a
// part of the day ("éjjel kettőkor"), is a time of day as "7-kor" is; a question of coming
// then names nothing but times, and the opening hours answer it, not the FAQ about what the
// night costs. "Available" is no topic of its own: "Are you available at 3am?" asks the hours.
func TestClockInWordsAsksTheHours(t *testing.T) {
	rescue := Profile{CompanyName: "Éjjel-Nappal Üvegező Kft.",
		Description:  "Betört üvegek sürgős cseréje Győrben.",
		OpeningHours: "Iroda hétfő–péntek 8–16; kiszállás a hét minden napján 0–24.",
		Services:     []Service{{Name: "Kirakatüveg csere", Description: "Betört kirakat ideiglenes lezárása és üvegcseréje.", Price: "25 000 Ft-tól"}},
		FAQ: []QA{{Question: "Éjjel és hétvégén drágább?", Answer: "Este 20 és reggel 6 között 40% felárat számolunk."},
			{Question: "Van kiszállási díj?", Answer: "Győrben ingyenes, azon kívül 150 Ft / km."}}}
	checkAnswers(t, rescue, []answerCase{
		{Hungarian, "Éjjel kettőkor is ki tudtok jönni?", "0–24", false, ""},
		{Hungarian, "Hajnali háromkor is ki tudtok jönni?", "0–24", false, ""},
		// The FAQ says the morning too ("reggel 6"), yet answers what the night costs, which
		// no one asked (clockOnly in content).
		{Hungarian, "Éjjel kettőkor is ki tudtok jönni, vagy csak reggel?", "0–24", false, ""},
		{English, "Are you available at 3am?", "0–24", false, ""},
		{Hungarian, "Éjjel drágább?", "40% felárat", false, ""},
	})
	checkAnswers(t, glaziers, []answerCase{
		{Hungarian, "Lehet jönni hétkor?", "nem vagyunk nyitva", false, ""},
		{Hungarian, "Vasárnap tízkor nyitva vagytok?", "nem vagyunk nyitva", false, ""},
	})
}

// TestByWhenAsksALength: "mikorra" (by when) asks how long until something is ready, as
// "mennyi idő alatt" does: the entry that states the length answers, not the one that
// names the thing and says what it is.
func TestByWhenAsksALength(t *testing.T) {
	framer := Profile{CompanyName: "Keret és Kép Bt.",
		Description: "Képkeretezés és tükörkészítés Pécsen.",
		Services: []Service{{Name: "Fazettás tükör", Description: "Csiszolt szélű tükör méretre vágva, falra szerelve.", Price: "14 000 Ft / m²"},
			{Name: "Képkeretezés", Description: "Fa és alumínium keretek, paszpartuval.", Price: "6 500 Ft-tól"}},
		FAQ: []QA{{Question: "Mennyi idő alatt készül el a megrendelés?", Answer: "Kerettel 3–5 munkanap, fazettás tükörrel 8–10 munkanap."},
			{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával is."}}}
	checkAnswers(t, framer, []answerCase{
		{Hungarian, "A fazettás tükör mikorra lesz meg?", "8–10 munkanap", false, ""},
		{Hungarian, "Mikorra készül el a keretezés?", "3–5 munkanap", false, ""},
		{Hungarian, "Mennyibe kerül a fazettás tükör?", "14 000 Ft", false, ""},
	})
}

// TestTimeOfTheQuoteIsNoPriceQuestion: a question of when or how soon a quote comes names the
// quote as its topic; it wishes for no price, and the entry that says when quotes are sent
// answers it. A quote asked for alone is still a wish for one.
func TestTimeOfTheQuoteIsNoPriceQuestion(t *testing.T) {
	roofer := Profile{CompanyName: "Tetőmester Kft.",
		Description: "Tetőfedés és bádogozás Zalaegerszegen.",
		Services:    []Service{{Name: "Cserépcsere", Description: "Törött cserepek cseréje, beázás megszüntetése.", Price: "12 000 Ft-tól"}},
		FAQ: []QA{{Question: "Ingyenes a felmérés?", Answer: "Igen, a helyszíni felmérés ingyenes, az ajánlatot öt munkanapon belül küldjük."},
			{Question: "Hogyan lehet fizetni?", Answer: "Átutalással vagy készpénzzel."}}}
	checkAnswers(t, roofer, []answerCase{
		{Hungarian, "Mennyi idő múlva kapom meg az ajánlatot?", "öt munkanapon belül", false, ""},
		{Hungarian, "Mikor kapom meg az árajánlatot?", "öt munkanapon belül", false, ""},
		{Hungarian, "Kérek árajánlatot.", "árajánlat", false, ""},
	})
}

// TestWhetherAPriceIsGiven: a yes-or-no question of whether the company gives a price ("over
// the phone", "e-mailben") is answered by the FAQ that asks so, though that FAQ states no
// price; a question of what something costs is still the priced service's.
func TestWhetherAPriceIsGiven(t *testing.T) {
	movers := Profile{CompanyName: "Könnyű Költözés Bt.",
		Description: "Lakásköltöztetés Veszprémben.",
		Phone:       "+36 88 555 201",
		Services:    []Service{{Name: "Lakásköltöztetés", Description: "Két fő és egy 3,5 tonnás teherautó, bútorszereléssel.", Price: "9 000 Ft / óra"}},
		FAQ: []QA{{Question: "E-mailben is mondtok árat?", Answer: "Fényképek alapján hozzávetőleges összeget írunk, a végleges összeget felmérés után."},
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel vagy átutalással."}}}
	checkAnswers(t, movers, []answerCase{
		{Hungarian, "E-mailben is mondtok árat?", "hozzávetőleges", false, ""},
		{English, "Can you give me a price by email?", "hozzávetőleges", false, ""},
		{Hungarian, "Mennyibe kerül a lakásköltöztetés?", "9 000 Ft", false, ""},
	})
}

// TestOpenWithAnObjectIsNoHours: English "open" before an object ("open a safe", "open the
// door", "open it") is the verb of opening a thing, not the opening hours: the reply does not
// add the hours. "When do you open?" and "Are you open on Monday?" still ask them.
func TestOpenWithAnObjectIsNoHours(t *testing.T) {
	locks := Profile{CompanyName: "Kulcs Pont Kft.",
		Description:  "Zárszerelés Szegeden.",
		OpeningHours: "Hétfő–péntek 9:00–17:00",
		Services: []Service{{Name: "Széfnyitás", Description: "Elzáródott széfek nyitása kódfejtéssel.", Price: "25 000 Ft-tól"},
			{Name: "Garázskapu javítás", Description: "Beragadt garázskapuk javítása.", Price: "12 000 Ft-tól"}},
		FAQ: []QA{{Question: "Sérül a széf nyitáskor?", Answer: "Általában nem, a zárat roncsolás nélkül nyitjuk."}}}
	checkAnswers(t, locks, []answerCase{
		{English, "How much to open a safe?", "25 000 Ft", false, "9:00–17:00"},
		{English, "Will you damage the safe when you open it?", "roncsolás nélkül", false, "9:00–17:00"},
		{English, "When do you open?", "9:00–17:00", false, ""},
		{English, "Are you open on Monday?", "9:00–17:00", false, ""},
	})
}

// TestTimeOfDayAskedIsStated: "hánytól hányig", "hány órától", "what time" ask a time of day:
// the entry that states one answers (a service's "16:00 és 21:00 között"), not an FAQ about
// the same thing that states none; "hány órától" is the kind of answer, no topic word ("óra").
func TestTimeOfDayAskedIsStated(t *testing.T) {
	spa := Profile{CompanyName: "Termál Liget Kft.",
		Description:  "Fedett uszoda és wellness Hajdúszoboszlón.",
		OpeningHours: "Hétfő–vasárnap 6:00–22:00",
		Services: []Service{{Name: "Szauna", Description: "Finn és infraszauna, 16:00 és 21:00 között.", Price: "2 500 Ft / alkalom"},
			{Name: "Úszóbérlet", Description: "Tíz alkalmas bérlet az uszodába.", Price: "18 000 Ft"}},
		FAQ: []QA{{Question: "Lehet szaunázni is?", Answer: "Igen, a szauna külön jegyes, a pénztárban vehető."},
			{Question: "Van törölközőkölcsönzés?", Answer: "Igen, 800 Ft-ért."}}}
	checkAnswers(t, spa, []answerCase{
		{Hungarian, "Hánytól hányig lehet szaunázni?", "16:00 és 21:00", false, ""},
		{Hungarian, "Hány órától megy a szauna?", "16:00 és 21:00", false, ""},
		{Hungarian, "Hánytól lehet szaunázni?", "16:00 és 21:00", false, ""},
		{Hungarian, "Lehet szaunázni is?", "külön jegyes", false, ""},
		{Hungarian, "Hány órától vagytok nyitva?", "6:00–22:00", false, ""},
	})
}

// TestBreakfastIsNoMorning: "reggelizni" (to have breakfast) is no word of the morning: a
// question of when breakfast is served is not read as the opening hours.
func TestBreakfastIsNoMorning(t *testing.T) {
	cafe := Profile{CompanyName: "Sarok Kávézó Bt.",
		Description:  "Kávézó és bisztró Nyíregyházán.",
		OpeningHours: "Hétfő–vasárnap 7:00–19:00",
		Services: []Service{{Name: "Bőséges reggeli menü", Description: "Tojásos ételek, friss pékáru és kávé, 8:00 és 11:00 között.", Price: "2 900 Ft / fő"},
			{Name: "Ebédmenü", Description: "Leves és főétel hétköznap.", Price: "2 600 Ft"}}}
	checkAnswers(t, cafe, []answerCase{
		{Hungarian, "Hánytól lehet reggelizni?", "8:00 és 11:00", false, ""},
		{Hungarian, "Reggel hánytól vagytok nyitva?", "7:00–19:00", false, ""},
	})
}

// TestClockInWordsTimes: the times of day an hour said in words names: "hétkor" seven and
// nineteen, "fél hétkor" half past six, in the morning or the evening, "fél tizenkettőkor"
// half past eleven; "délkor" (at noon) and "éjfélkor" (at midnight) one time each.
func TestClockInWordsTimes(t *testing.T) {
	for _, tc := range []struct {
		message string
		want    []int
	}{
		{"Nyitva vagytok hétkor?", []int{7 * 60, 19 * 60}},
		{"Fél hétkor jöhetek?", []int{6*60 + 30, 18*60 + 30}},
		{"Fél tizenkettőkor is nyitva vagytok?", []int{11*60 + 30, 23*60 + 30}},
		{"Délkor nyitva vagytok?", []int{12 * 60}},
		{"Éjfélkor is jöttök?", []int{0}},
	} {
		if got := clockAsked(tokens(tc.message)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: times %v, want %v", tc.message, got, tc.want)
		}
	}
}
