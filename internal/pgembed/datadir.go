package pgembed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// account is the user the server runs as when this process is root, which PostgreSQL refuses
// to run as.
type account struct {
	name   string
	uid    int
	gid    int
	groups []int
}

// serverAccount is nil unless this process is root; then it is the postgres user.
func serverAccount() (*account, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, which PostgreSQL refuses, and there is no "+
			"`postgres` user to run the server as (create one with `useradd --system postgres`): %w", err)
	}
	a := &account{name: u.Username}
	if a.uid, err = strconv.Atoi(u.Uid); err != nil {
		return nil, fmt.Errorf("user postgres: uid %q: %w", u.Uid, err)
	}
	if a.gid, err = strconv.Atoi(u.Gid); err != nil {
		return nil, fmt.Errorf("user postgres: gid %q: %w", u.Gid, err)
	}
	gids, _ := u.GroupIds()
	for _, g := range gids {
		if n, err := strconv.Atoi(g); err == nil {
			a.groups = append(a.groups, n)
		}
	}
	return a, nil
}

// prepareDir creates dir and, when the server runs as another account, hands dir over to it
// and checks that the account can reach it.
func prepareDir(dir string, acct *account) error {
	// PostgreSQL insists on a data folder only its owner (and perhaps its group) can read.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the data folder: %w", err)
	}
	if acct == nil {
		return nil
	}
	err := filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, acct.uid, acct.gid)
	})
	if err != nil {
		return fmt.Errorf("handing the data folder to user %s: %w", acct.name, err)
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if !acct.canEnter(fi) {
			return fmt.Errorf("the PostgreSQL server runs as user %s, which cannot enter %s on the "+
				"way to the data folder %s: use another folder or `chmod o+x %s`", acct.name, p, dir, p)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// canEnter reports whether the account may traverse the directory fi describes.
func (a *account) canEnter(fi fs.FileInfo) bool {
	uid, gid, ok := fileOwner(fi)
	if !ok {
		return true
	}
	perm := fi.Mode().Perm()
	switch {
	case uid == a.uid:
		return perm&0o100 != 0
	case gid == a.gid || containsInt(a.groups, gid):
		return perm&0o010 != 0
	default:
		return perm&0o001 != 0
	}
}

func containsInt(list []int, n int) bool {
	for _, v := range list {
		if v == n {
			return true
		}
	}
	return false
}

// initCluster creates a cluster in the empty folder dir. initdb works in a folder beside it,
// renamed into place when complete, so an interrupted first start leaves no half-made cluster
// behind for the next start to trip over.
func initCluster(ctx context.Context, bin binaries, dir string, acct *account, durable bool) error {
	if entries, err := os.ReadDir(dir); err != nil {
		return err
	} else if len(entries) > 0 {
		return fmt.Errorf("the data folder %s holds files but no PostgreSQL cluster (no PG_VERSION): "+
			"empty it or use another folder", dir)
	}
	work := dir + ".initdb"
	if err := os.RemoveAll(work); err != nil {
		return err
	}
	if err := prepareDir(work, acct); err != nil {
		return err
	}
	if err := initdb(ctx, bin, work, acct, durable); err != nil {
		os.RemoveAll(work)
		return err
	}
	if err := os.Remove(dir); err != nil {
		os.RemoveAll(work)
		return err
	}
	return os.Rename(work, dir)
}

// initdb creates a cluster in dir whose superuser postgres needs no password over 127.0.0.1.
func initdb(ctx context.Context, bin binaries, dir string, acct *account, durable bool) error {
	args := []string{"-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8"}
	if !durable {
		args = append(args, "--no-sync")
	}
	out, err := run(ctx, acct, dir, bin.initdb, append(args, "--locale=C.UTF-8")...)
	if err == nil {
		return nil
	}
	// Not every system has C.UTF-8 (older glibc, macOS); the C locale sorts the same way.
	out2, err2 := run(ctx, acct, dir, bin.initdb, append(args, "--no-locale")...)
	if err2 != nil {
		return fmt.Errorf("initdb failed with --locale=C.UTF-8 (%w) and with --no-locale (%w):\n%s\n%s",
			err, err2, strings.TrimSpace(string(out)), strings.TrimSpace(string(out2)))
	}
	return nil
}

// clearStaleLock removes the postmaster.pid that a killed or crashed server left behind, and
// refuses to go on when a server still runs on dir.
func clearStaleLock(dir string, w io.Writer) error {
	lock := filepath.Join(dir, "postmaster.pid")
	b, err := os.ReadFile(lock)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(first))
	if pid > 0 && serverAlive(pid, dir) {
		return fmt.Errorf("%w: PostgreSQL (pid %d) is using %s; stop it first "+
			"(`pg_ctl stop -D %s`) or use another data folder", ErrAlreadyRunning, pid, dir, dir)
	}
	fmt.Fprintf(w, "Removing the lock file of a PostgreSQL that is no longer running (pid %d)\n", pid)
	if err := os.Remove(lock); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// serverAlive reports whether process pid is a server on dir. PIDs are reused, often quickly
// in containers, so a live pid alone is not enough where /proc can tell more.
func serverAlive(pid int, dir string) bool {
	if _, err := os.Stat("/proc/self"); err == nil {
		proc := "/proc/" + strconv.Itoa(pid)
		stat, err := os.ReadFile(proc + "/stat")
		if err != nil {
			return false
		}
		// A zombie, dead but not yet reaped, shows state Z after the parenthesized name.
		s := string(stat)
		if rest := strings.TrimSpace(s[strings.LastIndexByte(s, ')')+1:]); strings.HasPrefix(rest, "Z") {
			return false
		}
		// The postmaster's working directory is its data folder.
		if cwd, err := os.Readlink(proc + "/cwd"); err == nil {
			real, _ := filepath.EvalSymlinks(dir)
			return cwd == dir || cwd == real
		}
		comm, err := os.ReadFile(proc + "/comm")
		return err != nil || strings.TrimSpace(string(comm)) == "postgres"
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
