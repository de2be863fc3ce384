/* leadchat dashboard: copy buttons. Everything works without it; it only saves a selection. */
(function () {
  'use strict';
  document.addEventListener('click', function (e) {
    var b = e.target.closest('[data-copy]');
    if (!b) return;
    var field = document.getElementById(b.getAttribute('data-copy'));
    if (!field) return;
    field.select();
    var done = function () {
      var old = b.textContent;
      b.textContent = 'Másolva';
      setTimeout(function () { b.textContent = old; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () { /* selected: the user copies */ });
    } else {
      try { if (document.execCommand('copy')) done(); } catch (err) { /* selected: the user copies */ }
    }
  });
  document.addEventListener('focusin', function (e) {
    if (e.target.hasAttribute && e.target.hasAttribute('data-select')) e.target.select();
  });
})();
