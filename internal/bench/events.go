package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/webhook"
)

// The events pair: lead creates for companies with one webhook endpoint each, against the same
// creates for companies with none, the deliveries' rate to a local receiver, and the time from
// a lead's commit to its delivery at a steady 100 leads a second.
const (
	lcLeadNoHook = "leadchat: lead, no webhook"
	lcLeadHook   = "leadchat: lead, 1 webhook"
	pacedRate    = 100 // leads a second in the latency run
)

// hookReceiver is the webhook endpoint of the bench's companies: it answers 204 at once,
// counts the events and, while recording, the time from each lead's creation to its arrival.
type hookReceiver struct {
	srv  *http.Server
	addr string

	mu        sync.Mutex
	accepted  int
	recording bool
	latencies []time.Duration
}

func startHookReceiver() (*hookReceiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := &hookReceiver{addr: ln.Addr().String()}
	h.srv = &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go h.srv.Serve(ln)
	return h, nil
}

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	arrived := time.Now()
	var ev struct {
		Data struct {
			Lead struct {
				CreatedAt time.Time `json:"created_at"`
			} `json:"lead"`
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &ev)
	h.mu.Lock()
	h.accepted++
	if h.recording {
		h.latencies = append(h.latencies, arrived.Sub(ev.Data.Lead.CreatedAt))
	}
	h.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (h *hookReceiver) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.accepted
}

func (h *hookReceiver) record(on bool) []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recording = on
	out := h.latencies
	if on {
		h.latencies = nil
	}
	return out
}

// provisionHooks creates the companies of the webhook step, each with a private key and one
// endpoint, the receiver.
func (b *bench) provisionHooks(ctx context.Context, s *postgres.Store) error {
	for i := range companies {
		c, err := s.CreateCompany(ctx, fmt.Sprintf("bench webhook %d", i+1), plan.Enterprise, plan.Override{})
		if err != nil {
			return err
		}
		k, err := admin.CreateKey(ctx, s, c.ID, auth.Private, nil, true)
		if err != nil {
			return err
		}
		secret, err := webhook.NewSecret()
		if err != nil {
			return err
		}
		if _, err := s.CreateEndpoint(ctx, c.ID, "http://"+b.hooks.addr+"/hook", nil, secret); err != nil {
			return err
		}
		b.hookKeys = append(b.hookKeys, k.Key)
	}
	return nil
}

// deliveryRate is the events a step's deliveries reached the receiver with: from the step's
// start until nothing was pending.
type deliveryRate struct {
	events  int
	elapsed time.Duration
	// deliverer and pg are the CPU time the deliverer and PostgreSQL used during the drain:
	// per event, less sensitive to a busy machine than the rate.
	deliverer, pg time.Duration
	// wal is what PostgreSQL wrote and did in the drain (with the deliverer's start and stop):
	// counts that do not depend on the machine's load.
	wal walCounts
	err string
}

// walCounts are the WAL PostgreSQL wrote (bytes, records) and the rows River's job table and
// the deliveries' tables gained, changed and lost: from pg_stat_wal and pg_stat_user_tables,
// which a backend adds to as it goes and when it exits.
type walCounts struct {
	bytes, records, jobRows, deliveryRows int64
}

const selectWALCounts = `SELECT pg_current_wal_insert_lsn() - '0/0', (SELECT wal_records FROM pg_stat_wal),
    (SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables WHERE relname = 'river_job'),
    (SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables
        WHERE relname IN ('event_deliveries', 'delivery_slots', 'delivery_waits'))`

func (b *bench) walCounts(ctx context.Context) (w walCounts) {
	_ = b.lcDB.QueryRowContext(ctx, selectWALCounts).Scan(&w.bytes, &w.records, &w.jobRows, &w.deliveryRows)
	return w
}

// perEventWAL is c per delivered event, as text.
func (d deliveryRate) perEventWAL() string {
	if d.events == 0 {
		return ""
	}
	n := float64(d.events)
	return fmt.Sprintf("WAL an event: %.0f bytes, %.1f records; rows an event: River jobs %.2f, deliveries' tables %.2f",
		float64(d.wal.bytes)/n, float64(d.wal.records)/n, float64(d.wal.jobRows)/n, float64(d.wal.deliveryRows)/n)
}

// perEvent is a CPU time per delivered event.
func (d deliveryRate) perEvent(t time.Duration) time.Duration {
	if d.events == 0 {
		return 0
	}
	return t / time.Duration(d.events)
}

func (d deliveryRate) perSecond() float64 {
	if d.elapsed <= 0 {
		return 0
	}
	return float64(d.events) / d.elapsed.Seconds()
}

// pending counts the events not yet dispatched and the deliveries not yet settled: a dispatch
// job makes an event's deliveries only once the deliverer runs it.
const selectPending = `SELECT (SELECT count(*) FROM event_outbox)
    + (SELECT count(*) FROM event_deliveries WHERE state = 'pending')`

// drain waits until no delivery is pending, so the next step does not pay for this one's. It
// asks PostgreSQL only once the receiver has heard nothing for a poll: the count reads every
// delivery of the run, and asked every 100 ms while deliveries arrived it took 3-8% of the
// PostgreSQL time the drain charges to them.
func (b *bench) drain(ctx context.Context) error {
	deadline := time.Now().Add(3 * time.Minute)
	heard := -1
	for {
		if now := b.hooks.count(); now != heard {
			heard = now
			time.Sleep(drainPoll)
			continue
		}
		var n int
		if err := b.lcDB.QueryRowContext(ctx, selectPending).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d deliveries still pending after 3 minutes", n)
		}
		time.Sleep(drainPoll)
	}
}

