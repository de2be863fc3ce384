/*! leadchat embed.js: the chat bubble. Plain ES2017, no dependencies; the service sends it minified.
 * <script async src="{base}/embed.js" data-api-key="KEY" data-base-url="{base}"></script>
 * Optional data-z-index. Page API: window.leadchat.open(), .close(). Works under a strict CSP:
 * shadow root, constructable stylesheets or CSSOM, text only via textContent. Test hooks: data-lc. */
(function () {
  'use strict';
  var W = window, D = document;
  if (W.leadchat) return;
  var tag = D.currentScript || D.querySelector('script[data-api-key][src*="embed.js"]');
  if (!tag) return;
  var attr = function (n) { return (tag.getAttribute('data-' + n) || '').trim(); };
  var key = attr('api-key');
  var base = (attr('base-url') || (tag.src.match(/^https?:\/\/[^/]+/) || [''])[0]).replace(/\/+$/, '');
  var z = parseInt(attr('z-index'), 10) || 2147483000;
  var SK = 'leadchat:session:' + key, LK = 'leadchat:log:' + key, RK = 'leadchat:ref', IK = 'leadchat:last:' + key,
    PK = 'leadchat:posted:' + key;
  var TX = {
    hu: {
      title: 'Írjon nekünk!', open: 'Csevegés megnyitása', close: 'Csevegés bezárása', ph: 'Írja be az üzenetét…',
      msg: 'Üzenet', send: 'Küldés', typing: 'Válaszol…', err: 'Nem sikerült elérni a szolgáltatást. Kérjük, próbálja újra.',
      retry: 'Újra', prompt: 'Hagyja meg az elérhetőségét, és hamarosan felvesszük Önnel a kapcsolatot.',
      name: 'Név', email: 'E-mail-cím', phone: 'Telefonszám', submit: 'Elküldöm', dismiss: 'Most nem',
      sent: 'Elküldtem az elérhetőségeimet.', sentNote: 'Elérhetőségét elküldtük.', noName: 'Kérjük, adja meg a nevét.',
      noEmail: 'Kérjük, adjon meg egy érvényes e-mail-címet.', noPhone: 'Kérjük, adjon meg egy érvényes telefonszámot.',
      privacy: 'Adatkezelési tájékoztató', online: 'Munkatársunk elérhető'
    },
    en: {
      title: 'Write to us!', open: 'Open chat', close: 'Close chat', ph: 'Type your message…',
      msg: 'Message', send: 'Send', typing: 'Typing…', err: 'We could not reach the service. Please try again.',
      retry: 'Retry', prompt: 'Leave your contact details and we will get back to you soon.',
      name: 'Name', email: 'Email', phone: 'Phone', submit: 'Send', dismiss: 'Not now',
      sent: 'I have sent my contact details.', sentNote: 'Contact details sent.', noName: 'Please enter your name.',
      noEmail: 'Please enter a valid email address.', noPhone: 'Please enter a valid phone number.',
      privacy: 'Privacy notice', online: 'A team member is online'
    }
  };
  var CSS = ':host{all:initial}*{box-sizing:border-box;margin:0;font:inherit;color:inherit}[hidden]{display:none!important}' +
    '.w{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1b1f24;-webkit-font-smoothing:antialiased}' +
    'button{cursor:pointer;border:0;background:none;padding:0}' +
    'button:focus-visible,input:focus-visible,a:focus-visible{outline:2px solid var(--lc-a);outline-offset:2px}.x:focus-visible{outline-color:var(--lc-pt)}' +
    '::placeholder{color:#6b747d;opacity:1}' +
    '.b{display:grid;place-items:center;width:60px;height:60px;border-radius:50%;background:var(--lc-p);color:var(--lc-pt);box-shadow:0 6px 22px rgba(15,23,42,.28)}' +
    '.b:focus-visible{outline-color:#111827;box-shadow:0 0 0 2px #fff,0 6px 22px rgba(15,23,42,.28)}' +
    '.p{position:absolute;right:0;bottom:76px;display:flex;flex-direction:column;width:370px;max-width:calc(100vw - 40px);height:580px;max-height:calc(100vh - 116px);' +
    'background:#fff;border-radius:var(--lc-r);box-shadow:0 16px 48px rgba(15,23,42,.24);overflow:hidden}' +
    '.h{display:flex;align-items:center;gap:8px;padding:14px 12px 14px 18px;background:var(--lc-p);color:var(--lc-pt)}' +
    'h2{flex:1;font-size:17px;font-weight:600}.x{display:grid;place-items:center;width:36px;height:36px;border-radius:50%}.x:hover{box-shadow:inset 0 0 0 1.5px currentColor}' +
    '.m{flex:1;display:flex;flex-direction:column;gap:10px;padding:16px;overflow-y:auto;overscroll-behavior:contain;scrollbar-width:thin;scrollbar-color:#c6ccd3 transparent;background:#f5f6f8}' +
    '.l{display:flex;flex-direction:column;gap:8px}' +
    '.l div,.t{max-width:85%;padding:9px 13px;border-radius:16px;white-space:pre-wrap;overflow-wrap:anywhere}' +
    '[data-role=assistant],.t{align-self:flex-start;background:#fff;border:1px solid #e2e5e9;border-bottom-left-radius:4px}' +
    '[data-role=visitor]{align-self:flex-end;background:var(--lc-p);color:var(--lc-pt);border-bottom-right-radius:4px}' +
    '[data-role=note]{align-self:center;color:#4a525b;font-size:13px}' +
    '[data-role=agent]{align-self:flex-start;background:#fff;border:1.5px solid var(--lc-a);border-bottom-left-radius:4px}.l b{display:block;font-size:12px}.o{font-size:12px}' +
    '.q{display:flex;flex-wrap:wrap;gap:6px}.q button{padding:7px 13px;border:1.5px solid var(--lc-a);border-radius:999px;background:#fff;font-size:14px}' +
    '.q button:hover{box-shadow:inset 0 0 0 1px var(--lc-a)}' +
    '.t{display:flex;gap:4px;padding:13px 14px}.t i{width:7px;height:7px;border-radius:50%;background:#7c858f}' +
    '.e{display:flex;align-items:center;gap:10px;padding:8px 12px;border:1px solid #f5c2bd;border-radius:10px;background:#fff5f4;color:#a8201a;font-size:14px}' +
    '.e span{flex:1}.e button{font-weight:600;text-decoration:underline}' +
    '.c{display:grid;gap:9px;padding:14px;border:1px solid #e2e5e9;border-radius:12px;background:#fff}' +
    'label{display:grid;gap:3px;font-size:13px;color:#4a525b}' +
    'input{width:100%;padding:9px 12px;border:1px solid #7c858f;border-radius:9px;background:#fff;color:#1b1f24;font-size:16px}' +
    'input[aria-invalid=true]{border-color:#c0281e}.ce{color:#a8201a;font-size:13px}' +
    '.k{display:flex;gap:8px;align-items:flex-start}.k input{flex:none;width:18px;height:18px;margin-top:1px;padding:0;accent-color:var(--lc-a)}' +
    '.pv{font-size:13px}.pv a{color:#1D4ED8;text-decoration:underline}' +
    '.cb{display:flex;gap:8px;align-items:center}.cb button{padding:9px 16px;border-radius:9px;font-weight:600}' +
    '.cb button:first-child{background:var(--lc-p);color:var(--lc-pt)}.cb button+button{color:#4a525b}' +
    '.hp,.sr{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}' +
    '.f{display:flex;gap:8px;padding:10px 12px;border-top:1px solid #e2e5e9;background:#fff}.f input{flex:1;min-width:0;border-radius:999px}' +
    '.s{display:grid;place-items:center;flex:none;width:42px;height:42px;border-radius:50%;background:var(--lc-p);color:var(--lc-pt)}' +
    '.pw{padding:0 0 8px;background:#fff;color:#6b747d;font-size:11px;text-align:center}' +
    '@media (max-width:480px){.p{position:fixed;inset:0;width:auto;max-width:none;height:100vh;height:100dvh;max-height:none;border-radius:0}}' +
    '@media (prefers-reduced-motion:no-preference){.p{animation:lcu .2s ease-out}.b{transition:transform .15s}.b:hover{transform:scale(1.06)}' +
    '.t i{animation:lcd 1.2s infinite}.t i+i{animation-delay:.2s}.t i+i+i{animation-delay:.4s}' +
    '@keyframes lcu{from{opacity:0;transform:translateY(12px)}}@keyframes lcd{50%{opacity:.35;transform:translateY(-3px)}}}';
  var I_CHAT = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zM6.5 11a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0zm4 0a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0zm4 0a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0z';
  var I_X = 'M6 6l12 12M18 6L6 18', I_SEND = 'M3.4 20.4 21 12 3.4 3.6v6.6L15 12 3.4 13.8z';

  // Storage with an in-memory fallback where localStorage is blocked.
  var mem = {};
  var sget = function (s, k) {
    try { var v = W[s].getItem(k); if (v !== null) return v; } catch (e) { /* blocked */ }
    return mem.hasOwnProperty(s + k) ? mem[s + k] : null;
  };
  var sset = function (s, k, v) { mem[s + k] = v; try { W[s].setItem(k, v); } catch (e) { /* blocked */ } };

  // n random bytes in hex (null without crypto).
  var randomHex = function (n) {
    if (!W.crypto || !W.crypto.getRandomValues) return null;
    var b = W.crypto.getRandomValues(new Uint8Array(n)), s = '';
    for (var i = 0; i < b.length; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
    return s;
  };
  // A session id is a bearer secret: made from 16 random bytes; a kept id under 22 characters is
  // replaced. Without crypto the server makes one.
  var SID = /^[A-Za-z0-9._:-]{22,128}$/;
  var newSid = function () { return randomHex(16); };

  // Referral data of the tab's first page view, so a later page's message still names the ad.
  var ref = sget('sessionStorage', RK);
  if (!ref) {
    var q = new URLSearchParams(location.search), r = { landing_page: location.href.split('#')[0].slice(0, 2048) };
    'utm_source utm_medium utm_campaign utm_term utm_content utm_id gclid fbclid msclkid'.split(' ').forEach(function (k) {
      if (q.get(k)) r[k] = q.get(k).slice(0, 2048);
    });
    if (D.referrer) r.referrer_url = D.referrer.slice(0, 2048);
    sset('sessionStorage', RK, ref = JSON.stringify(r));
  }

  var h = function (name, a, kids) {
    var e = D.createElement(name);
    Object.keys(a || {}).forEach(function (k) {
      var v = a[k];
      if (k === 'text') e.textContent = v;
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), v);
      else if (v != null && v !== false) e.setAttribute(k, v === true ? '' : v);
    });
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  };
  var icon = function (d, stroke) {
    var s = D.createElementNS('http://www.w3.org/2000/svg', 'svg'), p = D.createElementNS(s.namespaceURI, 'path');
    [['viewBox', '0 0 24 24'], ['width', stroke ? 20 : 26], ['height', stroke ? 20 : 26], ['aria-hidden', 'true'], ['focusable', 'false']]
      .forEach(function (a) { s.setAttribute(a[0], a[1]); });
    p.setAttribute('d', d);
    p.setAttribute('fill', stroke ? 'none' : 'currentColor');
    p.setAttribute('fill-rule', 'evenodd');
    if (stroke) { p.setAttribute('stroke', 'currentColor'); p.setAttribute('stroke-width', '2.2'); p.setAttribute('stroke-linecap', 'round'); }
    s.appendChild(p);
    return s;
  };
  // beat counts a funnel event (shown, opened) once per page: a sendBeacon string goes as
  // text/plain, which needs no preflight, and the service keeps a number per day, nothing more.
  var beats = {};
  var beat = function (type) {
    if (beats[type] || !navigator.sendBeacon) return;
    beats[type] = 1;
    try { navigator.sendBeacon(base + '/api/embed/events', JSON.stringify({ api_key: key, type: type })); } catch (e) { /* counting is best effort */ }
  };
  var api = function (path, body) {
    var ac = W.AbortController ? new AbortController() : null, t = ac && setTimeout(function () { ac.abort(); }, 45000);
    var init = { signal: ac ? ac.signal : undefined };
    if (body) { init.method = 'POST'; init.headers = { 'Content-Type': 'application/json' }; init.body = JSON.stringify(body); }
    return fetch(base + path, init).then(function (res) {
      return res.json().catch(function () { return null; }).then(function (j) {
        clearTimeout(t);
        if (res.ok && j) return j;
        var e = new Error('HTTP ' + res.status);
        e.status = res.status; e.srv = j && j.error;
        throw e;
      });
    }, function (e) { clearTimeout(t); throw e; });
  };
  var hex = function (v, def) { return /^#[0-9a-f]{6}$/i.test(v || '') ? v : def; };
  // Colours by WCAG 2 contrast, with the rules and operations of internal/widget/contrast.go.
  var lum = function (c) {
    var n = parseInt(c.slice(1), 16);
    return [n >> 16, n >> 8 & 255, n & 255].reduce(function (l, v, i) {
      v /= 255;
      return l + [0.2126, 0.7152, 0.0722][i] * (v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    }, 0);
  };
  var ratio = function (a, b) { var x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  // on is the text colour that contrasts more with c.
  var on = function (c) { return ratio('#FFFFFF', c) >= ratio('#111827', c) ? '#FFFFFF' : '#111827'; };
  // fit is c when ok(c), else its first shade k% of the way to black or else white, k = 1, 2, ...
  var fit = function (c, ok) {
    for (var k = 0; k <= 100; k++) {
      for (var j = 0; j < 2; j++) {
        var s = '#', a = parseInt(c.slice(1), 16);
        for (var i = 16; i >= 0; i -= 8) {
          var v = a >> i & 255;
          v = Math.round(v + (j * 255 - v) * k / 100);
          s += (v < 16 ? '0' : '') + v.toString(16).toUpperCase();
        }
        if (ok(s)) return s;
      }
    }
    return c;
  };

  var ui = null, wantOpen = false;

  // render builds the widget for cfg, or without one a bubble whose panel shows the error and a retry.
  function render(cfg) {
    var c = cfg || {}, th = c.chat_theme || {}, auto = c.language === 'auto';
    // auto: the browser's language until an answer names the chat's.
    var lang = c.language === 'en' || auto && /^en\b/i.test(navigator.language || '') ? 'en' : 'hu', t = TX[lang];
    // say sets a TX text (or the company's own); i18n lets it follow the chat's language.
    var i18n = [];
    var say = function (el, attr, k, own) {
      if (!own) i18n.push([el, attr, k]);
      if (attr === 'text') el.textContent = own || t[k]; else el.setAttribute(attr, own || t[k]);
      return el;
    };
    var P = hex(th.primary_hex, '#1F6FEB'), A = hex(th.accent_hex, P), R = Math.min(28, Math.max(8, +th.border_radius_px || 16));
    // Text and icons on the company colour reach 4.5:1, rings and borders on the messages' #F5F6F8
    // 3:1; a colour that cannot is shown in the nearest shade that can.
    P = fit(P, function (s) { return ratio(on(s), s) >= 4.5; });
    A = fit(A, function (s) { return ratio(s, '#F5F6F8') >= 3; });
    var hist = [], busy = false, pending = null, retryFn = null, skip = 0, shownAt = 0;
    try { hist = JSON.parse(sget('localStorage', LK)) || []; } catch (e) { /* none */ }
    if (!Array.isArray(hist)) hist = [];

    var host = h('leadchat-widget', { 'data-leadchat': '' }), root = host.attachShadow({ mode: 'open' });
    var hs = host.style;
    hs.position = 'fixed'; hs.right = '20px'; hs.bottom = '20px'; hs.zIndex = String(z); hs.display = 'block';
    [['--lc-p', P], ['--lc-pt', on(P)], ['--lc-a', A], ['--lc-r', R + 'px']]
      .forEach(function (v) { hs.setProperty(v[0], v[1]); });

    var bubble = h('button', { type: 'button', class: 'b', 'data-lc': 'bubble', 'aria-label': t.open, 'aria-expanded': 'false', 'aria-controls': 'lc-panel', onclick: function () { panel.hidden ? open() : close(true); } }, [icon(I_CHAT)]);
    var log = say(h('div', { class: 'l', 'data-lc': 'log', role: 'log', 'aria-live': 'polite' }), 'aria-label', 'title', th.header_title);
    var quick = h('div', { class: 'q', 'data-lc': 'quick' }, (c.quick_buttons || []).map(function (label) {
      return h('button', { type: 'button', 'data-lc': 'quick-button', text: label, onclick: function () { send(label); } });
    }));
    var typing = h('div', { class: 't', 'data-lc': 'typing', 'aria-hidden': 'true', hidden: true }, [h('i'), h('i'), h('i')]);
    // What the dots say, as text a screen reader announces.
    var live = h('p', { class: 'sr', 'data-lc': 'status', role: 'status' });
    var errText = h('span', { 'data-lc': 'error-text' });
    var errBox = h('div', { class: 'e', 'data-lc': 'error', role: 'alert', hidden: true }, [errText,
      // The retry button hides itself: the focus goes to the message box rather than nowhere.
      say(h('button', { type: 'button', 'data-lc': 'retry', onclick: function () { errBox.hidden = true; if (cfg) input.focus(); if (retryFn) retryFn(); } }), 'text', 'retry')]);

    // A field: [input, label, error line, TX key of the error].
    var field = function (name, type, auto, max) {
      var e = h('span', { class: 'ce', id: 'lc-' + name, 'data-lc': 'contact-' + name + '-error', role: 'alert' });
      var i = h('input', { name: name, type: type, autocomplete: auto, maxlength: max, required: true, 'aria-describedby': e.id, 'data-lc': 'contact-' + name });
      return [i, h('label', {}, [say(h('span'), 'text', name), i, e]), e, 'no' + name[0].toUpperCase() + name.slice(1)];
    };
    var fName = field('name', 'text', 'name', 200), fEmail = field('email', 'email', 'email', 254);
    var fPhone = c.require_phone ? field('phone', 'tel', 'tel', 50) : null;
    // The company's privacy notice beside the form, and its marketing consent as an unticked box.
    var notice = /^https:\/\/\S+$/.test(c.privacy_url || '') ? c.privacy_url : null, agree = c.marketing_consent_text || null;
    var box = agree ? h('input', { type: 'checkbox', name: 'lc_consent', 'data-lc': 'contact-consent' }) : null;
    var hp = h('input', { name: 'lc_hp', tabindex: '-1', autocomplete: 'off', 'data-lc': 'contact-hp' });
    // The prompt describes the form and its first field; each field also names its own error line.
    fName[0].setAttribute('aria-describedby', 'lc-prompt ' + fName[2].id);
    var contact = h('form', { class: 'c', 'data-lc': 'contact', novalidate: true, hidden: true, 'aria-describedby': 'lc-prompt', onsubmit: submitContact }, [
      say(h('p', { id: 'lc-prompt', 'data-lc': 'contact-prompt' }), 'text', 'prompt', c.contact_prompt_text), fName[1], fEmail[1], fPhone && fPhone[1],
      box && h('label', { class: 'k' }, [box, h('span', { 'data-lc': 'contact-consent-text', text: agree })]),
      notice && h('p', { class: 'pv' }, [say(h('a', { href: notice, target: '_blank', rel: 'noopener noreferrer', 'data-lc': 'privacy-link' }), 'text', 'privacy')]),
      h('label', { class: 'hp', 'aria-hidden': 'true' }, [D.createTextNode('Ne töltse ki'), hp]),
      h('div', { class: 'cb' }, [
        say(h('button', { type: 'submit', 'data-lc': 'contact-submit' }), 'text', 'submit'),
        say(h('button', { type: 'button', 'data-lc': 'contact-dismiss', onclick: function () { contact.hidden = true; skip = 2; input.focus(); } }), 'text', 'dismiss')
      ])
    ]);
    var scroller = h('div', { class: 'm' }, [log, quick, typing, errBox, contact]);
    var input = say(say(h('input', { type: 'text', 'data-lc': 'input', maxlength: 2000, autocomplete: 'off', enterkeyhint: 'send' }), 'aria-label', 'msg'), 'placeholder', 'ph');
    var presence, sendBtn, closeBtn, composer = h('form', { class: 'f', 'data-lc': 'composer', hidden: !cfg, onsubmit: function (e) { e.preventDefault(); if (send(input.value)) input.value = ''; } }, [
      input, sendBtn = say(h('button', { type: 'submit', class: 's', 'data-lc': 'send' }, [icon(I_SEND)]), 'aria-label', 'send')
    ]);
    var panel = say(h('div', { id: 'lc-panel', class: 'p', 'data-lc': 'panel', role: 'dialog', hidden: true }, [
      h('div', { class: 'h' }, [say(h('h2', { 'data-lc': 'title' }), 'text', 'title', th.header_title),
        presence = say(h('span', { class: 'o', 'data-lc': 'presence', hidden: true }), 'text', 'online'),
        closeBtn = say(h('button', { type: 'button', class: 'x', 'data-lc': 'close', onclick: function () { close(true); } }, [icon(I_X, 1)]), 'aria-label', 'close')]),
      scroller, live, composer,
      th.hide_powered_by ? null : h('p', { class: 'pw', 'data-lc': 'powered-by', text: 'powered by leadchat' })
    ]), 'aria-label', 'title', th.header_title);
    var setLang = function (l) {
      if (!auto || !TX[l] || l === lang) return;
      var was = i18n;
      lang = l; t = TX[l]; i18n = [];
      was.forEach(function (x) { say(x[0], x[1], x[2]); });
      bubble.setAttribute('aria-label', panel.hidden ? t.open : t.close);
    };
    var wrap = h('div', { class: 'w', onkeydown: keys }, [bubble, panel]);
    root.appendChild(wrap);

    try {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } catch (e) {
      // No constructable stylesheets (older Safari): the essentials through CSSOM.
      var st = function (el, o) { Object.keys(o).forEach(function (k) { el.style[k] = o[k]; }); };
      st(wrap, { font: '15px/1.4 system-ui,sans-serif', color: '#1b1f24' });
      st(bubble, { width: '60px', height: '60px', borderRadius: '50%', border: '0', background: P, color: on(P), cursor: 'pointer' });
      st(panel, { position: 'absolute', right: '0', bottom: '76px', width: '340px', maxWidth: 'calc(100vw - 40px)', background: '#fff', border: '1px solid #ccc', borderRadius: R + 'px', padding: '12px' });
      st(scroller, { maxHeight: '50vh', overflowY: 'auto' });
      st(hp.parentNode, { position: 'absolute', left: '-9999px', width: '1px', height: '1px', overflow: 'hidden' });
      root.querySelectorAll('input').forEach(function (i) { i.style.fontSize = '16px'; });
    }

    var scroll = function () { scroller.scrollTop = scroller.scrollHeight; };
    var add = function (role, text, save, who) {
      var m = h('div', { 'data-lc': 'msg', 'data-role': role }, [who ? h('b', { text: String(who) }) : null]);
      m.appendChild(D.createTextNode(String(text)));
      log.appendChild(m);
      if (save) {
        hist = hist.concat([[role, String(text), who]]).slice(-60);
        sset('localStorage', LK, JSON.stringify(hist));
      }
      scroll();
    };
    var showErr = function (msg, fn) {
      errText.textContent = msg || t.err;
      retryFn = fn;
      errBox.hidden = false;
      scroll();
    };

    if (cfg) {
      if (c.welcome_message) add('assistant', c.welcome_message);
      hist.forEach(function (m) { if (m && /^(visitor|assistant|note|agent)$/.test(m[0])) add(m[0], m[1], 0, m[0] === 'agent' && m[2]); });
      quick.hidden = !quick.firstChild || hist.some(function (m) { return m && m[0] === 'visitor'; });
    } else {
      quick.hidden = true;
      showErr('', function () { start(true); });
    }

    // send shows the visitor's message, or a note (never words they did not write), and posts it.
    function send(text, details, note) {
      text = String(text || '').trim().slice(0, 2000);
      if (busy || !text) return false;
      quick.hidden = true;
      add(note ? 'note' : 'visitor', note || text, 1);
      // One id per message, kept for its retries.
      pending = { text: text, details: details, id: randomHex(8) };
      post();
      return true;
    }
    function post() {
      var sid = sget('localStorage', SK), body = { api_key: key, message: pending.text };
      if (pending.id) body.message_id = pending.id;
      if (!SID.test(sid || '')) {
        // A new conversation: a retry of this message keeps the id it was first sent with.
        if (!('sid' in pending)) pending.sid = newSid();
        sid = pending.sid;
        try { body.referral_data = JSON.parse(ref); } catch (e) { /* none */ }
      }
      if (sid) body.session_id = sid;
      Object.keys(pending.details || {}).forEach(function (k) { body[k] = pending.details[k]; });
      busy = true; typing.hidden = false; errBox.hidden = true; log.setAttribute('aria-busy', 'true');
      live.textContent = t.typing;
      scroll();
      api('/api/embed/chat', body).then(function (j) {
        pending = null;
        if (j.session_id) sset('localStorage', SK, String(j.session_id));
        if (j.language) setLang(j.language);
        if (j.reply) shown(j.reply, byStream, byPost);
        follow();
        // The form follows the server: closed once contact is complete, however completed.
        if (j.request_contact && skip-- <= 0 && contact.hidden) showContact();
        else if (!j.request_contact && !contact.hidden) contact.hidden = true;
      }, function (e) {
        showErr(lang !== 'en' && e.srv, post);
      }).then(function () {
        busy = false; typing.hidden = true; log.removeAttribute('aria-busy');
        live.textContent = '';
        scroll();
      });
    }
    // The conversation's news (people of the company, the assistant taking it back) comes by a
    // stream while the panel is open, or by polling where no stream holds; an assistant text
    // both the stream and the chat answer carry is shown once. The texts the chat answer showed
    // and the stream has not brought yet are kept with the log: a page reloaded before the
    // stream brought one gets it from the stream (after the last message the stream brought)
    // and shows it once.
    var es = null, poll = 0, byStream = [], byPost = [];
    try { byPost = JSON.parse(sget('localStorage', PK)) || []; } catch (e) { /* none */ }
    if (!Array.isArray(byPost)) byPost = [];
    var shown = function (text, other, mine) {
      var i = other.indexOf(text);
      if (i >= 0) other.splice(i, 1);
      else {
        if (mine.push(text) > 5) mine.shift();
        add('assistant', text, 1);
      }
      sset('localStorage', PK, JSON.stringify(byPost));
    };
    var news = function (m) {
      if (!m || !(m.id > +sget('localStorage', IK))) return;
      sset('localStorage', IK, String(m.id));
      if (m.role === 'agent') add('agent', m.text, 1, m.agent_name);
      else if (m.role === 'assistant') shown(m.text, byPost, byStream);
    };
    var unfollow = function () {
      if (es) es.close();
      clearTimeout(poll);
      es = null; poll = 0;
    };
    var q = function (sid) { return '?api_key=' + encodeURIComponent(key) + '&session_id=' + encodeURIComponent(sid) + '&after=' + (+sget('localStorage', IK) || 0); };
    function pull(sid) {
      api('/api/embed/chat/messages' + q(sid)).then(function (j) { (j.data || []).forEach(news); }, function () { /* next time */ })
        .then(function () { if (poll) poll = setTimeout(function () { pull(sid); }, 5000); });
    }
    function follow() {
      var sid = sget('localStorage', SK);
      if (panel.hidden || es || poll || !SID.test(sid || '')) return;
      // A conversation this page has not followed yet starts after what it already shows: the
      // visitor's and the assistant's messages. A person's that came after them (while the
      // panel was closed, or before this request) is news.
      if (!sget('localStorage', IK)) {
        poll = 1;
        return api('/api/embed/chat/messages' + q(sid)).then(function (j) {
          var d = j.data || [], i = d.length;
          while (i > 0 && d[i - 1].role === 'agent') i--;
          sset('localStorage', IK, String(i ? d[i - 1].id : 0));
          d.slice(i).forEach(news);
          poll = 0;
          follow();
        }, function () { poll = 0; /* the next answer tries again */ });
      }
      if (!W.EventSource) { poll = 1; return pull(sid); }
      es = new EventSource(base + '/api/embed/chat/stream' + q(sid));
      es.addEventListener('message', function (e) { try { news(JSON.parse(e.data)); } catch (x) { /* skip */ } });
      es.addEventListener('presence', function (e) { try { presence.hidden = !JSON.parse(e.data).agents_online; } catch (x) { /* skip */ } });
      es.onerror = function () {
        // Closed for good (refused, or no stream through a proxy): poll the JSON instead.
        if (es && es.readyState === 2) { es = null; poll = 1; pull(sid); }
      };
    }
    function showContact() {
      contact.hidden = false;
      shownAt = Date.now();
      scroll();
      if (root.activeElement) fName[0].focus();
    }
    function submitContact(e) {
      e.preventDefault();
      if (busy) return;
      var v = function (f) { return f ? f[0].value.trim() : ''; }, name = v(fName), email = v(fEmail), phone = v(fPhone);
      var digits = phone.replace(/\D/g, '').length, first = null;
      [[fName, !name], [fEmail, !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)],
        [fPhone, fPhone && !(/^\+?[\d\s().\/-]+$/.test(phone) && digits > 5 && digits < 16)]].forEach(function (x) {
        var f = x[0], bad = !!x[1];
        if (!f) return;
        f[0].setAttribute('aria-invalid', String(bad));
        f[2].textContent = bad ? t[f[3]] : '';
        if (bad && !first) first = f[0];
      });
      if (first) { first.focus(); return; }
      // The server judges fill time and honeypot, dropping a bot's details quietly.
      var details = { first_name: name, email: email, form_fill_ms: Date.now() - shownAt };
      if (fPhone) details.phone = phone;
      if (hp.value) details.honeypot = hp.value;
      // What the visitor saw and chose, for the company's record of consent.
      if (notice || agree) {
        details.consent = { marketing: !!(box && box.checked) };
        if (agree) details.consent.text = agree;
        if (notice) details.consent.privacy_url = notice;
      }
      contact.hidden = true;
      var typed = input.value.trim();
      if (send(typed || t.sent, details, typed ? '' : t.sentNote)) input.value = '';
      input.focus();
    }
    // The full-screen panel of a narrow screen is modal: the page behind is inert and Tab stays
    // inside. A wider screen shows a dialog beside the page.
    var mq = W.matchMedia && W.matchMedia('(max-width:480px)'), inert = [];
    var modal = function () {
      var m = !panel.hidden && !!mq && mq.matches;
      inert.forEach(function (e) { e.inert = false; });
      inert = [];
      if (m) [].forEach.call(host.parentNode.children, function (e) { if (e !== host && !e.inert) { e.inert = true; inert.push(e); } });
      bubble.inert = m;
      if (m) panel.setAttribute('aria-modal', 'true'); else panel.removeAttribute('aria-modal');
      return m;
    };
    if (mq && mq.addEventListener) mq.addEventListener('change', modal);
    // keys: Escape closes; Tab follows the message box, quick replies, what the messages offer
    // (retry, the contact form), send, close. It goes round in the modal panel; beside the page,
    // Shift+Tab from the message box reaches the bubble and Tab from close leaves the widget.
    function keys(e) {
      if (panel.hidden) return;
      if (e.key === 'Escape') { e.stopPropagation(); close(true); return; }
      if (e.key !== 'Tab') return;
      var all = [].slice.call(panel.querySelectorAll('button,input,a')).filter(function (x) { return x.tabIndex >= 0 && x.getClientRects().length; });
      var order = [input].concat([].slice.call(scroller.querySelectorAll('button,input,a')), [sendBtn, closeBtn]).filter(function (x) { return all.indexOf(x) >= 0; });
      var f = root.activeElement, n = order.length, i = order.indexOf(f);
      if (f === bubble && !e.shiftKey && n) i = -1;
      else if (i < 0) return;
      i += e.shiftKey ? -1 : 1;
      if (panel.hasAttribute('aria-modal')) i = (i + n) % n;
      else if (i < 0) { e.preventDefault(); return bubble.focus(); }
      else if (i >= n) return all[all.length - 1].focus(); // the browser's own Tab goes on from there, out of the widget
      e.preventDefault();
      order[i].focus();
    }
    function open() {
      if (cfg) beat('opened');
      panel.hidden = false;
      modal();
      bubble.setAttribute('aria-expanded', 'true');
      bubble.setAttribute('aria-label', t.close);
      bubble.replaceChild(icon(I_X, 1), bubble.firstChild);
      scroll();
      (cfg ? input : errBox.lastChild).focus();
      follow();
    }
    function close(refocus) {
      if (panel.hidden) return;
      panel.hidden = true;
      unfollow();
      modal();
      bubble.setAttribute('aria-expanded', 'false');
      bubble.setAttribute('aria-label', t.open);
      bubble.replaceChild(icon(I_CHAT), bubble.firstChild);
      if (refocus || root.activeElement) bubble.focus();
    }

    if (ui) { ui.close(); ui.host.remove(); }
    (D.body || D.documentElement).appendChild(host);
    ui = { host: host, open: open, close: close };
    if (cfg) beat('shown');
  }

  // start loads the config and renders; a wrong key shows nothing and says why in the console.
  function start(reopen) {
    api('/api/embed/config?api_key=' + encodeURIComponent(key)).then(render, function (e) {
      if (e.status >= 400 && e.status < 500 && e.status !== 429) return console.warn('leadchat: ' + (e.srv || e.message));
      render(null);
    }).then(function () { if (ui && (reopen || wantOpen)) ui.open(); });
  }

  W.leadchat = {
    open: function () { if (ui) ui.open(); else wantOpen = true; },
    close: function () { wantOpen = false; if (ui) ui.close(); }
  };
  if (!key) console.warn('leadchat: data-api-key is missing');
  else start();
})();
