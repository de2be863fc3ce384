package widget

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
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
	t.Logf("embed.js as served: %d bytes, %d gzipped (budget %d)", len(Script()), buf.Len(), budget)
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

// TestScriptSyntax asks node to parse embed.js, as kept and as served.
func TestScriptSyntax(t *testing.T) {
	served := filepath.Join(t.TempDir(), "served.js")
	if err := os.WriteFile(served, Script(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"embed.js", served} {
		out, err := exec.Command(testenv.Node(t), "--check", f).CombinedOutput()
		if err != nil {
			t.Fatalf("node --check %s: %v\n%s", f, err, out)
		}
	}
	if strings.Contains(string(Script()), "\n//") || !strings.HasPrefix(string(Script()), "/*! leadchat embed.js") {
		t.Error("the served script keeps a line comment or lost its header")
	}
}
