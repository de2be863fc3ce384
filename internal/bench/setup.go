package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/pgembed"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
)

// companies is how many companies the spread steps use, each with one key of each kind.
const companies = 100

// bench is one run's machinery: the database, the servers and what the steps share.
type bench struct {
	opt     options
	root    string
	log     io.Writer
	tmp     string
	started time.Time
	machine machine

	cluster *pgembed.Cluster
	pgPID   int             // the postmaster
	admin   *postgres.Store // the postgres database: CHECKPOINT and descriptions
	pgbench pgbench

	leadchat     *process
	leadchatBin  string
	leadchatAddr string
	pprofAddr    string // "" unless profiling
	ceiling      *process
	ceilingAddr  string
	// twin is a second leadchat, on twinDB (a copy of the provisioned leadchat database), that
	// the read pair's empty-database side runs against while it is measured; nil otherwise.
	twin     *process
	twinAddr string

	privateKeys, publicKeys []string
	// bigCompany is the company the read steps fill with leads and list; bigKey is its private key.
	bigCompany uuid.UUID
	bigKey     string
	// ownerID is the big company's owner; dashboardCookie is their dashboard session, as a
	// Cookie header's value.
	ownerID         uuid.UUID
	dashboardCookie string
	// pageLead is the big company's lead that the lead page step opens (leadpage.go).
	pageLead uuid.UUID
	reply    string // the built-in assistant's answer to chatMessages[0]
	runs     int    // numbers each load run, for unique chat sessions

	// The events pair (events.go): the webhook receiver, the keys of the companies with an
	// endpoint, the leadchat database for counting pending deliveries, and the figures.
	hooks     *hookReceiver
	hookKeys  []string
	lcDB      *sql.DB
	hookRates map[int]deliveryRate
	latencies []time.Duration
	latErr    string

	// The streams step's figures (streams.go); nil when it did not run.
	streamFigures *streamFigures

	// The read pair's CSV export of the big company (dashboard.go).
	export *csvExport
}

// setUp starts PostgreSQL, creates and provisions the leadchat and ceiling databases, builds
// leadchat and starts it and the HTTP ceiling.
func setUp(ctx context.Context, root string, opt options, log io.Writer) (_ *bench, err error) {
	b := &bench{opt: opt, root: root, log: log, started: time.Now()}
	defer func() {
		if err != nil {
			b.tearDown()
		}
	}()
	if b.pgbench.bin, err = findPgbench(); err != nil {
		return nil, err
	}
	// The server runs as the postgres user when this is root: the folder must be enterable.
	if b.tmp, err = os.MkdirTemp("", "leadchat-bench-"); err != nil {
		return nil, err
	}
	if err := os.Chmod(b.tmp, 0o755); err != nil {
		return nil, err
	}
	b.pgbench.dir = filepath.Join(b.tmp, "pgbench")
	if err := os.Mkdir(b.pgbench.dir, 0o755); err != nil {
		return nil, err
	}

	fmt.Fprintln(log, "building cmd/leadchat ...")
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("the bench builds cmd/leadchat and needs go on PATH: %w", err)
	}
	bin := filepath.Join(b.tmp, "leadchat")
	b.leadchatBin = bin
	build := exec.CommandContext(ctx, goBin, "build", "-o", bin, "./cmd/leadchat")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./cmd/leadchat: %w\n%s", err, out)
	}

	b.cluster, err = pgembed.Start(ctx, pgembed.Options{DataDir: filepath.Join(b.tmp, "pg"), Durable: true, Log: log})
	if err != nil {
		return nil, err
	}
	if b.pgPID, err = postmasterPID(filepath.Join(b.tmp, "pg")); err != nil {
		return nil, err
	}
	b.pgbench.port, b.pgbench.db, b.pgbench.mode = b.cluster.Port(), "ceiling", opt.pgbenchMode
	if b.admin, err = postgres.Open(ctx, b.cluster.DSN("postgres"), postgres.Options{MaxOpenConns: 2}); err != nil {
		return nil, err
	}
	for _, db := range []string{"leadchat", "ceiling"} {
		if _, err := b.admin.DB().ExecContext(ctx, "CREATE DATABASE "+db); err != nil {
			return nil, fmt.Errorf("creating database %s: %w", db, err)
		}
	}
	if err := b.provisionCeiling(ctx); err != nil {
		return nil, err
	}
	if b.hooks, err = startHookReceiver(); err != nil {
		return nil, err
	}
	if err := b.provisionLeadchat(ctx); err != nil {
		return nil, err
	}
	if len(opt.only) == 0 || opt.only["read"] {
		if err := b.copyDatabase(ctx, "leadchat", twinDB); err != nil {
			return nil, err
		}
	}
	if b.lcDB, err = b.openLeadchatDB(); err != nil {
		return nil, err
	}
	if b.machine, err = describe(ctx, root, b.admin); err != nil {
		return nil, err
	}

	if b.ceilingAddr, err = freeAddr(); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	b.ceiling, err = startProcess(ctx, "the HTTP ceiling", self, []string{"-http-ceiling", b.ceilingAddr},
		baseEnv(), filepath.Join(b.tmp, "ceiling.log"), listens(b.ceilingAddr))
	if err != nil {
		return nil, err
	}

	if b.leadchatAddr, err = freeAddr(); err != nil {
		return nil, err
	}
	env := b.leadchatEnv("leadchat", b.leadchatAddr)
	args := []string{"serve"}
	if opt.profileDir != "" {
		if b.pprofAddr, err = freeAddr(); err != nil {
			return nil, err
		}
		bin, args = self, []string{"-leadchat-pprof", b.pprofAddr}
	}
	fmt.Fprintln(log, "starting leadchat ...")
	b.leadchat, err = startProcess(ctx, "leadchat", bin, args, env, filepath.Join(b.tmp, "leadchat.log"),
		answers("http://"+b.leadchatAddr+"/readyz"))
	if err != nil {
		return nil, err
	}
	if err := b.probe(); err != nil {
		return nil, err
	}
	return b, nil
}

