package widget

import (
	"bytes"
	"crypto/rand"
	"html/template"
	"net/http"
	"net/url"
	"strings"
)

// DemoPageHandler serves a made-up Hungarian company's home page with the widget embedded the way
// a customer pastes it. The page is sent with a strict Content-Security-Policy (no 'unsafe-inline';
// the page's own <style> carries a per-request nonce), so the demo also proves that the widget
// works on such a site. baseURL is where the service is reached; publicKey is a public API key.
func DemoPageHandler(baseURL, publicKey string) http.Handler {
	base := strings.TrimRight(baseURL, "/")
	origin := "'self'"
	if u, err := url.Parse(base); err == nil && u.Scheme != "" && u.Host != "" {
		origin = u.Scheme + "://" + u.Host
	}
	page := template.Must(template.New("demo").Parse(demoHTML))

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nonce := rand.Text()
		var buf bytes.Buffer
		data := struct{ BaseURL, PublicKey, Nonce string }{base, publicKey, nonce}
		if err := page.Execute(&buf, data); err != nil {
			http.Error(w, "a bemutató oldal nem készült el", http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' "+origin+"; connect-src "+origin+
			"; style-src 'self' 'nonce-"+nonce+"'; img-src 'self' data:")
		h.Set("Cache-Control", "no-store") // the nonce must differ on every load
		h.Set("X-Content-Type-Options", "nosniff")
		if r.Method == http.MethodHead {
			return
		}
		w.Write(buf.Bytes())
	})
}

