package widget

import _ "embed"

// script is the chat widget every visitor of every customer site downloads, hand-written with no
// build step. Its host element is <leadchat-widget data-leadchat> with an open shadow root, in which
// browser tests find the parts by data-lc, kept stable:
//
//	bubble, panel (role=dialog), title, close, log (role=log), msg (data-role="visitor" or
//	"assistant"), quick, quick-button, typing, error, error-text, retry, composer, input, send,
//	contact (the form), contact-prompt, contact-name, contact-email, contact-phone (only with
//	require_phone), contact-hp (the honeypot), contact-error, contact-submit, contact-dismiss,
//	powered-by (absent with hide_powered_by).
//
// The contact form sends nothing when submitted within 2 s of appearing or with the honeypot
// filled (it only pretends success), so a test must wait 2 s before submitting it.
//
//go:embed embed.js
var script string

// Script returns embed.js, the widget's script, for the HTTP layer to serve.
func Script() []byte { return []byte(script) }
