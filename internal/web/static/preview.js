/* The widget preview opens the chat panel as soon as embed.js has loaded, so the owner sees the
 * header, colours and welcome message without a click. */
(function () {
  'use strict';
  var tries = 0;
  (function open() {
    if (window.leadchat && window.leadchat.open) { window.leadchat.open(); return; }
    if (++tries < 100) setTimeout(open, 50);
  })();
})();
