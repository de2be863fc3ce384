package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// headerShape is the header's height and how many lines its menu takes.
const headerShape = `(function () {
	var h = document.querySelector('header.top'), tops = {};
	document.querySelectorAll('header.top nav li').forEach(function (li) { tops[Math.round(li.getBoundingClientRect().top)] = true; });
	return [Math.round(h.getBoundingClientRect().height), Object.keys(tops).length];
})()`

// At 1366 px, the most common laptop width, the menu is one line and the header is as tall on
// every page, with a company name as long as they come.
func TestMenuFitsAt1366(t *testing.T) {
	f := start(t)
	if _, err := f.store.DB().Exec(`UPDATE companies SET name = $1 WHERE id = $2`,
		"Napfény Napelem és Hőszivattyú Kereskedelmi Kft.", f.a.ID); err != nil {
		t.Fatal(err)
	}
	b := newTab(t, f.base)
	if _, err := chromedp.Run(b.ctx, chromedp.EmulateViewport(1366, 768)); err != nil {
		t.Fatal(err)
	}
	b.login(f.owner)
	height := 0
	for _, path := range []string{"/app/leads", "/app/embed", "/app/widget", "/app/assistant", "/app/notifications", "/app/usage", "/app/team"} {
		b.open(path)
		shape := js[[]int](b, headerShape)
		if shape[1] != 1 {
			t.Errorf("%s: the menu takes %d lines at 1366 px, want 1", path, shape[1])
		}
		if height == 0 {
			height = shape[0]
		} else if shape[0] != height {
			t.Errorf("%s: the header is %d px tall, on /app/leads %d px", path, shape[0], height)
		}
		if name := b.text("header .company"); !strings.HasPrefix(name, "Napfény") {
			t.Errorf("%s: the company shows as %q", path, name)
		}
	}
}
