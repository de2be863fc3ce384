package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// step is one visitor message of a conversation and what the reply must and must not say.
type step struct {
	message  string
	captured Contact // what the chat package's extractor found in the message
	want     []string
	not      []string
}

// converse plays steps against Builtin the way the chat package builds turns: history grows,
// known details accumulate, and request_contact follows the chat rules (buying, price, quote
// or callback intent, or a second message, while contact is incomplete).
func converse(t *testing.T, base Turn, steps []step) {
	t.Helper()
	var history []Message
	var known Contact
	for i, s := range steps {
		if s.captured.Name != "" {
			known.Name = s.captured.Name
		}
		if s.captured.Email != "" {
			known.Email = s.captured.Email
		}
		if s.captured.Phone != "" {
			known.Phone = s.captured.Phone
		}
		var missing []string
		if known.Name == "" {
			missing = append(missing, "name")
		}
		if known.Email == "" {
			missing = append(missing, "email")
		}
		if base.RequirePhone && known.Phone == "" {
			missing = append(missing, "phone")
		}
		in := DetectIntent(s.message)
		turn := base
		turn.Message, turn.History, turn.Captured = s.message, slices.Clone(history), s.captured
		turn.Known = Known{Name: known.Name != "", Email: known.Email != "", Phone: known.Phone != ""}
		turn.Missing, turn.ContactComplete = missing, len(missing) == 0
		turn.RequestContact = !turn.ContactComplete && (in.Buying || in.Price || in.Quote || in.Callback || i >= 1)

		got, err := Builtin{}.Answer(context.Background(), turn)
		if err != nil {
			t.Fatalf("step %d %q: %v", i+1, s.message, err)
		}
		checkReply(t, turn, got.Text, s.want, s.not)
		history = append(history, Message{Visitor: true, Text: s.message}, Message{Text: got.Text})
	}
}

// checkReply checks one reply against the rules every reply keeps and against the step.
func checkReply(t *testing.T, turn Turn, reply string, want, not []string) {
	t.Helper()
	if strings.TrimSpace(reply) == "" {
		t.Errorf("%q: empty reply", turn.Message)
	}
	if n := utf8.RuneCountInString(reply); n > maxReply {
		t.Errorf("%q: reply of %d characters: %s", turn.Message, n, reply)
	}
	if turn.GateQuote && !turn.ContactComplete && ContainsPrice(reply) {
		t.Errorf("%q: reply states a price while gated: %s", turn.Message, reply)
	}
	if strings.ContainsAny(reply, "<>*#`") || strings.Contains(reply, "..") {
		t.Errorf("%q: reply is not plain text: %s", turn.Message, reply)
	}
	for _, w := range want {
		if !strings.Contains(reply, w) {
			t.Errorf("%q: reply lacks %q: %s", turn.Message, w, reply)
		}
	}
	for _, n := range not {
		if strings.Contains(reply, n) {
			t.Errorf("%q: reply holds %q: %s", turn.Message, n, reply)
		}
	}
}

var buttons = []string{"Árak", "Szolgáltatások", "Nyitvatartás", "Visszahívást kérek", "Garancia"}

func TestBuiltinHungarianConversationWithGatedQuote(t *testing.T) {
	base := Turn{Language: Hungarian, Profile: testProfile(t), QuickButtons: buttons, GateQuote: true, RequirePhone: true}
	converse(t, base, []step{
		{message: "Jó napot!", want: []string{"Jó napot kívánok!", "Az Alfa Web Kft.", "Miben segíthetek?", "Árak, Szolgáltatások"},
			not: []string{"kérem, adja meg"}},
		{message: "Mennyibe kerül egy weboldal?",
			want: []string{"személyre szabott ajánlatban", "Kérem, adja meg a nevét, az e-mail címét és a telefonszámát."},
			not:  []string{"1 900 000", "Ft"}},
		{message: "Kovács Péter vagyok, a címem peter.kovacs@example.hu",
			captured: Contact{Name: "Kovács Péter", Email: "peter.kovacs@example.hu"},
			want:     []string{"Köszönöm, Kovács Péter!", "Rögzítettem az e-mail címét: peter.kovacs@example.hu.", "Kérem, adja meg a telefonszámát is."},
			not:      []string{"a nevét", "Ft"}},
		{message: "+36 30 123 4567", captured: Contact{Phone: "+36 30 123 4567"},
			// The name is stored but this request did not carry it: the reply does not repeat it.
			want: []string{"Köszönöm!", "Rögzítettem a telefonszámát: +36 30 123 4567.",
				"kollégánk hamarosan felveszi Önnel a kapcsolatot", "árajánlatot"},
			not: []string{"adja meg", "Kovács", "Péter", "peter.kovacs"}},
		{message: "És mennyi idő alatt készül el a weboldal?", want: []string{"Általában 4–6 hét"}, not: []string{"adja meg"}},
		// The gate opens once contact is complete.
		{message: "Mennyibe kerül a webshop?", want: []string{"elküldi Önnek a személyre szabott árajánlatot", "3 500 000 Ft-tól"}},
		{message: "Köszönöm!", want: []string{"Szívesen!"}},
	})
}