// baseEnv is the environment the servers get: none of the caller's LEADCHAT_* settings (an AI
// model, rate limits) may leak into a measurement.
func baseEnv() []string {
	var env []string
	for _, name := range []string{"PATH", "HOME", "TMPDIR"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return env
}

// leadchatEnv is the environment of a leadchat under test on database db, serving on addr: no
// rate limits, no deliveries (the events pair starts a deliverer of its own), -leadchat-env.
func (b *bench) leadchatEnv(db, addr string) []string {
	env := append(baseEnv(), "DATABASE_URL="+b.cluster.DSN(db), "LEADCHAT_ADDR="+addr,
		"LEADCHAT_RATE_LIMIT=off", "LEADCHAT_LOG_LEVEL=error", "LEADCHAT_DELIVERY_WORKERS=0")
	return append(env, b.opt.leadchatEnv...)
}

// startServe starts another `leadchat serve` on a free address, with the environment env gives
// for that address, logging to logName in the run's folder, and returns once it is ready.
func (b *bench) startServe(ctx context.Context, name, logName string, env func(addr string) []string) (*process, string, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, "", err
	}
	p, err := startProcess(ctx, name, b.leadchatBin, []string{"serve"}, env(addr), filepath.Join(b.tmp, logName),
		answers("http://"+addr+"/readyz"))
	return p, addr, err
}

// twinDB is the read pair's copy of the provisioned leadchat database.
const twinDB = "leadchat_empty"

