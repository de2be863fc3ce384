package pgembed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/lib/pq"
)

// serverDir is a fresh folder the server's account can reach even when the test runs as root:
// t.TempDir's parent is private to its owner.
func serverDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pgembed-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "data")
}

// logWriter sends progress lines to the test log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func start(t *testing.T, opt Options) *Cluster {
	t.Helper()
	began := time.Now()
	c, err := Start(context.Background(), opt)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Logf("started in %v", time.Since(began).Round(time.Millisecond))
	t.Cleanup(func() { c.Stop(context.Background()) })
	return c
}

func stop(t *testing.T, c *Cluster) {
	t.Helper()
	if err := c.Stop(context.Background()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.dataDir, "postmaster.pid")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("postmaster.pid after Stop: %v, want it removed by a clean shutdown", err)
	}
}

func query(t *testing.T, c *Cluster, q string) string {
	t.Helper()
	db, err := sql.Open("postgres", c.DSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got sql.NullString
	if err := db.QueryRow(q).Scan(&got); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("%s: %v", q, err)
	}
	return got.String
}

func TestLifecycle(t *testing.T) {
	dir := serverDir(t)
	c := start(t, Options{DataDir: dir, Log: logWriter{t}})
	if got := query(t, c, "SELECT 1"); got != "1" {
		t.Fatalf("SELECT 1 = %q", got)
	}
	if got, want := c.DSN("a db"), fmt.Sprintf("postgres://postgres@127.0.0.1:%d/a%%20db?sslmode=disable", c.Port()); got != want {
		t.Errorf("DSN = %q, want %q", got, want)
	}
	if got := query(t, c, "SHOW fsync"); got != "off" {
		t.Errorf("fsync = %q on a cluster that is not durable", got)
	}
	if got := query(t, c, "SHOW unix_socket_directories"); got != `"`+dir+`"` {
		t.Errorf("unix_socket_directories = %q, want the data folder", got)
	}
	query(t, c, "CREATE TABLE kept AS SELECT 'still here' AS v")

	t.Run("second server on the same folder", func(t *testing.T) {
		_, err := Start(context.Background(), Options{DataDir: dir})
		if !errors.Is(err, ErrAlreadyRunning) {
			t.Fatalf("Start = %v, want ErrAlreadyRunning", err)
		}
	})
	stop(t, c)
	if err := c.Stop(context.Background()); err != nil {
		t.Errorf("second Stop: %v", err)
	}

	t.Run("restart reuses the cluster", func(t *testing.T) {
		c := start(t, Options{DataDir: dir, Durable: true, Log: logWriter{t}})
		if got := query(t, c, "SELECT v FROM kept"); got != "still here" {
			t.Errorf("kept.v = %q after a restart", got)
		}
		if got := query(t, c, "SHOW fsync"); got != "on" {
			t.Errorf("fsync = %q on a durable cluster", got)
		}
		stop(t, c)
	})

	t.Run("stale lock file", func(t *testing.T) {
		// The pid of a process that has exited stands for a server that was killed.
		dead := exec.Command("true")
		if err := dead.Run(); err != nil {
			t.Fatal(err)
		}
		lock := fmt.Sprintf("%d\n%s\n", dead.Process.Pid, dir)
		if err := os.WriteFile(filepath.Join(dir, "postmaster.pid"), []byte(lock), 0o600); err != nil {
			t.Fatal(err)
		}
		c := start(t, Options{DataDir: dir, Port: freePortT(t), Log: logWriter{t}})
		if got := query(t, c, "SELECT 1"); got != "1" {
			t.Fatalf("SELECT 1 = %q", got)
		}
		stop(t, c)
	})
}

func TestFolderWithoutCluster(t *testing.T) {
	dir := serverDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Start(context.Background(), Options{DataDir: dir})
	if err == nil || !strings.Contains(err.Error(), "no PostgreSQL cluster") {
		t.Fatalf("Start = %v, want an error about a folder without a cluster", err)
	}
}

func freePortT(t *testing.T) int {
	p, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNotInstalled(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := findBinaries(filepath.Join(t.TempDir(), "nothing"))
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("findBinaries = %v, want ErrNotInstalled", err)
	}
	if !strings.Contains(err.Error(), "apt-get install postgresql") {
		t.Errorf("the error does not say what to install: %v", err)
	}
}

func TestMajorVersionOrder(t *testing.T) {
	if majorVersion("/usr/lib/postgresql/9.6/bin") >= majorVersion("/usr/lib/postgresql/15/bin") {
		t.Error("9.6 sorts above 15")
	}
}

func TestCanEnter(t *testing.T) {
	stranger := &account{name: "stranger", uid: 1 << 20, gid: 1 << 20}
	for _, tc := range []struct {
		name string
		perm os.FileMode
		want bool
	}{
		{"private folder", 0o700, false},
		{"group-only folder", 0o750, false},
		{"traversable folder", 0o711, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Chmod(dir, tc.perm); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := stranger.canEnter(fi); got != tc.want {
				t.Errorf("canEnter = %v, want %v", got, tc.want)
			}
		})
	}
}