func TestBuiltinEnglishConversation(t *testing.T) {
	p := Profile{CompanyName: "Brightside Solar Ltd.", OpeningHours: "Monday to Friday, 8am to 5pm",
		Services: []Service{{Name: "Heat pump", Description: "Air-to-water heat pumps, installed.", Price: "from EUR 7,500"}},
		FAQ:      []QA{{Question: "Do you offer financing?", Answer: "Yes, interest-free instalments over 24 months."}}}
	base := Turn{Language: English, Profile: p, GateQuote: true}
	converse(t, base, []step{
		{message: "Hello", want: []string{"Hello! I am the virtual assistant of Brightside Solar Ltd. How can I help you?"}},
		{message: "How much is a heat pump?",
			want: []string{"personal quote", "Could you please share your name and your email address?"},
			not:  []string{"7,500", "EUR", "Kérem"}},
		{message: "My name is Anna Smith", captured: Contact{Name: "Anna Smith"},
			want: []string{"Thank you, Anna Smith! I have noted your name.", "Could you please also share your email address?"},
			not:  []string{"your name and"}},
		{message: "anna@example.com", captured: Contact{Email: "anna@example.com"},
			want: []string{"I have noted your email address: anna@example.com.", "a colleague will be in touch", "personal quote"}},
		{message: "Do you offer financing?", want: []string{"interest-free instalments"}},
		{message: "When are you open?", want: []string{"Our opening hours: Monday to Friday, 8am to 5pm."}},
	})
}

