package testenv

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// NewChromium starts a headless Chromium with a fresh profile for t and returns the context
// of its first tab; everything must finish within timeout. It fails t naming the package when
// Chromium is missing, and skips only when LEADCHAT_TEST_SKIP lists chromium.
func NewChromium(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	path := Chromium(t)
	profile := t.TempDir() // before the allocator, so it is removed after Chromium exits
	ctx, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		cancelTimeout()
	})
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return bctx
}

// ArtifactsDir is where tests write screenshots: LEADCHAT_ARTIFACTS, else artifacts/screenshots
// in the module's root.
func ArtifactsDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("LEADCHAT_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(ModuleRoot(t), "artifacts", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ModuleRoot is the folder of the go.mod above the test's package.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s", dir)
		}
	}
}

// AxeVar names the path of axe.min.js; without it the tests use the one `make axe` installs.
const AxeVar = "LEADCHAT_AXE_JS"

// Axe returns the source of axe-core, the accessibility checker the browser tests inject, or
// fails t saying how to install it.
func Axe(t testing.TB) string {
	t.Helper()
	path := os.Getenv(AxeVar)
	if path == "" {
		path = AxeCore(t)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("this test needs axe-core: run `make axe` (npm installs it into .tools/), or set %s to axe.min.js", AxeVar)
	}
	return string(b)
}