const demoHTML = `<!doctype html>
<html lang="hu">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Napfény Napelem Kft. – napelemes rendszerek Budapesten</title>
<meta name="description" content="Napelemes rendszerek tervezése, telepítése és karbantartása Budapesten és Pest megyében.">
<style nonce="{{.Nonce}}">
*{box-sizing:border-box}
body{margin:0;font:17px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2a30;background:#fff}
a{color:#0a7c66}
.wrap{max-width:1080px;margin:0 auto;padding:0 24px}
header{position:sticky;top:0;background:rgba(255,255,255,.95);border-bottom:1px solid #e8ecee;z-index:10}
header .wrap{display:flex;align-items:center;justify-content:space-between;height:68px}
.logo{display:flex;align-items:center;gap:10px;font-weight:700;font-size:20px;color:#1f2a30;text-decoration:none}
.logo svg{width:34px;height:34px}
nav a{margin-left:22px;color:#1f2a30;text-decoration:none;font-weight:500}
nav a:hover{color:#0a7c66}
.hero{background:linear-gradient(135deg,#0a7c66 0%,#0f9d7f 55%,#f2b705 140%);color:#fff;padding:96px 0 88px}
.hero h1{font-size:46px;line-height:1.15;margin:0 0 18px;max-width:720px}
.hero p{font-size:20px;max-width:620px;margin:0 0 30px;opacity:.95}
.btn{display:inline-block;background:#f2b705;color:#1f2a30;padding:14px 26px;border-radius:10px;font-weight:700;text-decoration:none}
.btn.ghost{background:transparent;color:#fff;border:2px solid rgba(255,255,255,.7);margin-left:12px}
.facts{display:flex;gap:40px;margin-top:48px;flex-wrap:wrap}
.facts b{display:block;font-size:30px}
section{padding:80px 0}
section h2{font-size:34px;margin:0 0 12px}
.lead{color:#56656d;max-width:640px;margin:0 0 40px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(230px,1fr));gap:22px}
.card{border:1px solid #e3e9ec;border-radius:16px;padding:26px;background:#fff}
.card h3{margin:0 0 8px;font-size:20px}
.card p{margin:0;color:#56656d}
.alt{background:#f4f8f7}
.price{font-size:30px;font-weight:800;color:#0a7c66;margin:10px 0}
.price small{font-size:16px;font-weight:500;color:#56656d}
.card ul{padding-left:20px;margin:14px 0 0;color:#3b4a52}
.featured{border:2px solid #0a7c66;box-shadow:0 14px 40px rgba(10,124,102,.15)}
.contact{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:28px}
.contact dt{font-weight:700;margin-top:14px}
.contact dd{margin:0;color:#3b4a52}
footer{background:#12302a;color:#cfe3de;padding:36px 0;font-size:15px}
footer .wrap{display:flex;justify-content:space-between;flex-wrap:wrap;gap:12px}
@media (max-width:700px){nav{display:none}.hero{padding:64px 0}.hero h1{font-size:34px}.btn.ghost{margin:12px 0 0}}
</style>
</head>
<body>
<header>
 <div class="wrap">
  <a class="logo" href="#">
   <svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="5" fill="#f2b705"/><path d="M12 1v3M12 20v3M1 12h3M20 12h3M4.2 4.2l2.1 2.1M17.7 17.7l2.1 2.1M4.2 19.8l2.1-2.1M17.7 6.3l2.1-2.1" stroke="#f2b705" stroke-width="2" stroke-linecap="round"/></svg>
   Napfény Napelem
  </a>
  <nav aria-label="Főmenü"><a href="#szolgaltatasok">Szolgáltatások</a><a href="#arak">Árak</a><a href="#kapcsolat">Kapcsolat</a></nav>
 </div>
</header>
<main>
 <div class="hero">
  <div class="wrap">
   <h1>Termelje meg a saját áramát – napelemmel, gondok nélkül</h1>
   <p>Budapesten és Pest megyében 2011 óta tervezünk és telepítünk napelemes rendszereket családi házakra, társasházakra és vállalkozásoknak. Ingyenes helyszíni felmérés, 12 év termékgarancia.</p>
   <a class="btn" href="#arak">Árak megtekintése</a><a class="btn ghost" href="#kapcsolat">Kapcsolat</a>
   <div class="facts">
    <div><b>1 800+</b>telepített rendszer</div>
    <div><b>4–6 hét</b>a felméréstől az átadásig</div>
    <div><b>25 év</b>teljesítménygarancia</div>
   </div>
  </div>
 </div>

 <section id="szolgaltatasok">
  <div class="wrap">
   <h2>Szolgáltatásaink</h2>
   <p class="lead">Mindent egy kézből intézünk: a felméréstől a hálózati engedélyeztetésen át a karbantartásig.</p>
   <div class="grid">
    <div class="card"><h3>Napelemes rendszerek</h3><p>Tetőre vagy földre szerelt rendszerek minősített, európai forgalmazású panelekkel és inverterekkel.</p></div>
    <div class="card"><h3>Energiatárolás</h3><p>Akkumulátoros bővítés, hogy este is a saját napenergiáját használja, és áramszünetben se maradjon sötétben.</p></div>
    <div class="card"><h3>Ügyintézés és pályázatok</h3><p>Elvégezzük a hálózati engedélyeztetést, és segítünk az aktuális lakossági pályázatokban.</p></div>
    <div class="card"><h3>Karbantartás és szerviz</h3><p>Éves átvizsgálás, panelmosás, távfelügyelet és gyors hibaelhárítás Budapesten belül 48 órán belül.</p></div>
   </div>
  </div>
 </section>

 <section id="arak" class="alt">
  <div class="wrap">
   <h2>Áraink</h2>
   <p class="lead">Tájékoztató árak, telepítéssel és ügyintézéssel együtt. A pontos ajánlatot az ingyenes felmérés után adjuk meg.</p>
   <div class="grid">
    <div class="card"><h3>Családi ház – 5 kW</h3><div class="price">2 390 000 Ft-tól <small>bruttó</small></div><ul><li>10–12 napelem panel</li><li>Hibrid inverter</li><li>Évi kb. 5 800 kWh termelés</li></ul></div>
    <div class="card featured"><h3>Családi ház – 10 kW</h3><div class="price">3 990 000 Ft-tól <small>bruttó</small></div><ul><li>20–24 napelem panel</li><li>Hibrid inverter, távfelügyelet</li><li>Évi kb. 11 500 kWh termelés</li></ul></div>
    <div class="card"><h3>Akkumulátor – 10 kWh</h3><div class="price">2 150 000 Ft-tól <small>bruttó</small></div><ul><li>Meglévő rendszerhez is</li><li>Szükségáram funkció</li><li>10 év garancia</li></ul></div>
    <div class="card"><h3>Vállalkozásoknak</h3><div class="price">Egyedi ajánlat</div><ul><li>20 kW-tól 500 kW-ig</li><li>Megtérülési számítás</li><li>Finanszírozási lehetőségek</li></ul></div>
   </div>
  </div>
 </section>

 <section id="kapcsolat">
  <div class="wrap">
   <h2>Kapcsolat</h2>
   <p class="lead">Kérdése van? Írjon nekünk a jobb alsó sarokban található csevegőablakban, vagy keressen minket az alábbi elérhetőségeken.</p>
   <div class="contact">
    <dl><dt>Iroda és bemutatóterem</dt><dd>1117 Budapest, Fehérvári út 84.</dd><dt>Nyitvatartás</dt><dd>Hétfő–péntek 8:00–17:00<br>Szombat 9:00–12:00 (előzetes egyeztetéssel)</dd></dl>
    <dl><dt>Telefon</dt><dd>+36 1 555 0184</dd><dt>E-mail</dt><dd>info@napfeny-napelem.hu</dd></dl>
    <dl><dt>Cégadatok</dt><dd>Napfény Napelem Kft.<br>Cégjegyzékszám: 01-09-000000<br>Adószám: 00000000-2-43</dd></dl>
   </div>
  </div>
 </section>
</main>
<footer>
 <div class="wrap"><span>© Napfény Napelem Kft. Minden jog fenntartva.</span><span>Bemutató oldal: a cég és az adatai kitaláltak.</span></div>
</footer>
<script async src="{{.BaseURL}}/embed.js" data-api-key="{{.PublicKey}}" data-base-url="{{.BaseURL}}"></script>
</body>
</html>
`