// drainPoll is how long drain waits between looks: at the end of a drain it finds nothing
// pending at most two polls after the last delivery, within the step's clock.
const drainPoll = 50 * time.Millisecond

// The leadchat under test records events and delivers none (LEADCHAT_DELIVERY_WORKERS=0): a
// second leadchat, the deliverer, started after a create step, delivers its backlog, so the
// create step measures what recording events costs the create path, and the drain measures the
// deliveries alone. On one 2-core machine deliveries made during the step would take their CPU
// from the creates; deployed, they run beside them on the instances' spare capacity.

// startDeliverer starts a second leadchat on the same database that only delivers; with
// -cpuprofile it serves pprof on the address returned (else "").
func (b *bench) startDeliverer(ctx context.Context) (*process, string, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, "", err
	}
	env := append(baseEnv(), "DATABASE_URL="+b.cluster.DSN("leadchat"), "LEADCHAT_ADDR="+addr,
		"LEADCHAT_LOG_LEVEL=error", "LEADCHAT_WEBHOOK_ALLOW_PRIVATE=on")
	bin, args, pprofAddr := b.leadchatBin, []string{"serve"}, ""
	if b.opt.profileDir != "" {
		if pprofAddr, err = freeAddr(); err != nil {
			return nil, "", err
		}
		if bin, err = os.Executable(); err != nil {
			return nil, "", err
		}
		args = []string{"-leadchat-pprof", pprofAddr}
	}
	p, err := startProcess(ctx, "the deliverer", bin, args, env, filepath.Join(b.tmp, "deliverer.log"),
		answers("http://"+addr+"/readyz"))
	return p, pprofAddr, err
}

// profileDeliverer saves a CPU profile of the deliverer's first seconds (the step's duration)
// as name in the profile folder, when it serves pprof; wait waits for it.
func (b *bench) profileDeliverer(pprofAddr, name string) (wait func()) {
	if pprofAddr == "" {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		url := "http://" + pprofAddr + "/debug/pprof/profile?seconds=" + strconv.Itoa(int(b.opt.duration/time.Second))
		if err := fetch(url, filepath.Join(b.opt.profileDir, name)); err != nil {
			fmt.Fprintf(b.log, "saving the deliverer's profile: %v\n", err)
		}
	}()
	return func() { <-done }
}

// deliver starts the deliverer, waits until nothing is pending and stops it, returning the
// rate of the deliveries from its start.
func (b *bench) deliver(ctx context.Context, conns int) deliveryRate {
	w0 := b.walCounts(ctx)
	p, pprofAddr, err := b.startDeliverer(ctx)
	if err != nil {
		return deliveryRate{err: err.Error()}
	}
	defer p.stop()
	profiled := b.profileDeliverer(pprofAddr, fmt.Sprintf("deliveries-c%d.cpu.pprof", conns))
	before, began := b.hooks.count(), time.Now()
	cpu0, pg0 := processCPU(p.pid()), treeCPU(b.pgPID)
	var d deliveryRate
	if err := b.drain(ctx); err != nil {
		d.err = err.Error()
	}
	d.events, d.elapsed = b.hooks.count()-before, time.Since(began)
	d.deliverer, d.pg = processCPU(p.pid())-cpu0, treeCPU(b.pgPID)-pg0
	// The deliverer's backends add their last counts as they exit; its profile is taken first.
	profiled()
	p.stop()
	time.Sleep(500 * time.Millisecond)
	w := b.walCounts(ctx)
	d.wal = walCounts{w.bytes - w0.bytes, w.records - w0.records, w.jobRows - w0.jobRows, w.deliveryRows - w0.deliveryRows}
	return d
}

// latency runs the deliverer and creates pacedRate leads a second for the run's duration, for
// one company with a webhook, and returns the time from each lead's commit to its delivery.
func (b *bench) latency(ctx context.Context) ([]time.Duration, error) {
	p, _, err := b.startDeliverer(ctx)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	req := leadRequest(b.leadchatAddr, b.hookKeys[0])
	b.hooks.record(true)
	tick := time.NewTicker(time.Second / pacedRate)
	defer tick.Stop()
	stop := time.After(b.opt.duration)
	var wg sync.WaitGroup
	var failed sync.Map
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-stop:
			break loop
		case <-tick.C:
			wg.Go(func() {
				if resp, err := doRaw(b.leadchatAddr, req); err != nil || resp.status != http.StatusCreated {
					failed.Store(time.Now(), fmt.Sprint(resp.status, err))
				}
			})
		}
	}
	wg.Wait()
	err = b.drain(ctx)
	lat := b.hooks.record(false)
	failed.Range(func(_, v any) bool {
		err = fmt.Errorf("a paced lead create failed: %v", v)
		return false
	})
	slices.Sort(lat)
	return lat, err
}

// openLeadchatDB opens the leadchat database for the drain's count.
func (b *bench) openLeadchatDB() (*sql.DB, error) {
	return sql.Open("postgres", b.cluster.DSN("leadchat"))
}