// copyDatabase makes database to a copy of from (PostgreSQL's template copy), which nothing may
// be connected to: a connection just closed may take a moment to end on the server's side.
func (b *bench) copyDatabase(ctx context.Context, from, to string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := b.admin.DB().ExecContext(ctx, "CREATE DATABASE "+to+" TEMPLATE "+from)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("copying database %s to %s: %w", from, to, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tearDown stops what setUp started, newest first, and removes the run's folder.
func (b *bench) tearDown() {
	for _, p := range []*process{b.twin, b.leadchat, b.ceiling} {
		if p != nil {
			p.stop()
		}
	}
	if b.hooks != nil {
		b.hooks.srv.Close()
	}
	if b.lcDB != nil {
		b.lcDB.Close()
	}
	if b.admin != nil {
		b.admin.Close()
	}
	if b.cluster != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := b.cluster.Stop(ctx); err != nil {
			fmt.Fprintln(b.log, "stopping PostgreSQL:", err)
		}
		cancel()
	}
	if b.tmp != "" {
		os.RemoveAll(b.tmp)
	}
}

// postmasterPID reads the server's process id from its data folder.
func postmasterPID(dataDir string) (int, error) {
	raw, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(raw), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}

// migrated opens a database of the cluster and brings its schema up to date.
func (b *bench) migrated(ctx context.Context, db string) (*postgres.Store, error) {
	s, err := postgres.Open(ctx, b.cluster.DSN(db), postgres.Options{MaxOpenConns: 4})
	if err != nil {
		return nil, err
	}
	if err := postgres.Migrate(ctx, s.DB(), io.Discard); err != nil {
		s.Close()
		return nil, fmt.Errorf("migrating %s: %w", db, err)
	}
	return s, nil
}

// provisionCeiling gives the ceiling database leadchat's schema and the companies the pgbench
// scripts address by number.
func (b *bench) provisionCeiling(ctx context.Context) error {
	s, err := b.migrated(ctx, "ceiling")
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = s.DB().ExecContext(ctx, ceilingCompanies)
	return err
}

// provisionLeadchat creates the leadchat database's companies, on the enterprise plan so no
// limit counts, with a private and a public key each, and the read steps' company with a
// private key.
func (b *bench) provisionLeadchat(ctx context.Context) error {
	s, err := b.migrated(ctx, "leadchat")
	if err != nil {
		return err
	}
	defer s.Close()
	for i := range companies {
		c, err := s.CreateCompany(ctx, fmt.Sprintf("bench %d", i+1), plan.Enterprise, plan.Override{})
		if err != nil {
			return err
		}
		priv, err := admin.CreateKey(ctx, s, c.ID, auth.Private, nil, true)
		if err != nil {
			return err
		}
		pub, err := admin.CreateKey(ctx, s, c.ID, auth.Public, nil, true)
		if err != nil {
			return err
		}
		b.privateKeys, b.publicKeys = append(b.privateKeys, priv.Key), append(b.publicKeys, pub.Key)
	}
	big, err := s.CreateCompany(ctx, "bench big", plan.Enterprise, plan.Override{})
	if err != nil {
		return err
	}
	key, err := admin.CreateKey(ctx, s, big.ID, auth.Private, nil, true)
	if err != nil {
		return err
	}
	b.bigCompany, b.bigKey = big.ID, key.Key
	if err := b.createDashboardOwner(ctx, s); err != nil {
		return err
	}
	return b.provisionHooks(ctx, s)
}

// probe sends one request of each kind before anything is measured: a bench that measures
// errors is worth nothing. It also learns the assistant's reply for the chat ceiling.
func (b *bench) probe() error {
	host := b.leadchatAddr
	check := func(what string, req []byte, want int) ([]byte, error) {
		resp, err := doRaw(host, req)
		if err != nil {
			return nil, fmt.Errorf("probing %s: %w", what, err)
		}
		if resp.status != want {
			return nil, fmt.Errorf("probing %s: status %d, want %d: %s", what, resp.status, want, resp.body)
		}
		return resp.body, nil
	}
	if _, err := check("POST /api/v1/leads", leadRequest(host, b.privateKeys[0]), http.StatusCreated); err != nil {
		return err
	}
	if _, err := check("GET /api/embed/config", configRequest(host, b.publicKeys[0]), http.StatusOK); err != nil {
		return err
	}
	if _, err := check("GET /api/v1/leads", listRequest(host, b.bigKey, "limit=50"), http.StatusOK); err != nil {
		return err
	}
	cookie, err := b.dashboardLogin(context.Background())
	if err != nil {
		return fmt.Errorf("probing the dashboard: %w", err)
	}
	b.dashboardCookie = cookie
	if _, err := check("GET /app/leads", dashboardRequest(host, cookie), http.StatusOK); err != nil {
		return err
	}
	if _, err := check("GET /app/", overviewRequest(host, cookie), http.StatusOK); err != nil {
		return err
	}
	body, err := check("POST /api/embed/chat", chatRequest(host, b.publicKeys[0], "leadchat-bench-probe-session", "m0", chatMessages[0]), http.StatusOK)
	if err != nil {
		return err
	}
	var reply struct {
		Reply  string  `json:"reply"`
		LeadID *string `json:"lead_id"`
	}
	if err := json.Unmarshal(body, &reply); err != nil {
		return fmt.Errorf("probing POST /api/embed/chat: %w", err)
	}
	if reply.LeadID != nil {
		return fmt.Errorf("probing POST /api/embed/chat: the bench's message made a lead, so the chat ceiling would not match")
	}
	b.reply = reply.Reply
	return nil
}
