package widget

import (
	"bytes"
	"compress/gzip"
	"os/exec"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/testenv"
)

// TestScriptSizeBudget keeps the script every visitor downloads within 8 KiB gzipped.
func TestScriptSizeBudget(t *testing.T) {
	const budget = 8192
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(Script())
	zw.Close()
	t.Logf("embed.js: %d bytes, %d gzipped (budget %d)", len(script), buf.Len(), budget)
	if buf.Len() > budget {
		t.Errorf("embed.js is %d bytes gzipped, over the budget of %d", buf.Len(), budget)
	}
}

// TestScriptHasNoForbiddenConstructs guards the promises that the widget never writes text as
// HTML, never evaluates strings, and never needs 'unsafe-inline' styles.
func TestScriptHasNoForbiddenConstructs(t *testing.T) {
	forbidden := []string{
		"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
		"setAttribute('style'", `setAttribute("style"`, "createElement('style'", `createElement("style"`,
		"cssText", "setTimeout('", `setTimeout("`,
	}
	src := script
	for _, f := range forbidden {
		if strings.Contains(src, f) {
			t.Errorf("embed.js contains %q", f)
		}
	}
	for _, want := range []string{"'use strict'", "attachShadow({ mode: 'open' })", "new CSSStyleSheet()", "adoptedStyleSheets", "prefers-reduced-motion:no-preference", "100dvh"} {
		if !strings.Contains(src, want) {
			t.Errorf("embed.js lacks %q", want)
		}
	}
}

// TestScriptSyntax asks node to parse embed.js.
func TestScriptSyntax(t *testing.T) {
	out, err := exec.Command(testenv.Node(t), "--check", "embed.js").CombinedOutput()
	if err != nil {
		t.Fatalf("node --check embed.js: %v\n%s", err, out)
	}
}
