package contact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Common Hungarian and English given names, nicknames included. The list decides two things
// only: whether a lone capitalised word before "vagyok" at the start of a sentence is a name,
// and which of two words is the given name when a visitor writes them in the other
// language's order. A name missing here is still found after a clear cue.
var givenNames = wordSet(`
ábel ábris ádám adorján adrián ágnes ágota ákos aladár albert alexandra alexa alfréd alíz
amália amanda andi andor andrás andrea anett anikó anita anna annamária antal aranka
áron árpád attila barbara barna barnabás bea beáta béla bella bence benedek benjámin
bernadett bianka boglárka bogi bori borbála botond brigitta csaba csenge csilla dalma
dani dániel dávid debóra denisz dezső diána dominik dóra dorina dorka dorottya edina
edit elek elemér eleonóra elza emese emma endre enikő erik erika ernő erzsébet eszter
éva evelin ferenc feri fanni flóra frida gabi gábor gabriella gáspár gellért gergely
gergő gitta gizella gréta gyöngyi györgy gyula hajnalka hanna hedvig helga heni henrik
ibolya ida ildikó ilona imre írisz istván iván izabella jakab jancsi jani jános jázmin
jenő jolán józsef judit julianna júlia juli kálmán kamilla karina károly kata katalin
kati katica kinga kitti klára klaudia kornél kristóf krisztián krisztina laci lajos
laura lea lehel lénárd levente lili lilla liliána lőrinc luca lujza magdolna magdi
marcell marci margit mária marianna márió márk márta márton máté matild mátyás melinda
mihály miklós milán mira miska mónika nándor nikolett niki nikoletta noel noémi nóra
norbert olivér olívia orsolya orsi ottó pál panna patrik péter peti petra pisti piroska
ramóna réka rebeka regina renáta richárd róbert roland rozália rudolf sándor sára
sarolta sebestyén simon szabina szabolcs szandra szandi szilárd szilvia szofi tamás
tamara teréz terézia tibor tímea tivadar tomi tünde vanda vazul veronika vica viktor
viktória vilma vince virág vivien zita zoé zoli zoltán zora zsófi zsófia zsolt zsombor
zsuzsa zsuzsi zsuzsanna ági évi eszti kriszti reni panni vera marcsi ildi erzsi juci móni
józsi gyuri sanyi misi bandi robi geri ati csabi tibi szabi levi
aaron adam alan albert alex alice amy andrew angela ann anne anthony ben benjamin beth
brian carl carol caroline charles charlie chloe chris christian christina christopher
claire daniel david dennis diana donna dorothy ed edward elizabeth ellen emily emma eric
ethan frank gary george grace hannah harry helen henry isabella jack jacob james jane
jason jeff jennifer jessica jim joe john jonathan joseph josh joshua julia karen kate
katherine kathy kevin kim laura lauren linda lisa liam lucas lucy luke margaret maria mark
martin mary matthew megan melissa michael michelle mike nancy natalie nathan nick nicole
noah oliver olivia patricia paul peter rachel rebecca richard robert ryan sam samuel sandra
sarah scott sharon simon sophia sophie stephen steve steven susan thomas tim tom tony
victoria william zoe
`)

// familyNames are the most common Hungarian family names. A capitalised word after one of
// them is taken as a given name even when givenNames lacks it ("Kovács Zsófiána"), and of
// two name words the known family name is the family name whatever the order.
var familyNames = wordSet(`
nagy kovács tóth szabó horváth varga kiss molnár németh farkas balogh papp takács juhász
lakatos mészáros oláh simon rácz fekete szilágyi török fehér balázs gál kis szűcs kocsis
orsós pintér fodor szalai sipos magyar lukács gulyás biró bíró király katona jakab bogdán
balog sándor boros fazekas kelemen antal orosz somogyi fülöp veres vörös budai vincze
hegedűs hegedüs deák pap bálint illés vass szőke fábián lengyel bognár jónás szücs bodnár
hajdu hajdú halász máté székely gáspár kozma pásztor bakos dudás major orbán virág barna
novák soós tamás nemes pataki balla kun hegedus bakó bencze benkő berki bokor borbély
csizmadia csonka czakó dobos dósa erdős erdélyi faragó fehérvári fenyvesi gombos győri
hajdu hollósi hornyák jenei józsa kardos kántor kerekes kertész kovacs kozák kókai lovas
marton medve mohácsi nyári orosz pálfi papp péter pozsgai rigó rostás salamon sárközi
sebestyén sütő szekeres szép szilágyi szűts tar tasi tímár tompa turi ujvári vadász
vámos várady vég veres vida zsigmond zrínyi szénási szatmári kocsis mezei rozsnyai bozsik
`)