func TestBuiltinAnswers(t *testing.T) {
	profile := testProfile(t)
	tests := []struct {
		name string
		turn Turn
		want []string
		not  []string
	}{
		{"FAQ with other words", Turn{Message: "mennyi ido alatt keszul el a weboldalam"}, []string{"Általában 4–6 hét"}, nil},
		{"FAQ by suffixed words", Turn{Message: "Külföldi ügyfelet is vállalnak?"}, []string{"angol nyelven is"}, nil},
		{"FAQ holding a price, open", Turn{Message: "Mennyibe kerül a domain?"}, []string{"5 000 Ft"}, nil},
		{"FAQ holding a price, gated", Turn{Message: "Mennyibe kerül a domain?", GateQuote: true},
			[]string{"személyre szabott ajánlatban"}, []string{"5 000"}},
		{"one word in common is not enough", Turn{Message: "Mennyi idő a szállítás?"}, []string{"nem tudok pontos választ adni"}, []string{"4–6 hét", "Webshop"}},
		{"named service price", Turn{Message: "Mi a webshop ára?"}, []string{"A Webshop ára: 3 500 000 Ft-tól."}, []string{"1 900 000"}},
		{"service without price", Turn{Message: "Mennyibe kerül a karbantartás?"}, []string{"személyre szabott ajánlatot"}, nil},
		{"named service, gated", Turn{Message: "Érdekel a webshop", GateQuote: true}, []string{"Webáruház fizetési"}, []string{"3 500 000"}},
		{"about the company", Turn{Message: "Mivel foglalkoznak?"}, []string{"Szegedi webfejlesztő csapat", "Szolgáltatásaink:"}, nil},
		{"company contact", Turn{Message: "Hol találom önöket?"}, []string{"telefon: +36 62 555 0101", "hello@alfaweb.example", "Kárász utca 1."}, nil},
		{"button: contact", Turn{Message: "Kapcsolat", QuickButtons: []string{"Kapcsolat"}}, []string{"Elérhetőségeink: telefon: +36 62 555 0101"}, nil},
		{"hours", Turn{Message: "mikor vannak nyitva?"}, []string{"Nyitvatartásunk: Hétfőtől péntekig 9:00–17:00."}, nil},
		{"hours unknown", Turn{Message: "Mi a nyitvatartás?", Profile: Profile{CompanyName: "X"}}, []string{"nincs információm"}, []string{"Nyitvatartásunk"}},
		{"button: prices", Turn{Message: "Árak"}, []string{"Áraink:", "Weboldal készítés: 1 900 000 Ft-tól", "Keresőoptimalizálás: havi 90 000 Ft"}, []string{"Karbantartás:"}},
		{"button: prices, gated", Turn{Message: "Árak", GateQuote: true, RequestContact: true, Missing: []string{"email", "name"}},
			[]string{"személyre szabott ajánlatban", "Kérem, adja meg a nevét és az e-mail címét."}, nil},
		{"button: services", Turn{Message: "Szolgáltatások"}, []string{"Szolgáltatásaink: Weboldal készítés (1 900 000 Ft-tól), Webshop", "Karbantartás."}, nil},
		{"button: services, gated", Turn{Message: "Szolgáltatások", GateQuote: true},
			[]string{"Weboldal készítés, Webshop, Keresőoptimalizálás, Karbantartás.", "Az árakról személyre szabott ajánlatot küldünk."}, nil},
		{"button: hours", Turn{Message: "Nyitvatartás"}, []string{"9:00–17:00"}, nil},
		{"button: FAQ by one word", Turn{Message: "Garancia"}, []string{"12 hónap garanciát"}, nil},
		{"button: callback", Turn{Message: "Visszahívást kérek", RequestContact: true, Missing: []string{"phone"}},
			[]string{"visszahívja", "Kérem, adja meg a telefonszámát."}, nil},
		{"company's contact prompt", Turn{Message: "oké", RequestContact: true, Missing: []string{"name", "email", "phone"},
			ContactPrompt: "Hagyja meg elérhetőségét, és 24 órán belül jelentkezünk"},
			[]string{"Hagyja meg elérhetőségét, és 24 órán belül jelentkezünk. Ehhez a nevét, az e-mail címét és a telefonszámát kérném."}, nil},
		{"no ask without request", Turn{Message: "Nyitvatartás", Missing: []string{"name", "email"}}, nil, []string{"adja meg"}},
		{"thanks", Turn{Message: "köszi"}, []string{"Szívesen!"}, nil},
		{"unknown question is handed over", Turn{Message: "Hány munkatársuk van?", Missing: []string{"name", "email"}},
			[]string{"Erre a kérdésre sajnos nem tudok pontos választ adni, de kollégánk szívesen segít.",
				"Ha megadja a nevét és az e-mail címét, kollégánk felveszi Önnel a kapcsolatot."}, []string{"Szegedi", "Ft"}},
		{"unknown question, contact complete", Turn{Message: "Hány munkatársuk van?", ContactComplete: true},
			[]string{"nem tudok pontos választ adni", "Továbbítom a kérdését"}, []string{"adja meg"}},
		{"no question points to the buttons", Turn{Message: "hmm"},
			[]string{"Köszönöm a kérdését!", "válasszon: Árak, Szolgáltatások, Nyitvatartás"}, nil},
		{"no question, no buttons", Turn{Message: "hmm", QuickButtons: []string{}},
			[]string{"Kérdezhet például a szolgáltatásainkról"}, nil},
		{"unknown language is Hungarian", Turn{Message: "Jó napot", Language: "de"}, []string{"Jó napot kívánok!"}, nil},
		{"empty profile", Turn{Message: "Szia! Mennyibe kerül?", Profile: Profile{}}, []string{"Jó napot kívánok!", "Pontos árat itt nem tudok mondani"}, nil},
		{"empty profile greeting", Turn{Message: "Szia", Profile: Profile{}}, []string{"Jó napot kívánok! Miben segíthetek?"}, []string{"virtuális"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turn := tt.turn
			if turn.Profile.CompanyName == "" && tt.name != "empty profile" && tt.name != "empty profile greeting" {
				turn.Profile = profile
			}
			if turn.QuickButtons == nil {
				turn.QuickButtons = buttons
			}
			got, err := Builtin{}.Answer(context.Background(), turn)
			if err != nil {
				t.Fatal(err)
			}
			checkReply(t, turn, got.Text, tt.want, tt.not)
			if got.Proposed != (Contact{}) {
				t.Errorf("Builtin proposed %+v", got.Proposed)
			}
			// The intent the chat worked out and hands over gives the same answer.
			in := DetectIntent(turn.Message)
			turn.Intent = &in
			if again, _ := (Builtin{}).Answer(context.Background(), turn); again != got {
				t.Errorf("with the intent handed over: %+v, without: %+v", again, got)
			}
		})
	}
	// A handed-over intent is the one the answer follows: no second detection.
	turn := Turn{Message: "hmm", Profile: profile, QuickButtons: buttons, Intent: &Intent{Hours: true}}
	if got, _ := (Builtin{}).Answer(context.Background(), turn); !strings.Contains(got.Text, "Nyitvatartásunk") {
		t.Errorf("a handed-over hours intent was not followed: %q", got.Text)
	}
}

