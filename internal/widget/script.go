package widget

import _ "embed"

// script is the chat widget every visitor of every customer site downloads, hand-written with no
// build step. Its host element is <leadchat-widget data-leadchat> with an open shadow root, in which
// browser tests find the parts by data-lc, kept stable:
//
//	bubble, panel (role=dialog), title, close, log (role=log), msg (data-role="visitor",
//	"assistant", or "note" for the line that stands for a sent contact form), quick,
//	quick-button, typing, error, error-text, retry, composer, input, send, contact (the form),
//	contact-prompt, contact-name, contact-email, contact-phone (only with require_phone), and
//	contact-name-error, contact-email-error, contact-phone-error beside them, contact-hp (the
//	honeypot), contact-submit, contact-dismiss, powered-by (absent with hide_powered_by).
//
// The contact form checks its fields first: an empty or invalid one shows its error and nothing
// is sent. A filled form is sent with how long it was open and the honeypot; the server drops
// the details of one sent within 2 s or with the honeypot filled, so a test waits 2 s. The form
// closes whenever an answer no longer asks for contact details. With language auto the widget's
// texts follow each answer's language.
//
//go:embed embed.js
var script string

// Script returns embed.js, the widget's script, for the HTTP layer to serve.
func Script() []byte { return []byte(script) }
