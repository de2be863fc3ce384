// Package testenv finds the programs that some tests need besides PostgreSQL (Chromium for the
// widget's browser tests and the axe-core rules they run, node for the syntax of embed.js and
// the Portman contract run, LibreOffice for the CSV exports). A test that needs one runs, or fails
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

// SkipVar names the opt-out: a comma-separated list of the needs (chromium, node, libreoffice)
// whose tests skip.
const SkipVar = "LEADCHAT_TEST_SKIP"

// Chromium is the path of Chromium for t.
func Chromium(t testing.TB) string {
	t.Helper()
	return find(t, "chromium", "chromium", "/usr/bin/chromium", "chromium", "chromium-browser")
}

// LibreOffice is the path of LibreOffice's soffice for t, which converts the CSV exports as a
// spreadsheet user opens them.
func LibreOffice(t testing.TB) string {
	t.Helper()
	return find(t, "libreoffice", "libreoffice-calc-nogui", "soffice", "libreoffice")
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
	version := makeVar(t, "AXE_VERSION")
	path := filepath.Join(ModuleRoot(t), ".tools", "axe-core-"+version, "node_modules", "axe-core", "axe.min.js")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("this test needs axe-core %s: run `make axe` (npm, from apt-get install nodejs npm), or set %s=chromium to skip it", version, SkipVar)
	}
	return path
}

// Portman is the folder of the portman and newman commands, which `make portman` installs from
// npm into .tools/ (the version is the Makefile's PORTMAN_VERSION); they are part of the node
// need.
func Portman(t testing.TB) string {
	t.Helper()
	Node(t)
	version := makeVar(t, "PORTMAN_VERSION")
	bin := filepath.Join(ModuleRoot(t), ".tools", "portman-"+version, "node_modules", ".bin")
	for _, cmd := range []string{"portman", "newman"} {
		if _, err := os.Stat(filepath.Join(bin, cmd)); err != nil {
			t.Fatalf("this test needs %s (Portman %s): run `make portman` (npm, from apt-get install nodejs npm), or set %s=node to skip it", cmd, version, SkipVar)
		}
	}
	return bin
}

// makeVar is the value the Makefile gives name (`NAME := value`), the one place a tool's
// version is written.
func makeVar(t testing.TB, name string) string {
	t.Helper()
	mk, err := os.ReadFile(filepath.Join(ModuleRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\s*:=\s*(\S+)`).FindSubmatch(mk)
	if m == nil {
		t.Fatalf("the Makefile sets no %s", name)
	}
	return string(m[1])
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
