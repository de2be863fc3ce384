// Command gendocs writes api/docs.gen.html, the reference page the service serves at /docs,
// rendered from api/openapi.yaml by internal/apidocs. Rendering it here rather than at each start
// of the service keeps kin-openapi's loading and goldmark out of the start-up path. `make
// generate` runs it and `make check-generated` fails on drift.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/leadchat/leadchat/internal/apidocs"
)

func main() {
	spec := flag.String("spec", "api/openapi.yaml", "the OpenAPI contract")
	out := flag.String("out", "api/docs.gen.html", "the reference page to write")
	flag.Parse()
	if err := run(*spec, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run(specPath, outPath string) error {
	raw, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	page, err := apidocs.Render(raw)
	if err != nil {
		return err
	}
	return os.WriteFile(outPath, page, 0o644)
}
