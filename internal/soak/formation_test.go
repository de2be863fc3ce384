//go:build soak && linux

package soak

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq" // the "postgres" driver, for the monitor's and the nodes' own questions
)

// formation is a PostgreSQL primary and its standby under pg_auto_failover, with the monitor
// that decides which one is primary, all on 127.0.0.1 and each a `pg_autoctl run` process
// group of its own, so one can be killed whole the way a machine dies.
type formation struct {
	dir     string
	autoctl string // pg_autoctl
	pgctl   string
	cred    *syscall.Credential // the postgres user's, when this process is root
	env     []string

	monitor *autoctl
	nodes   []*autoctl
}

// autoctl is one `pg_autoctl run`: the monitor or a node.
type autoctl struct {
	name, pgdata string
	port         int
	cmd          *exec.Cmd
	exited       chan struct{}
}

// dbname is the database the nodes hold and leadchat uses.
const dbname = "leadchat"

// The monitor's and keepers' timeouts, shortened from pg_auto_failover's defaults (a failover
// in about 50 s: 20 s before a silent node counts as unhealthy, 30 s for a primary to demote
// itself) so the run fits in a couple of minutes. The ordering that keeps them safe is kept: a
// primary cut off from the monitor and its standby demotes itself (network_partition_timeout)
// before the monitor promotes the standby (primary_demote_timeout).
var (
	monitorSettings = map[string]string{
		"pgautofailover.health_check_period":               "1000",
		"pgautofailover.health_check_timeout":              "1000",
		"pgautofailover.health_check_retry_delay":          "500",
		"pgautofailover.health_check_max_retries":          "1",
		"pgautofailover.node_considered_unhealthy_timeout": "3000",
		"pgautofailover.primary_demote_timeout":            "5000",
	}
	keeperSettings = map[string]string{
		"timeout.network_partition_timeout": "3",
	}
)

// newFormation finds pg_auto_failover's programs, failing with what to install when they are
// missing, and prepares dir for the formation.
func newFormation(dir string) (*formation, error) {
	pgctl, major, err := findPgCtl()
	if err != nil {
		return nil, err
	}
	install := fmt.Sprintf("apt-get install postgresql-%s-auto-failover pg-auto-failover-cli", major)
	ext := filepath.Join("/usr/share/postgresql", major, "extension", "pgautofailover.control")
	if _, err := os.Stat(ext); err != nil {
		return nil, fmt.Errorf("pg_auto_failover's extension for PostgreSQL %s is not installed (%s): %s", major, ext, install)
	}
	autoctl, err := exec.LookPath("pg_autoctl")
	if err != nil {
		return nil, fmt.Errorf("pg_autoctl not found on PATH: %s", install)
	}
	f := &formation{dir: dir, autoctl: autoctl, pgctl: pgctl, env: []string{
		"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8",
		// pg_autoctl keeps its configuration and state under these; inside dir, the run is
		// self-contained.
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_DATA_HOME=" + filepath.Join(dir, "share"),
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"), "HOME=" + dir,
	}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root: everything runs as the postgres user, which owns dir.
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, which PostgreSQL refuses, and there is no postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		f.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// findPgCtl is the newest installed PostgreSQL's pg_ctl and its major version.
func findPgCtl() (string, string, error) {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	sort.Slice(found, func(i, j int) bool { return majorOf(found[i]) > majorOf(found[j]) })
	if len(found) == 0 {
		return "", "", errors.New("PostgreSQL's server programs not found in /usr/lib/postgresql: apt-get install postgresql")
	}
	return found[0], strconv.Itoa(majorOf(found[0])), nil
}

func majorOf(pgctl string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(pgctl))))
	return n
}

// command is pg_autoctl with args, run as the postgres user in a process group of its own
// that the kernel ends if this process dies.
func (f *formation) command(logName string, args ...string) (*exec.Cmd, *os.File, error) {
	log, err := os.OpenFile(filepath.Join(f.dir, logName), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(f.autoctl, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = f.dir, f.env, log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM, Credential: f.cred}
	return cmd, log, nil
}

// runOnce runs a pg_autoctl command to its end.
func (f *formation) runOnce(ctx context.Context, logName string, args ...string) error {
	cmd, log, err := f.command(logName, args...)
	if err != nil {
		return err
	}
	defer log.Close()
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	if err != nil {
		return fmt.Errorf("pg_autoctl %s: %w\n%s", strings.Join(args, " "), err, tail(filepath.Join(f.dir, logName), 15))
	}
	return nil
}

// run starts `pg_autoctl run` for a monitor or node already created.
func (f *formation) run(a *autoctl) error {
	cmd, log, err := f.command(a.name+".log", "run", "--pgdata", a.pgdata)
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		log.Close()
		return err
	}
	a.cmd, a.exited = cmd, make(chan struct{})
	go func() { cmd.Wait(); log.Close(); close(a.exited) }()
	return nil
}