// stopWords (lower case) cannot be part of a name even when capitalised: greetings, pronouns
// and other small words that open a sentence, titles, and words that follow "I'm" or come
// before "vagyok" to describe rather than name someone. Hungarian surnames that are also
// ordinary words (Magyar, Nagy, Fekete) are deliberately absent.
var stopWords = wordSet(`
szia sziasztok szió szevasz helló hello hali halihó hi hey hiya jó napot estét reggelt
üdv üdvözlöm üdvözlet üdvözlettel kedves tisztelt köszönöm köszi kösz igen nem oké ok okay
én te ő mi ti ők ön önök engem itt ott ez az egy hát amúgy egyébként szóval és de is
mert ha már most még csak pont éppen jelenleg nagyon szintén dr prof ifj id özv úr úrnő
kíváncsi érdeklődő vállalkozó ügyfél tanár kezdő nyugdíjas biztos bizonytalan elégedett
elégedetlen magánszemély diák egyetemista hallgató orvos mérnök új régi beteg boldog
csalódott hálás kész otthon itthon ráérő szabad elérhető vevő vásárló bérlő tulajdonos
anyuka apuka szülő szent kft bt zrt nyrt ltd inc gmbh llc
cukrászda műhely fürdő étterem szalon stúdió pékség virágbolt iroda patika gyógyszertár
szerviz utca út tér körút köz sor fasor telekom bolt üzlet kávézó bisztró panzió hotel
the a an and but so just also not very really still here there now currently only yes no
well oh please thanks thank mr mrs ms miss sir madam dear interested looking sorry glad
happy fine good great new back available free busy ready sure unsure trying writing
calling contacting asking wondering planning going hoping actually always never in at on
from with for about your their our my moving living working based retired married single
curious excited concerned worried confused disappointed satisfied thinking considering
unable able afraid aware customer client student teacher doctor engineer developer
designer manager owner freelancer photographer partner member user buyer seller tenant
landlord parent mother father mom mum dad interested hungarian american british english
german austrian french italian spanish polish czech slovak romanian serbian croatian
ukrainian russian dutch swedish danish norwegian finnish irish scottish welsh canadian
australian chinese japanese korean indian turkish greek portuguese brazilian mexican
european israeli swiss belgian bulgarian slovenian
budapest hungary magyarország london vienna bécs debrecen szeged pécs győr miskolc europe
pest buda germany austria
monday tuesday wednesday thursday friday saturday sunday january february march april may
june july august september october november december hétfő kedd szerda csütörtök péntek
szombat vasárnap január február március április május június július augusztus szeptember
október
`)

func wordSet(s string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// isGivenName reports a known given name; "Mary-Jane" counts if each part does.
func isGivenName(w string) bool {
	for _, part := range strings.Split(strings.ToLower(w), "-") {
		if !givenNames[part] {
			return false
		}
	}
	return true
}

// isFamilyName reports a known family name; "Kovács-Nagy" counts if a part does.
// It makes no string: each part is lowered into a buffer on the stack and looked up as it is
// (strings.ToLower and strings.Split made two or three a call, and the lead page asks for each
// of its 21 names).
func isFamilyName(w string) bool {
	for w != "" {
		var part string
		part, w, _ = strings.Cut(w, "-")
		var buf [64]byte
		if familyNames[string(appendLower(buf[:0], part))] {
			return true
		}
	}
	return false
}

// appendLower appends strings.ToLower(s) to dst: each rune lowered by unicode.ToLower, a byte
// that is not UTF-8 written as U+FFFD, as strings.Map writes it.
func appendLower(dst []byte, s string) []byte {
	for _, r := range s {
		switch {
		case 'A' <= r && r <= 'Z':
			dst = append(dst, byte(r)+'a'-'A')
		case r < utf8.RuneSelf:
			dst = append(dst, byte(r))
		default:
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
	}
	return dst
}

// isStopWord reports a stop word, or a compound of one ("Hungarian-American").
func isStopWord(w string) bool {
	for _, part := range strings.Split(strings.ToLower(w), "-") {
		if stopWords[part] {
			return true
		}
	}
	return false
}

// titles are skipped before a name: "I'm Dr. Patel", "Name: Mr. John Brown".
var titles = wordSet(`dr prof mr mrs ms miss ifj id özv`)
