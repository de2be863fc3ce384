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

// TestScriptSizeBudget keeps the script every visitor downloads, as served, within 10 KiB gzipped.
func TestScriptSizeBudget(t *testing.T) {
	const budget = 10 << 10
	gzipped := func(b []byte) int {
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		zw.Write(b)
		zw.Close()
		return buf.Len()
	}
	served := Script()
	t.Logf("embed.js: source %d bytes, %d gzipped; served minified %d bytes, %d gzipped (budget %d)",
		len(script), gzipped([]byte(script)), len(served), gzipped(served), budget)
	if n := gzipped(served); n > budget {
		t.Errorf("embed.js is %d bytes gzipped as served, over the budget of %d", n, budget)
	}
}

// TestScriptMinifies guards the fallback that Script never needs: the source minifies, and the
// result is what is served.
func TestScriptMinifies(t *testing.T) {
	min, err := minifyJS(script)
	if err != nil {
		t.Fatalf("minifying embed.js: %v", err)
	}
	if !bytes.Equal(min, Script()) || len(min) >= len(script) {
		t.Errorf("Script() is not the minified source (%d bytes, source %d)", len(Script()), len(script))
	}
	if !strings.HasPrefix(string(min), "/*! leadchat embed.js") {
		t.Errorf("the minified script lost its leading comment: %.60q", min)
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
	for _, src := range []struct{ name, text string }{{"embed.js", script}, {"embed.js as served", string(Script())}} {
		for _, f := range forbidden {
			if strings.Contains(src.text, f) {
				t.Errorf("%s contains %q", src.name, f)
			}
		}
	}
	src := script
	for _, want := range []string{"'use strict'", "attachShadow({ mode: 'open' })", "new CSSStyleSheet()", "adoptedStyleSheets", "prefers-reduced-motion:no-preference", "100dvh"} {
		if !strings.Contains(src, want) {
			t.Errorf("embed.js lacks %q", want)
		}
	}
}

// TestScriptSyntax asks node to parse embed.js, as written and as served.
func TestScriptSyntax(t *testing.T) {
	node := testenv.Node(t)
	served := filepath.Join(t.TempDir(), "embed.min.js")
	if err := os.WriteFile(served, Script(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"embed.js", served} {
		if out, err := exec.Command(node, "--check", f).CombinedOutput(); err != nil {
			t.Errorf("node --check %s: %v\n%s", f, err, out)
		}
	}
}
