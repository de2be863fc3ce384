package apidocs

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
)

const orderSpec = `
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /b/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    post:
      operationId: postB
      responses:
        '201': {$ref: '#/components/responses/Made'}
        '200': {description: ok}
    get:
      operationId: getB
      responses:
        '200': {description: ok}
  /a:
    get:
      operationId: getA
      responses:
        '200': {description: ok}
components:
  responses:
    Made:
      description: made
      headers: {Z-One: {schema: {type: string}}, A-Two: {schema: {type: string}}}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Thing'}
          examples:
            second: {value: {b: 1, zeta: 1}}
            first:
              value:
                "$ref": data
                alpha: [{y: 1, x: "x<y"}]
                zeta: 1
                empty: {}
  schemas:
    Thing:
      type: object
      properties:
        zeta: {type: integer}
        alpha:
          type: array
          items:
            type: object
            properties:
              y: {type: integer}
              x: {type: string}
        empty: {type: object}
`

func TestFileOrder(t *testing.T) {
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true
	doc, err := loader.LoadFromData([]byte(orderSpec))
	if err != nil {
		t.Fatal(err)
	}
	ops := builder{doc: doc}.operations()
	var got []string
	for _, op := range ops {
		got = append(got, op.OperationID)
	}
	if diff := cmp.Diff([]string{"postB", "getB", "getA"}, got); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}

	post := ops[0]
	got = nil
	for _, r := range post.Responses {
		got = append(got, r.Status)
	}
	if diff := cmp.Diff([]string{"201", "200"}, got); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
	made := post.Responses[0]
	got = nil
	for _, h := range made.Headers {
		got = append(got, h.Name)
	}
	if diff := cmp.Diff([]string{"Z-One", "A-Two"}, got); diff != "" {
		t.Errorf("headers through a $ref (-want +got):\n%s", diff)
	}

	examples := made.Contents[0].Examples
	if examples[0].Name != "second" || examples[1].Name != "first" {
		t.Errorf("examples %q, %q; want second, first", examples[0].Name, examples[1].Name)
	}
	// The schema's properties first, in its order; then the rest, sorted. A "$ref" key in an
	// example is data.
	want := `{
  "zeta": 1,
  "alpha": [
    {
      "y": 1,
      "x": "x<y"
    }
  ],
  "empty": {},
  "$ref": "data"
}`
	if diff := cmp.Diff(want, examples[1].JSON); diff != "" {
		t.Errorf("example (-want +got):\n%s", diff)
	}
}

func TestInFileOrderWithoutOrigins(t *testing.T) {
	m := map[string]*openapi3.PathItem{"/c": {}, "/a": {Origin: &openapi3.Origin{Key: &openapi3.Location{Line: 9}}}, "/b": nil}
	if diff := cmp.Diff([]string{"/a", "/b", "/c"}, inFileOrder(m)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
