/* leadchat dashboard, Beszélgetések: reads the page again when the live feed says something
   changed, and (when asked) shows waiting conversations in the title and with a sound. The page
   works without it: reload to see news. */
(function () {
  'use strict';
  var root = document.getElementById('live');
  if (!root || !window.EventSource || !window.fetch) return;
  var parts = ['conv-list', 'conv-state', 'transcript'];
  var title = document.title;
  var waiting = +root.getAttribute('data-waiting');
  var box = document.getElementById('notify');
  var notify = false;
  try { notify = localStorage.getItem('lc-notify') === '1'; } catch (e) { /* no storage: off */ }
  if (box) {
    box.checked = notify;
    box.addEventListener('change', function () {
      notify = box.checked;
      try { localStorage.setItem('lc-notify', notify ? '1' : '0'); } catch (e) { /* kept for this page */ }
      badge(waiting);
    });
  }
  function badge(n) { document.title = (notify && n > 0 ? '(' + n + ') ' : '') + title; }
  function beep() {
    try {
      var C = window.AudioContext || window.webkitAudioContext;
      var c = new C(), o = c.createOscillator();
      o.frequency.value = 880;
      o.connect(c.destination);
      o.start();
      o.stop(c.currentTime + 0.15);
    } catch (e) { /* no sound */ }
  }
  function bottom() {
    var t = document.getElementById('transcript');
    if (t && t.lastElementChild) t.lastElementChild.scrollIntoView({block: 'nearest'});
  }
  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, {credentials: 'same-origin'}).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      if (!html) return;
      var doc = new DOMParser().parseFromString(html, 'text/html');
      parts.forEach(function (id) {
        var a = document.getElementById(id), b = doc.getElementById(id);
        if (a && b) a.replaceWith(document.importNode(b, true));
      });
      var next = doc.getElementById('live');
      var n = next ? +next.getAttribute('data-waiting') : 0;
      if (notify && n > waiting) beep();
      waiting = n;
      badge(n);
      bottom();
    }).catch(function () { /* the next news tries again */ }).then(function () {
      busy = false;
      if (again) { again = false; refresh(); }
    });
  }
  badge(waiting);
  bottom();
  var es = new EventSource(root.getAttribute('data-events'));
  es.addEventListener('changed', refresh);
  // News between the page's rendering and the feed's start, or during a reconnect, is read
  // once the feed is open.
  es.addEventListener('open', refresh);
})();
