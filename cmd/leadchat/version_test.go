package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestVersion: `leadchat version` needs no database and names the toolchain that built it; the
// release build's values are checked on the binaries of `make dist` (internal/dist).
func TestVersion(t *testing.T) {
	var out, errOut bytes.Buffer
	noEnv := func(string) string { return "" }
	if err := run(context.Background(), []string{"version"}, noEnv, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("leadchat version: %v (%s)", err, errOut.String())
	}
	for _, field := range []string{"version:", "commit:", "build time:", "go:         " + runtime.Version()} {
		if !strings.Contains(out.String(), field) {
			t.Errorf("leadchat version printed %q, without %q", out.String(), field)
		}
	}
	if err := run(context.Background(), []string{"version", "extra"}, noEnv, strings.NewReader(""), &out, &errOut); err == nil {
		t.Error("leadchat version extra: no error")
	}
}