func TestBuiltinKeepsRepliesShort(t *testing.T) {
	p := Profile{CompanyName: "X", Description: strings.Repeat("Nagyon hosszú leírás. ", 90)}
	for range 50 {
		p.Services = append(p.Services, Service{Name: "Egy meglehetősen hosszú nevű szolgáltatás", Price: "1 000 000 Ft-tól"})
	}
	for _, msg := range []string{"Mivel foglalkoznak?", "Árak", "Szolgáltatások", "Szia! Mivel foglalkoznak és mennyibe kerül?"} {
		turn := Turn{Profile: p, Message: msg, RequestContact: true, Missing: []string{"name", "email", "phone"}}
		got, _ := Builtin{}.Answer(context.Background(), turn)
		checkReply(t, turn, got.Text, []string{"Hogy kollégánk felvehesse Önnel a kapcsolatot"}, nil)
	}
}

func TestGist(t *testing.T) {
	tests := []struct{ message, want string }{
		{"Mennyibe kerül egy 5 kW-os rendszer? Havi 25 000 Ft a villanyszámlánk.", "Mennyibe kerül egy 5 kW-os rendszer? Havi 25 000 Ft a villanyszámlánk."},
		{"Havi 12 500 000 Ft a keretünk", "Havi 12 500 000 Ft a keretünk"},
		{"Az e-mail címem anna@example.hu", ""},
		{"Itt a számom: +36 30 111 2222", ""},
		{"Jó napot!", ""},
		{"Köszönöm!", ""},
		{"Visszahívást kérek a 06 30 123 4567 számon", "Visszahívást kérek a számon"},
		{"Érdekel a hőszivattyú, anna@example.hu", "Érdekel a hőszivattyú"},
	}
	for _, tt := range tests {
		if got := Gist(tt.message, Contact{}); got != tt.want {
			t.Errorf("Gist(%q) = %q, want %q", tt.message, got, tt.want)
		}
	}
}

func TestServiceFor(t *testing.T) {
	x := NewIndex(testProfile(t))
	tests := []struct{ message, want string }{
		{"Mennyibe kerül egy webshop?", "Webshop"},
		{"Érdekelne a keresőoptimalizálás", "Keresőoptimalizálás"},
		{"Mennyi a garancia?", ""},
		{"Jó napot!", ""},
	}
	for _, tt := range tests {
		if got, _ := x.ServiceFor(tt.message); got != tt.want {
			t.Errorf("ServiceFor(%q) = %q, want %q", tt.message, got, tt.want)
		}
	}
}

func TestDetectLanguage(t *testing.T) {
	tests := []struct {
		text string
		want Language
		sure bool
	}{
		{"How much is a heat pump?", English, true},
		{"Mennyibe kerül?", Hungarian, true},
		{"mennyibe kerul a weboldal", Hungarian, true},
		{"Do you have parking?", English, true},
		{"Szia! Van parkoló?", Hungarian, true},
		{"Debreceni cég vagyok, velem is dolgoztok?", Hungarian, true}, // "is" is Hungarian too
		{"Is there parking?", English, true},
		{"anna@example.com", Hungarian, false},
		{"06 30 123 4567", Hungarian, false},
	}
	for _, tt := range tests {
		if got, sure := DetectLanguage(tt.text); got != tt.want || sure != tt.sure {
			t.Errorf("DetectLanguage(%q) = %q, %v; want %q, %v", tt.text, got, sure, tt.want, tt.sure)
		}
	}
}

// answerCase is a message asked of a profile and what its answer must be: handed over or not,
// a piece of its text ("" for any), and a piece its text must not hold ("" for none).
type answerCase struct {
	lang     Language
	message  string
	want     string
	handover bool
	not      string
}

// checkAnswers answers each message on p with Builtin and checks the hand-over and the text.
func checkAnswers(t *testing.T, p Profile, cases []answerCase) {
	t.Helper()
	for _, tc := range cases {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) || tc.not != "" && strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q, not %q", tc.message, got.Handover, got.Text, tc.handover, tc.want, tc.not)
		}
	}
}
