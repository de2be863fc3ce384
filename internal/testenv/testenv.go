// Package testenv finds the programs that some tests need besides PostgreSQL (Chromium for the
// widget's browser tests and the axe-core rules they run, node for the syntax of embed.js). A test that needs one runs, or fails
// naming the Debian package that installs it; it never skips on its own. The one way to skip such
// tests is to list them in LEADCHAT_TEST_SKIP (e.g. LEADCHAT_TEST_SKIP=chromium,node), and
// `make test` lists every skipped test at its end.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// SkipVar names the opt-out: a comma-separated list of the needs (chromium, node) whose tests skip.
const SkipVar = "LEADCHAT_TEST_SKIP"

// Chromium is the path of Chromium for t.
func Chromium(t testing.TB) string {
	t.Helper()
	return find(t, "chromium", "chromium", "/usr/bin/chromium", "chromium", "chromium-browser")
}

// Node is the path of node for t.
func Node(t testing.TB) string {
	t.Helper()
	return find(t, "node", "nodejs", "node")
}

// AxeCore is the path of axe.min.js, which `make axe` installs from npm into .tools/ (the version
// is the Makefile's AXE_VERSION); it is part of the chromium need.
func AxeCore(t testing.TB) string {
	t.Helper()
	if skipped("chromium") {
		t.Skipf("%s=%s: this test needs chromium", SkipVar, os.Getenv(SkipVar))
	}
	root := ModuleRoot(t)
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^AXE_VERSION\s*:=\s*(\S+)`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile sets no AXE_VERSION")
	}
	path := filepath.Join(root, ".tools", "axe-core-"+string(m[1]), "node_modules", "axe-core", "axe.min.js")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("this test needs axe-core %s: run `make axe` (npm, from apt-get install nodejs npm), or set %s=chromium to skip it", m[1], SkipVar)
	}
	return path
}

// find skips t when SkipVar lists need, else returns the first of programs found (a path, or a
// name on PATH), else fails t naming pkg.
func find(t testing.TB, need, pkg string, programs ...string) string {
	t.Helper()
	if skipped(need) {
		t.Skipf("%s=%s: this test needs %s", SkipVar, os.Getenv(SkipVar), need)
	}
	for _, p := range programs {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Fatalf("this test needs %s: apt-get install %s (or set %s=%s to skip it)", need, pkg, SkipVar, need)
	return ""
}

// skipped reports whether SkipVar lists need.
func skipped(need string) bool {
	for _, n := range strings.Split(os.Getenv(SkipVar), ",") {
		if strings.TrimSpace(n) == need {
			return true
		}
	}
	return false
}
