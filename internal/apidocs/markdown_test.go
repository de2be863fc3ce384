package apidocs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"paragraphs", "one\ntwo\n\nthree", "<p>one\ntwo</p>\n<p>three</p>\n"},
		{"markup is text", `a <b onclick="x">&amp;</b>`, "<p>a &lt;b onclick=&#34;x&#34;&gt;&amp;amp;&lt;/b&gt;</p>\n"},
		{"code", "use `<script src=\"x\">` **here**", "<p>use <code>&lt;script src=&#34;x&#34;&gt;</code> <strong>here</strong></p>\n"},
		{"no bold inside code", "`**a**`", "<p><code>**a**</code></p>\n"},
		{"unpaired marks stay", "a ** b `c", "<p>a ** b `c</p>\n"},
		{"heading without a blank line", "## Keys & more\nText.", "<h2 id=\"keys-more\">Keys &amp; more</h2>\n<p>Text.</p>\n"},
		{"list with a continued item", "* one `x`\n  still one\n- two\n\nafter",
			"<ul>\n<li>one <code>x</code>\nstill one</li>\n<li>two</li>\n</ul>\n<p>after</p>\n"},
		{"ordered list", "1. a\n2. b", "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n"},
		{"list right after a paragraph", "Steps:\n* a", "<p>Steps:</p>\n<ul>\n<li>a</li>\n</ul>\n"},
		{"table", "| code | status |\n|---|:--:|\n| `a|b` | 4**0**1 |\n| <x> | \\| |\nnext",
			"<div class=\"table\"><table>\n<thead><tr><th>code</th><th>status</th></tr></thead>\n<tbody>\n" +
				"<tr><td><code>a|b</code></td><td>4<strong>0</strong>1</td></tr>\n" +
				"<tr><td>&lt;x&gt;</td><td>|</td></tr>\n</tbody>\n</table></div>\n<p>next</p>\n"},
		{"a pipe line without a rule is text", "| not a table", "<p>| not a table</p>\n"},
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
	_, heads := markdown("# Top\n## Cross-origin calls\n### ***\n####### seven", "op-x-", 1)
	want := []heading{
		{Level: 2, ID: "op-x-top", HTML: "Top"},
		{Level: 3, ID: "op-x-cross-origin-calls", HTML: "Cross-origin calls"},
		{Level: 4, ID: "op-x-section-3", HTML: "***"},
	}
	if diff := cmp.Diff(want, heads); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
}