// start creates and runs the monitor, then the primary, then the standby, and waits until the
// monitor reports them primary and secondary.
func (f *formation) start(ctx context.Context) error {
	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	f.monitor = &autoctl{name: "monitor", pgdata: filepath.Join(f.dir, "monitor"), port: ports[0]}
	err = f.runOnce(ctx, "monitor.log", "create", "monitor", "--pgdata", f.monitor.pgdata, "--pgport", strconv.Itoa(ports[0]),
		"--pgctl", f.pgctl, "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl")
	if err != nil {
		return err
	}
	if err := f.run(f.monitor); err != nil {
		return err
	}
	if err := f.tuneMonitor(ctx); err != nil {
		return err
	}
	for i, port := range ports[1:] {
		n := &autoctl{name: fmt.Sprintf("node%d", i+1), pgdata: filepath.Join(f.dir, fmt.Sprintf("node%d", i+1)), port: port}
		err := f.runOnce(ctx, n.name+".log", "create", "postgres", "--pgdata", n.pgdata, "--pgport", strconv.Itoa(port),
			"--pgctl", f.pgctl, "--hostname", "127.0.0.1", "--listen", "127.0.0.1", "--name", n.name, "--dbname", dbname,
			"--auth", "trust", "--no-ssl", "--monitor", f.monitorURL("autoctl_node", "pg_auto_failover"))
		if err != nil {
			return err
		}
		for k, v := range keeperSettings {
			if err := f.runOnce(ctx, n.name+".log", "config", "set", "--pgdata", n.pgdata, k, v); err != nil {
				return err
			}
		}
		if err := f.run(n); err != nil {
			return err
		}
		f.nodes = append(f.nodes, n)
		if i == 0 {
			// The standby copies the primary, so the primary must be up first.
			if err := f.await(ctx, map[string]string{n.name: "single"}); err != nil {
				return err
			}
		}
	}
	return f.await(ctx, map[string]string{"node1": "primary", "node2": "secondary"})
}

func (f *formation) monitorURL(user, db string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", user, f.monitor.port, db)
}

// tuneMonitor shortens the monitor's timeouts (monitorSettings), waiting for it to accept
// connections first.
func (f *formation) tuneMonitor(ctx context.Context) error {
	db, err := sql.Open("postgres", f.monitorURL("postgres", "pg_auto_failover"))
	if err != nil {
		return err
	}
	defer db.Close()
	for {
		if err = db.PingContext(ctx); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the monitor did not start: %w\n%s", err, tail(filepath.Join(f.dir, "monitor.log"), 15))
		case <-time.After(100 * time.Millisecond):
		}
	}
	for k, v := range monitorSettings {
		if _, err := db.ExecContext(ctx, fmt.Sprintf("ALTER SYSTEM SET %s = '%s'", k, v)); err != nil {
			return fmt.Errorf("monitor setting %s: %w", k, err)
		}
	}
	_, err = db.ExecContext(ctx, "SELECT pg_reload_conf()")
	return err
}

// nodeState is a node as the monitor sees it.
type nodeState struct {
	name, reported, goal string
	port                 int
}

