package dev

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// The demo keys file holds a private key in plain text: whatever mode it had, provisioning
// leaves it readable by its owner alone, and a second start prints the same keys.
func TestDemoKeysFileIsPrivate(t *testing.T) {
	dsn := pgtest.NewDSN(t)
	path := filepath.Join(t.TempDir(), keysFile)
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	first, err := provision(context.Background(), dsn, path)
	if err != nil {
		t.Fatal(err)
	}
	mode := func() os.FileMode {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if m := mode(); m != 0o600 || !strings.HasPrefix(first.PrivateKey, "lc_priv_") {
		t.Errorf("after the first start: mode %v, keys %+v", m, first)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := provision(context.Background(), dsn, path)
	if err != nil || again != first || mode() != 0o600 {
		t.Errorf("after a second start: %+v, %v, mode %v; want the same keys, mode 0600", again, err, mode())
	}
}

func TestReset(t *testing.T) {
	dir := t.TempDir()
	pg := filepath.Join(dir, clusterDir)
	for _, f := range []string{filepath.Join(pg, "PG_VERSION"), filepath.Join(dir, keysFile), filepath.Join(dir, URLFile)} {
		if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}

	t.Run("refused with a database of the developer's own", func(t *testing.T) {
		err := reset(dir, true, &strings.Builder{})
		if err == nil || !strings.Contains(err.Error(), "DATABASE_URL is set") || !exists(keysFile) {
			t.Errorf("reset = %v; keys file there: %v", err, exists(keysFile))
		}
	})

	t.Run("refused while a server runs on the cluster", func(t *testing.T) {
		// A process whose working directory is the cluster is what a running postmaster looks like.
		server := exec.Command("sleep", "60")
		server.Dir = pg
		if err := server.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { server.Process.Kill(); server.Wait() }()
		lock := filepath.Join(pg, "postmaster.pid")
		if err := os.WriteFile(lock, []byte(strings.Join([]string{strconv.Itoa(server.Process.Pid), pg}, "\n")), 0o600); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(lock)
		err := reset(dir, false, &strings.Builder{})
		if err == nil || !strings.Contains(err.Error(), "is running from") || !exists(clusterDir) || !exists(keysFile) {
			t.Errorf("reset = %v; cluster there: %v, keys there: %v", err, exists(clusterDir), exists(keysFile))
		}
	})

	t.Run("deletes the cluster and the keys", func(t *testing.T) {
		var out strings.Builder
		if err := reset(dir, false, &out); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{clusterDir, keysFile, URLFile} {
			if exists(name) {
				t.Errorf("%s is still there", name)
			}
		}
		if !strings.Contains(out.String(), "Starting the demo over") {
			t.Errorf("reset said %q", out.String())
		}
	})
}

// The banner names the company once, without parentheses inside parentheses, and the binary
// that make run built.
func TestWelcomeBanner(t *testing.T) {
	var b strings.Builder
	printWelcome(&b, "http://127.0.0.1:8080", demoKeys{CompanyID: "0b7f3c52-5f3e-4c8e-9a7a-0c1d2e3f4a5b",
		PublicKey: "lc_pub_x", PrivateKey: "lc_priv_x", OwnerPassword: "jelszo-1234"}, ".leadchat/demo-keys.json")
	out := b.String()
	for _, bad := range []string{"((", "))", ")  (", "go run"} {
		if strings.Contains(out, bad) {
			t.Errorf("the banner holds %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"Demo company:  " + DemoCompany + "\n", "Company id:    0b7f3c52-5f3e-4c8e-9a7a-0c1d2e3f4a5b\n",
		"bin/leadchat leads list --company 0b7f3c52", "password:  jelszo-1234"} {
		if !strings.Contains(out, want) {
			t.Errorf("the banner lacks %q:\n%s", want, out)
		}
	}
}
