package apidocs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The Markdown itself is goldmark's; these cases pin what the page relies on.
func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"paragraphs", "one\ntwo\n\nthree", "<p>one\ntwo</p>\n<p>three</p>\n"},
		{"raw HTML is left out", `a <b onclick="x">&amp;</b>`, "<p>a <!-- raw HTML omitted -->&amp;<!-- raw HTML omitted --></p>\n"},
		{"a raw HTML block is left out", "<script>alert(1)</script>\n", "<!-- raw HTML omitted -->\n"},
		{"code is text", "use `<script src=\"x\">` **here**", "<p>use <code>&lt;script src=&quot;x&quot;&gt;</code> <strong>here</strong></p>\n"},
		{"no script link", "[x](javascript:alert(1))", "<p><a href=\"\">x</a></p>\n"},
		{"heading without a blank line", "## Keys & more\nText.", "<h2 id=\"keys-more\">Keys &amp; more</h2>\n<p>Text.</p>\n"},
		{"table", "| code | status |\n|---|---|\n| `a` | 4**0**1 |",
			"<table>\n<thead>\n<tr>\n<th>code</th>\n<th>status</th>\n</tr>\n</thead>\n<tbody>\n" +
				"<tr>\n<td><code>a</code></td>\n<td>4<strong>0</strong>1</td>\n</tr>\n</tbody>\n</table>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := markdown(tc.src, "", 0)
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("markdown(%q) (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}

func TestMarkdownHeadings(t *testing.T) {
	got, heads := markdown("# Top\n## Cross-`origin` calls\n### ***\n* item\n\n  #### in a list", "op-x-", 1)
	want := []heading{
		{Level: 2, ID: "op-x-top", HTML: "Top"},
		{Level: 3, ID: "op-x-cross-origin-calls", HTML: "Cross-<code>origin</code> calls"},
		{Level: 4, ID: "op-x-section-3", HTML: "***"},
		{Level: 5, ID: "op-x-in-a-list", HTML: "in a list"},
	}
	if diff := cmp.Diff(want, heads); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(got), `<h3 id="op-x-cross-origin-calls">`) {
		t.Errorf("the page's heading lacks its level or id:\n%s", got)
	}
	if _, heads := markdown("###### six", "", 3); heads[0].Level != 6 {
		t.Errorf("a heading shifted past <h6> is level %d", heads[0].Level)
	}
}

func TestInline(t *testing.T) {
	for src, want := range map[string]string{
		"`make run` on **your** machine": "<code>make run</code> on <strong>your</strong> machine",
		"one\n\ntwo":                     "<p>one</p>\n<p>two</p>\n",
		"":                               "",
	} {
		if got := string(inline(src)); got != want {
			t.Errorf("inline(%q) = %q, want %q", src, got, want)
		}
	}
}