// states asks the monitor for every node's state.
func (f *formation) states(ctx context.Context) ([]nodeState, error) {
	db, err := sql.Open("postgres", f.monitorURL("postgres", "pg_auto_failover"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT nodename, nodeport, reportedstate::text, goalstate::text
		FROM pgautofailover.node ORDER BY nodeid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []nodeState
	for rows.Next() {
		var s nodeState
		if err := rows.Scan(&s.name, &s.port, &s.reported, &s.goal); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// await waits until each named node reports the state wanted and has it as its goal.
func (f *formation) await(ctx context.Context, want map[string]string) error {
	var last []nodeState
	for {
		states, err := f.states(ctx)
		if err == nil {
			last = states
			ok := 0
			for _, s := range states {
				if w, named := want[s.name]; named && s.reported == w && s.goal == w {
					ok++
				}
			}
			if ok == len(want) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("pg_auto_failover: nodes not %v in time; the monitor says %v", want, last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// dsn is what leadchat is given: every node, in lib/pq's key=value form, and only a node that
// takes writes will do.
func (f *formation) dsn() string {
	hosts, ports := make([]string, len(f.nodes)), make([]string, len(f.nodes))
	for i, n := range f.nodes {
		hosts[i], ports[i] = "127.0.0.1", strconv.Itoa(n.port)
	}
	return fmt.Sprintf("host=%s port=%s dbname=%s user=postgres sslmode=disable target_session_attrs=read-write connect_timeout=2",
		strings.Join(hosts, ","), strings.Join(ports, ","), dbname)
}

// nodeDSN is one node's own DSN.
func nodeDSN(n *autoctl) string {
	return fmt.Sprintf("host=127.0.0.1 port=%d dbname=%s user=postgres sslmode=disable connect_timeout=2", n.port, dbname)
}

// primary is the node the monitor has as primary (or wait_primary, a primary without standby).
func (f *formation) primary(ctx context.Context) (*autoctl, error) {
	states, err := f.states(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range states {
		if s.reported == "primary" || s.reported == "wait_primary" {
			for _, n := range f.nodes {
				if n.name == s.name {
					return n, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("no primary; the monitor says %v", states)
}

// replication is how the primary commits: its synchronous_standby_names, synchronous_commit
// and each standby's sync_state. A commit waits for a standby to flush its WAL when the names
// are set, synchronous_commit is on (or remote_apply) and a standby is sync or in the quorum.
type replication struct {
	standbyNames, commit string
	standbys             []string // application_name:sync_state
}

func (r replication) synchronous() bool {
	if r.standbyNames == "" || (r.commit != "on" && r.commit != "remote_apply") {
		return false
	}
	for _, s := range r.standbys {
		if strings.HasSuffix(s, ":sync") || strings.HasSuffix(s, ":quorum") {
			return true
		}
	}
	return false
}

func (r replication) String() string {
	return fmt.Sprintf("synchronous_standby_names=%q synchronous_commit=%s standbys=%v", r.standbyNames, r.commit, r.standbys)
}

// replicationOf reads the replication settings of node n.
func replicationOf(ctx context.Context, n *autoctl) (replication, error) {
	db, err := sql.Open("postgres", nodeDSN(n))
	if err != nil {
		return replication{}, err
	}
	defer db.Close()
	var r replication
	var standbys sql.NullString
	err = db.QueryRowContext(ctx, `SELECT current_setting('synchronous_standby_names'), current_setting('synchronous_commit'),
		(SELECT string_agg(application_name || ':' || sync_state, ',') FROM pg_stat_replication)`).
		Scan(&r.standbyNames, &r.commit, &standbys)
	if standbys.Valid {
		r.standbys = strings.Split(standbys.String, ",")
	}
	return r, err
}

// kill ends a node's whole process group with SIGKILL, pg_autoctl and the postmaster together,
// as a machine failure would; its backends end when they find the postmaster gone.
func (f *formation) kill(n *autoctl) {
	syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
	<-n.exited
}

// stop stops every process still running, monitor last, each with SIGTERM (pg_autoctl stops
// its PostgreSQL), then SIGKILL after a while.
func (f *formation) stop() {
	all := append([]*autoctl{}, f.nodes...)
	if f.monitor != nil {
		all = append(all, f.monitor)
	}
	for _, a := range all {
		if a.cmd == nil {
			continue
		}
		select {
		case <-a.exited:
			continue
		default:
		}
		stopGroup(a.cmd.Process.Pid, a.exited, 20*time.Second)
	}
}

// stopGroup sends SIGTERM to the process group of pid and waits for exited, sending SIGKILL
// after grace.
func stopGroup(pid int, exited <-chan struct{}, grace time.Duration) {
	syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(grace):
		syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
	}
}

// freePorts are n distinct loopback ports free now: all are held open until all are found.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer ln.Close()
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// tail is the last n lines of a file, for an error message.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
