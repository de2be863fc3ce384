package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/postgres"
)

// The ceilings run the store's own SQL (postgres.Hot), so they cannot drift from it.

// historyLimit is the history query's LIMIT, as the store passes it.
const historyLimit = chat.HistoryLen + 1

// ceilingCompanies are the ceiling database's companies: ids 1 to 100 written as uuids, so a
// pgbench script can compute a company's id from a number.
const ceilingCompanies = `
INSERT INTO companies (id, name, plan)
SELECT lpad(to_hex(n), 32, '0')::uuid, 'ceiling ' || n, 'enterprise' FROM generate_series(1, 100) n`

// companyExpr is the id of ceiling company :c in a script.
const companyExpr = `lpad(to_hex(:c::int), 32, '0')::uuid`

var param = regexp.MustCompile(`\$(\d+)`)

// bind replaces a statement's $n parameters with the script's expressions, args[0] being $1.
func bind(stmt string, args ...string) string {
	return strings.TrimSpace(param.ReplaceAllStringFunc(stmt, func(p string) string {
		n, _ := strconv.Atoi(p[1:])
		return args[n-1]
	})) + ";\n"
}

// quote is a SQL string literal of type text.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'::text" }

// leadScript is the database ceiling of a lead create: the service's statement with the
// service's values, for a company chosen at random among the first companies ones.
func leadScript(companies int) string {
	return fmt.Sprintf("\\set c random(1, %d)\n", companies) + bind(postgres.Hot().InsertLead,
		companyExpr, "gen_random_uuid()", quote(leadFirstName), "NULL::text", quote(leadEmail),
		quote(leadPhone), quote(leadPhoneE164), quote(leadService), "NULL::jsonb", quote("api"),
		"NULL::jsonb", "NULL::int")
}

// chatScript is the database ceiling of one chat message without contact details, as the
// service runs it: one transaction locking and updating the session, storing the message and
// reading the history, then the reply's insert on its own. Each client keeps one session for
// sessionMessages messages, like the load generator's connections; the pgbench variable n
// (defined as 0 with -D) counts a client's messages and run tells runs apart.
func chatScript(reply string) string {
	sess := `('pg-bench-chat-session-' || :run::text || '-' || :client_id::text || '-' || :sess::text)`
	var b strings.Builder
	fmt.Fprintf(&b, "\\set n :n + 1\n\\set sess :n / %d\n\\set vm :n %% %d + 1\n\\set c :client_id %% 100 + 1\n",
		sessionMessages, sessionMessages)
	b.WriteString("BEGIN;\n")
	b.WriteString(bind(postgres.Hot().LockSession, companyExpr, sess))
	b.WriteString(bind(postgres.Hot().UpdateSession, companyExpr, sess, "NULL::uuid", ":vm::int", "NULL::text", "NULL::text",
		"NULL::text", "NULL::text", "NULL::text", "NULL::jsonb"))
	b.WriteString(bind(postgres.Hot().InsertMessage, companyExpr, sess, "true", quote(chatMessages[0])))
	b.WriteString(bind(postgres.Hot().SelectHistory, companyExpr, sess, strconv.Itoa(historyLimit)))
	b.WriteString("COMMIT;\n")
	b.WriteString(bind(postgres.Hot().InsertMessage, companyExpr, sess, "false", quote(reply)))
	return b.String()
}

// pgbench runs scripts against the ceiling database.
type pgbench struct {
	bin  string
	port int
	db   string
	dir  string // scripts and per-transaction logs go here
	// mode is pgbench's query protocol: prepared (each statement parsed and planned once per
	// connection, the best the database can do), extended or simple (parsed and planned on
	// every execution).
	mode string
}

// findPgbench looks for pgbench on PATH, then beside the newest Debian-style installation.
func findPgbench() (string, error) {
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pgbench")
	slices.SortFunc(dirs, func(a, b string) int { return majorOf(b) - majorOf(a) })
	if len(dirs) == 0 {
		return "", fmt.Errorf("pgbench not found on PATH or in /usr/lib/postgresql/*/bin (apt-get install postgresql)")
	}
	return dirs[0], nil
}

func majorOf(path string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(path))))
	return n
}

// run runs script on conns clients for d (whole seconds) and reads every transaction's latency
// from pgbench's log.
func (p pgbench) run(ctx context.Context, name, script string, conns int, d time.Duration, vars ...string) (Result, error) {
	file := filepath.Join(p.dir, name+".sql")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		return Result{}, err
	}
	prefix := filepath.Join(p.dir, name+"-log")
	args := []string{"-h", "127.0.0.1", "-p", strconv.Itoa(p.port), "-U", "postgres", "-n",
		"-M", p.mode, "-c", strconv.Itoa(conns), "-j", strconv.Itoa(min(conns, runtime.NumCPU())),
		"-T", strconv.Itoa(int(d / time.Second)), "-f", file, "-l", "--log-prefix", prefix}
	for _, v := range vars {
		args = append(args, "-D", v)
	}
	cmd := exec.CommandContext(ctx, p.bin, append(args, p.db)...)
	cmd.Dir = p.dir
	out, runErr := cmd.CombinedOutput()
	r, err := readPgbenchLogs(prefix)
	if err != nil {
		return Result{}, err
	}
	r.Elapsed = d
	if m := regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`).FindSubmatch(out); m != nil {
		// pgbench's own rate leaves out connection set-up, as the load generator does.
		if tps, err := strconv.ParseFloat(string(m[1]), 64); err == nil && tps > 0 {
			r.Elapsed = time.Duration(float64(r.OK) / tps * float64(time.Second))
		}
	}
	if runErr != nil {
		r.Errors = max(r.Errors, 1)
		return r, fmt.Errorf("pgbench %s: %w\n%s", name, runErr, tail(string(out), 20))
	}
	return r, nil
}

// readPgbenchLogs reads and removes the per-transaction logs (one per thread): each line is
// "client transaction time script epoch µs", time in microseconds or "failed".
func readPgbenchLogs(prefix string) (Result, error) {
	files, err := filepath.Glob(prefix + ".*")
	if err != nil {
		return Result{}, err
	}
	var r Result
	var lat []time.Duration
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return Result{}, err
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 3 {
				continue
			}
			us, err := strconv.ParseInt(fields[2], 10, 64)
			if err != nil {
				r.Errors++ // "failed" or "skipped"
				continue
			}
			lat = append(lat, time.Duration(us)*time.Microsecond)
		}
		fh.Close()
		os.Remove(f)
		if err := sc.Err(); err != nil {
			return Result{}, err
		}
	}
	slices.Sort(lat)
	r.OK = len(lat)
	r.P50, r.P99 = percentile(lat, 0.50), percentile(lat, 0.99)
	return r, nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
