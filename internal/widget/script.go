package widget

import (
	"bytes"
	_ "embed"
	"strings"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/js"
)

// script is the chat widget every visitor of every customer site downloads, hand-written and kept
// readable here; Script serves it minified. Its host element is <leadchat-widget data-leadchat>
// with an open shadow root, in which browser tests find the parts by data-lc, kept stable:
//
//	bubble, panel (role=dialog; aria-modal while it covers a narrow screen), title, close, log
//	(role=log), msg (data-role="visitor", "assistant", "agent" (a person of the company, their
//	name first in a <b>), or "note" for the line that stands for a sent contact form), presence
//	(shown while a person of the company is online), quick, quick-button, typing (the dots), status (the live region that says
//	"typing" in words), error, error-text, retry, composer, input, send, contact (the form),
//	contact-prompt, contact-name, contact-email, contact-phone (only with require_phone), and
//	contact-name-error, contact-email-error, contact-phone-error beside them, contact-hp (the
//	honeypot), contact-submit, contact-dismiss, powered-by (absent with hide_powered_by).
//
// The contact form checks its fields first: an empty or invalid one shows its error and nothing
// is sent. A filled form is sent with how long it was open and the honeypot; the server drops
// the details of one sent within 2 s or with the honeypot filled, so a test waits 2 s. The form
// closes whenever an answer no longer asks for contact details. With language auto the widget's
// texts follow each answer's language. While the panel is open the widget follows the
// conversation's stream (resuming after the last message id it keeps; polling the JSON endpoint
// every 5 s where no stream holds) and shows the company's people's messages.
//
//go:embed embed.js
var script string

// Script returns embed.js as it is served: minified, so that the source keeps its names and
// comments within the download's size budget. It minifies on every call; the server calls it once,
// at start. Should the minifier ever refuse the source, the source is served as written (the tests
// minify it, so that cannot ship unnoticed).
func Script() []byte {
	b, err := minifyJS(script)
	if err != nil {
		return []byte(script)
	}
	return b
}

// minifyJS minifies JavaScript, keeping its leading /*! */ comment.
func minifyJS(src string) ([]byte, error) {
	var out bytes.Buffer
	err := (&js.Minifier{}).Minify(minify.New(), &out, strings.NewReader(src), nil)
	return out.Bytes(), err
}
