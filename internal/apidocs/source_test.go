package apidocs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sourceYAML = `
paths:
  /b/{id}:
    post: {}
    get: {}
  /a: {}
components:
  examples:
    shared: &shared
      value:
        zeta: 1
        alpha: [true, null, "x<y"]
        "$ref": data
        empty: {}
  responses:
    Bad:
      $ref: '#/components/responses/Worse'
    Worse:
      description: worse
      headers: {Z-One: {}, A-Two: {}}
    Loop:
      $ref: '#/components/responses/Loop'
  copy: *shared
`

func TestSource(t *testing.T) {
	src, err := parseSource([]byte(sourceYAML))
	if err != nil {
		t.Fatal(err)
	}

	if diff := cmp.Diff([]string{"/b/{id}", "/a"}, src.keys("/paths")); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"post", "get"}, src.keys(pointer("/paths", "/b/{id}"))); diff != "" {
		t.Errorf("methods (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Z-One", "A-Two"}, src.keys("/components/responses/Bad/headers")); diff != "" {
		t.Errorf("headers through a $ref (-want +got):\n%s", diff)
	}
	if got := src.at("/components/responses/Loop/description"); got != nil {
		t.Errorf("a $ref cycle resolved to %v", got)
	}

	want := `{
  "zeta": 1,
  "alpha": [
    true,
    null,
    "x<y"
  ],
  "$ref": "data",
  "empty": {}
}`
	for _, ptr := range []string{"/components/examples/shared/value", "/components/copy/value"} {
		got, ok := src.json(ptr)
		if !ok {
			t.Fatalf("%s: not found", ptr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", ptr, diff)
		}
	}
}

func TestOrdered(t *testing.T) {
	m := map[string]int{"c": 1, "a": 2, "b": 3, "d": 4}
	got := ordered([]string{"d", "x", "b", "d"}, m)
	if diff := cmp.Diff([]string{"d", "b", "a", "c"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
