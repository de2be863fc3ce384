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
//	(role=log), msg (data-role="visitor" or "assistant"), quick, quick-button, typing (the dots),
//	status (the live region that says "typing" in words), error, error-text, retry, composer,
//	input, send, contact (the form), contact-prompt, contact-name, contact-email, contact-phone
//	(only with require_phone), contact-hp (the honeypot), contact-error, contact-submit,
//	contact-dismiss, powered-by (absent with hide_powered_by).
//
// The contact form shows the first invalid field's error whenever it is submitted; a valid form
// sent within 2 s of appearing or with the honeypot filled only pretends success, so a test must
// wait 2 s before submitting one.
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
