package testenv

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder stands in for a test and keeps what find told it.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// call runs find as a test would, in a goroutine of its own that Skipf and Fatalf end.
func call(need, pkg string, programs ...string) (path string, r *recorder) {
	r = &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		path = find(r, need, pkg, programs...)
	}()
	<-done
	return path, r
}

func TestFind(t *testing.T) {
	t.Run("found", func(t *testing.T) {
		t.Setenv(SkipVar, "")
		if path, r := call("shell", "bash", "/nonexistent/sh", "sh"); path == "" || r.failed != "" || r.skipped != "" {
			t.Errorf("path %q, failed %q, skipped %q", path, r.failed, r.skipped)
		}
	})
	t.Run("missing fails naming the package", func(t *testing.T) {
		t.Setenv(SkipVar, "node")
		_, r := call("chromium", "chromium", "/nonexistent/chromium")
		if !strings.Contains(r.failed, "apt-get install chromium") || !strings.Contains(r.failed, SkipVar+"=chromium") {
			t.Errorf("failed with %q", r.failed)
		}
	})
	t.Run("listed skips even when found", func(t *testing.T) {
		t.Setenv(SkipVar, "node, chromium")
		if _, r := call("chromium", "chromium", "sh"); !strings.Contains(r.skipped, SkipVar+"=node, chromium") || r.failed != "" {
			t.Errorf("skipped %q, failed %q", r.skipped, r.failed)
		}
	})
}

func TestAxeCoreIsPartOfTheChromiumNeed(t *testing.T) {
	t.Setenv(SkipVar, "chromium")
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		AxeCore(r)
	}()
	<-done
	if !strings.Contains(r.skipped, "chromium") || r.failed != "" {
		t.Errorf("skipped %q, failed %q", r.skipped, r.failed)
	}
}
