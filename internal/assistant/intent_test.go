package assistant

import "testing"

func TestDetectIntent(t *testing.T) {
	tests := []struct {
		text string
		want Intent
	}{
		// Hungarian, with and without accents.
		{"Jó napot kívánok!", Intent{Greeting: true}},
		{"jo napot", Intent{Greeting: true}},
		{"Sziasztok", Intent{Greeting: true}},
		{"Mennyibe kerül a telepítés?", Intent{Price: true}},
		{"mennyibe kerul a telepites", Intent{Price: true}},
		{"Mi az ára egy 5 kW-os rendszernek?", Intent{Price: true}},
		{"ÁR?", Intent{Price: true}},
		{"Milyen áron dolgoznak?", Intent{Price: true}},
		{"Érdeklődnék az árakról.", Intent{Price: true, Buying: true}},
		{"Van árlistájuk?", Intent{Price: true}},
		{"Mekkora a kiszállási díj?", Intent{Price: true}},
		{"Árajánlatot szeretnék kérni", Intent{Quote: true}},
		{"Ajánlatot kérek", Intent{Quote: true}},
		{"arajanlat", Intent{Quote: true}},
		{"Visszahívást kérek", Intent{Callback: true}},
		{"Hívjanak vissza legyenek szívesek", Intent{Callback: true}},
		{"hivjon fel kerem", Intent{Callback: true}},
		{"Szeretnék rendelni", Intent{Buying: true}},
		{"Szeretném megrendelni a csomagot", Intent{Buying: true}},
		{"szeretnek vasarolni", Intent{Buying: true}},
		{"Érdekel a hőszivattyú", Intent{Buying: true}},
		{"Mikor vannak nyitva?", Intent{Hours: true}},
		{"Mi a nyitvatartás?", Intent{Hours: true}},
		{"nyitvatartas", Intent{Hours: true}},
		{"Milyen szolgáltatásaik vannak?", Intent{Services: true}},
		{"Köszönöm szépen!", Intent{Thanks: true}},
		{"köszi", Intent{Thanks: true}},
		{"Szia! Mennyibe kerül és mikor vannak nyitva?", Intent{Greeting: true, Price: true, Hours: true}},
		// English.
		{"Hello", Intent{Greeting: true}},
		{"Good morning!", Intent{Greeting: true}},
		{"How much does it cost?", Intent{Price: true}},
		{"What are your prices?", Intent{Price: true}},
		{"Can I get a quote?", Intent{Quote: true}},
		{"Please call me back", Intent{Callback: true}},
		{"I want to buy a heat pump", Intent{Buying: true}},
		{"I'd like to order", Intent{Buying: true}},
		{"What are your opening hours?", Intent{Hours: true}},
		{"What services do you offer?", Intent{Services: true}},
		{"Thank you!", Intent{Thanks: true}},
		// False friends: the words hold a keyword but are not one.
		{"Az árvíz után kellene felmérés", Intent{}},
		{"Hárman lakunk a házban", Intent{}},
		{"Kár, hogy nincs időm", Intent{}},
		{"Sárváron lakunk", Intent{}},
		{"Az orvosi rendelő tetejére kellene", Intent{}},
		{"A szolgáltatóm az E.ON", Intent{}},
		{"Ajánlani tudja valakinek?", Intent{}},
		{"This is priceless", Intent{}},
		{"Costume party", Intent{}},
		{"in order to save money", Intent{}},
		{"Facebookon láttam a hirdetést", Intent{}},
		{"this one", Intent{}},
		{"Mikor vannak akciók?", Intent{}},
		// Negated wishes do not count.
		{"Nem érdekel", Intent{}},
		{"Most nem kérek árajánlatot", Intent{}},
		{"Ne hívjanak, inkább írjanak", Intent{}},
		{"I don't want to buy anything", Intent{}},
		{"Not interested, thanks", Intent{Thanks: true}},
		// A negation in another clause does not reach.
		{"Nem tudom, érdekelne", Intent{Buying: true}},
		{"", Intent{}},
	}
	for _, tt := range tests {
		if got := DetectIntent(tt.text); got != tt.want {
			t.Errorf("DetectIntent(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

func TestContainsPrice(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"1 900 000 Ft-tól", true},
		{"Ára 2 450 000 Ft, kulcsrakészen", true},
		{"39.000 Ft", true},
		{"39000Ft", true},
		{"2\u00a0100\u00a0000 Ft-tól", true},
		{"5 000 HUF", true},
		{"500 e Ft", true},
		{"1,9 M Ft", true},
		{"Kb. 1,9 millió", true},
		{"másfél millióért", true},
		{"két millió forint", true},
		{"öt euró", true},
		{"2 milliárd", true},
		{"ezer forint", true},
		{"Pár ezer forintba kerül", true},
		{"tízezer Ft körül", true},
		{"150 forintot", true},
		{"€1.900", true},
		{"€ 250", true},
		{"250€", true},
		{"EUR 100", true},
		{"100 euro", true},
		{"100 euróért", true},
		{"$49 a month", true},
		{"49 USD", true},
		{"twenty dollars", true},
		{"five euros a month", true},
		{"a few thousand dollars", true},
		{"£30", true},
		// Numbers that are not money.
		{"Hétfőtől péntekig 8:00–17:00", false},
		{"+36 30 123 4567", false},
		{"06-30/123-4567", false},
		{"25 év teljesítménygarancia", false},
		{"évi 1 000 kWh fogyasztáshoz", false},
		{"3–12 kW-os rendszerek", false},
		{"Több mint 1 800 rendszert adtunk át", false},
		{"2011 óta", false},
		{"1117 Budapest, Napfény utca 12.", false},
		{"20% kedvezmény", false},
		{"Euro 2024", false},
		{"Európában", false},
		{"Ingyenes felmérés", false},
		{"Egyéb kérdése van?", false},
		{"Egy európai cég vagyunk", false},
		{"100 európai ügyfél", false},
		{"Hat hónap garancia", false},
		{"Tizenöt éve dolgozunk", false},
		{"A fotók felét elküldtem", false},
		{"Ten years of experience", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := ContainsPrice(tt.text); got != tt.want {
			t.Errorf("ContainsPrice(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
