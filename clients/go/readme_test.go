package leadclient_test

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	leadclient "github.com/leadchat/leadchat/clients/go"
)

// The READMEs whose go blocks must be compiled: this module's and the repository's.
var readmes = []string{"README.md", "../../README.md"}

// The file that holds each README block inside a function that compiles it.
const readmeExamples = "readme_example_test.go"

// Every go block of the READMEs is in readme_example_test.go line for line (indentation and
// import lines aside), where the compiler checks it against the SDK; a block that declares a
// type instead is checked field by field against the SDK's type. So a README example that
// stops compiling, or an SDK change that the README misses, fails here.
func TestREADMEGoBlocksCompile(t *testing.T) {
	src, err := os.ReadFile(readmeExamples)
	if err != nil {
		t.Fatal(err)
	}
	compiled := codeLines(string(src))
	n := 0 // blocks of code, each one of readmeBlocks
	for _, path := range readmes {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range goBlocks(string(data)) {
			if !strings.Contains(block.text, "leadclient") && !strings.Contains(block.text, "lc.") {
				continue // a Go block about something else than the SDK
			}
			if strings.HasPrefix(strings.TrimSpace(block.text), "type ") {
				checkTypeBlock(t, path, block)
				continue
			}
			if len(codeLines(block.text)) == 0 {
				continue // an import line alone
			}
			n++
			if !containsRun(compiled, codeLines(block.text)) {
				t.Errorf("%s:%d: this go block is not in %s line for line (the compiled copy is missing or differs):\n%s",
					path, block.line, readmeExamples, block.text)
			}
		}
	}
	if n != len(readmeBlocks) {
		t.Errorf("%v hold %d blocks of SDK code, %s compiles %d: one function per block", readmes, n, readmeExamples, len(readmeBlocks))
	}
}

// block is a fenced go block and the line its code starts on.
type block struct {
	text string
	line int
}

// goBlocks returns the ```go blocks of a Markdown text.
func goBlocks(md string) []block {
	var out []block
	var cur *strings.Builder
	start := 0
	sc := bufio.NewScanner(strings.NewReader(md))
	for i := 1; sc.Scan(); i++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```go":
			cur, start = &strings.Builder{}, i+1
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, block{cur.String(), start})
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	return out
}

// codeLines is the text's lines without their indentation, leaving out blank and import lines.
func codeLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "import ") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// containsRun reports whether want occurs in have as consecutive lines.
func containsRun(have, want []string) bool {
	for i := 0; i+len(want) <= len(have); i++ {
		if equalLines(have[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

func equalLines(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sdkTypes are the SDK types a README may show the declaration of.
var sdkTypes = map[string]reflect.Type{
	"APIError": reflect.TypeFor[leadclient.APIError](),
}

// qualifier is the package part of a type's name, which the README's declarations leave out.
var qualifier = regexp.MustCompile(`^[a-z]+\.`)

// checkTypeBlock parses a block that declares a struct and compares its fields, in order, with
// the SDK type of the same name.
func checkTypeBlock(t *testing.T, path string, b block) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "", "package x\n"+b.text, 0)
	if err != nil {
		t.Errorf("%s:%d: %v", path, b.line, err)
		return
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			real, ok := sdkTypes[ts.Name.Name]
			st, isStruct := ts.Type.(*ast.StructType)
			if !ok || !isStruct {
				t.Errorf("%s:%d: type %s is not an SDK struct this test knows", path, b.line, ts.Name.Name)
				continue
			}
			var shown []string
			for _, fl := range st.Fields.List {
				var typ bytes.Buffer
				typ.WriteString(exprString(fl.Type))
				for _, n := range fl.Names {
					shown = append(shown, n.Name+" "+typ.String())
				}
			}
			var want []string
			for i := range real.NumField() {
				fd := real.Field(i)
				want = append(want, fd.Name+" "+qualifier.ReplaceAllString(fd.Type.String(), ""))
			}
			if strings.Join(shown, "; ") != strings.Join(want, "; ") {
				t.Errorf("%s:%d: the README shows %s as {%s}, the SDK has {%s}", path, b.line, ts.Name.Name,
					strings.Join(shown, "; "), strings.Join(want, "; "))
			}
		}
	}
}

// exprString prints the type expressions a README struct uses: names and selectors.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	}
	return "?"
}
