package widget

import (
	_ "embed"
	"strings"
)

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

// served is embed.js without its whole-line // comments, which are for the people who keep it
// and were a tenth of the gzipped bytes every visitor downloads; the /*! header stays. The file
// has no multi-line strings, so a line that begins with // is always a comment.
var served = withoutLineComments(script)

func withoutLineComments(js string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(js, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// Script returns embed.js as served, for the HTTP layer.
func Script() []byte { return []byte(served) }
