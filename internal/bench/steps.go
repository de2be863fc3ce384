package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The steps, in the table's order; each leadchat step names the ceiling it is a ratio of.
const (
	dbLeadSpread = "db ceiling: lead, 100 companies"
	dbLeadHot    = "db ceiling: lead, 1 company"
	dbChat       = "db ceiling: chat message"
	httpCeiling  = "http ceiling: lead body"
	lcLeadSpread = "leadchat: lead, 100 companies"
	lcLeadHot    = "leadchat: lead, 1 company"
	lcConfig     = "leadchat: widget config"
	lcEvent      = "leadchat: widget event"
	lcChat       = "leadchat: chat message"
)

// tableOrder lists the steps in the table's order, each leadchat step with the step its ratio
// columns compare it to: its ceiling, or for lead creates at a million stored leads the same
// creates into an empty database.
var tableOrder = []struct{ step, ceiling string }{
	{dbLeadSpread, ""}, {lcLeadSpread, dbLeadSpread},
	{dbLeadHot, ""}, {lcLeadHot, dbLeadHot},
	{httpCeiling, ""}, {lcConfig, httpCeiling}, {lcEvent, httpCeiling},
	{dbChat, ""}, {lcChat, dbChat},
	{lcLeadNoHook, ""}, {lcLeadHook, lcLeadNoHook},
	{lcLeadEmpty, ""}, {lcLeadMillion, lcLeadEmpty}, {lcListFirst, ""}, {lcListDeep, ""},
	{lcDashboardLeads, ""}, {lcDashboardSearch, ""}, {lcOverview, ""}, {lcLeadPage, ""},
}

// stepsPerPair is how many steps each pair (-only) runs at one concurrency; the streams step
// runs once, at no concurrency of the table.
var stepsPerPair = map[string]int{"spread": 2, "hot": 2, "config": 3, "chat": 2, "events": 2, "read": 8, "streams": 0}

// row is one step at one concurrency.
type row struct {
	step  string
	conns int
	res   Result
	// rss is the server's peak resident set during the step, in bytes; 0 when the server is
	// PostgreSQL alone.
	rss int64
	// serverCPU is the HTTP server's CPU time per successful request; pgCPU is PostgreSQL's
	// (every process of the cluster); 0 when not measured.
	serverCPU, pgCPU time.Duration
	// clientCPU is the load's own CPU time per request: the load generator's, or pgbench's.
	clientCPU time.Duration
	// other is the CPU the rest of the machine used during the step, in cores: the load the
	// bench did not cause.
	other float64
	err   string
}

// runSteps measures every step at every concurrency and returns the report. The steps of one
// concurrency run side by side, each ceiling just before its leadchat step, so a pair sees
// the same machine and the same table sizes.
func (b *bench) runSteps(ctx context.Context) (string, error) {
	rows := map[string]*row{}
	total, done := 0, 0
	for pair, n := range stepsPerPair {
		if b.measures(pair) {
			total += n * len(b.opt.conns)
		}
	}
	add := func(r row) {
		done++
		rows[key(r.step, r.conns)] = &r
		line := fmt.Sprintf("[%2d/%d] %-32s c=%-3d %8.0f req/s  p50 %-8s p99 %-8s errors %d",
			done, total, r.step, r.conns, r.res.RPS(), fmtDur(r.res.P50), fmtDur(r.res.P99), r.res.Errors)
		if r.err != "" {
			line += "  (" + firstLine(r.err) + ")"
		}
		fmt.Fprintln(b.log, line)
	}
	loadavgStart := loadavg()
	h := b.leadchatAddr
	var leadSpread, configs, events [][]byte
	for i := range companies {
		leadSpread = append(leadSpread, leadRequest(h, b.privateKeys[i]))
		configs = append(configs, configRequest(h, b.publicKeys[i]))
		events = append(events, eventRequest(h, b.publicKeys[i]))
	}
	leadHot := [][]byte{leadSpread[0]}
	var leadHooks [][]byte
	for _, k := range b.hookKeys {
		leadHooks = append(leadHooks, leadRequest(h, k))
	}
	b.hookRates = map[int]deliveryRate{}
	ceilingLead := [][]byte{leadRequest(b.ceilingAddr, b.privateKeys[0])}
	for _, c := range b.opt.conns {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if b.measures("spread") {
			add(b.dbStep(ctx, dbLeadSpread, c, leadScript(companies)))
			add(b.httpStep(ctx, lcLeadSpread, c, b.leadchat, b.leadchatAddr, roundRobin(leadSpread)))
		}
		if b.measures("hot") {
			add(b.dbStep(ctx, dbLeadHot, c, leadScript(1)))
			add(b.httpStep(ctx, lcLeadHot, c, b.leadchat, b.leadchatAddr, roundRobin(leadHot)))
		}
		if b.measures("config") {
			add(b.httpStep(ctx, httpCeiling, c, b.ceiling, b.ceilingAddr, roundRobin(ceilingLead)))
			add(b.httpStep(ctx, lcConfig, c, b.leadchat, b.leadchatAddr, roundRobin(configs)))
			add(b.httpStep(ctx, lcEvent, c, b.leadchat, b.leadchatAddr, roundRobin(events)))
		}
		if b.measures("chat") {
			add(b.dbStep(ctx, dbChat, c, chatScript(b.reply), "n=0", "run="+strconv.Itoa(b.nextRun())))
			add(b.httpStep(ctx, lcChat, c, b.leadchat, b.leadchatAddr, b.chat(c)))
		}
		if b.measures("events") {
			without, with := b.alternate(ctx, c, side{lcLeadNoHook, b.leadchat, b.leadchatAddr, roundRobin(leadSpread)},
				side{lcLeadHook, b.leadchat, b.leadchatAddr, roundRobin(leadHooks)})
			add(without)
			add(with)
			d := b.deliver(ctx, c)
			b.hookRates[c] = d
			fmt.Fprintf(b.log, "        deliveries of that step: %d events in %v, %.0f events/s, CPU an event: deliverer %v, PostgreSQL %v; %s %s\n",
				d.events, d.elapsed.Round(time.Millisecond), d.perSecond(), d.perEvent(d.deliverer), d.perEvent(d.pg), d.perEventWAL(), d.err)
		}
	}
	if b.measures("events") && ctx.Err() == nil {
		lat, err := b.latency(ctx)
		b.latencies = lat
		if err != nil {
			b.latErr = err.Error()
		}
		fmt.Fprintf(b.log, "        commit to delivery at %d leads/s: %d events, p50 %s p99 %s %s\n", pacedRate, len(lat),
			fmtDur(percentile(lat, 0.50)), fmtDur(percentile(lat, 0.99)), b.latErr)
	}
	if b.measures("streams") && ctx.Err() == nil {
		b.streamFigures = b.streams(ctx)
	}
	// The read pair empties the lead tables and then stores a million leads: it runs last, so
	// that the other pairs' tables stay as small as their ceilings'.
	if b.measures("read") {
		if err := b.readSteps(ctx, add, leadSpread); err != nil {
			return "", err
		}
	}
	return b.report(rows, loadavgStart, loadavg()), nil
}

// measures says whether the pair of steps is measured in this run (-only).
func (b *bench) measures(pair string) bool { return len(b.opt.only) == 0 || b.opt.only[pair] }

func key(step string, conns int) string { return step + "|" + strconv.Itoa(conns) }

func (b *bench) nextRun() int { b.runs++; return b.runs }

// chat is the chat step's requests: each connection talks to one company as one visitor,
// starting a new session every sessionMessages messages, and in each run (warm-up, measured)
// with sessions of its own.
func (b *bench) chat(conns int) func(conn, seq int) []byte {
	run := b.nextRun()
	starts := make([]int, conns) // runs each connection began; only its own goroutine writes
	return func(conn, seq int) []byte {
		if seq == 0 {
			starts[conn]++
		}
		session := fmt.Sprintf("leadchat-bench-session-%d.%d-%d-%d", run, starts[conn], conn, seq/sessionMessages)
		return chatRequest(b.leadchatAddr, b.publicKeys[conn%companies], session, fmt.Sprintf("m%d", seq),
			chatMessages[seq%len(chatMessages)])
	}
}

// sample is the CPU clocks a step reads before and after; a difference of two (minus) is the
// CPU spent, with wall the time between them.
type sample struct {
	at                               time.Time
	wall                             time.Duration
	busy, self, leadchat, ceil, twin time.Duration
	pg                               time.Duration
}

func (b *bench) sample() sample {
	s := sample{at: time.Now(), busy: machineBusy(), self: selfCPU(), leadchat: processCPU(b.leadchat.pid()),
		ceil: processCPU(b.ceiling.pid()), pg: treeCPU(b.pgPID)}
	if b.twin != nil {
		s.twin = processCPU(b.twin.pid())
	}
	return s
}

// minus is what was spent between an earlier sample and s.
func (s sample) minus(earlier sample) sample {
	return sample{wall: s.at.Sub(earlier.at), busy: s.busy - earlier.busy, self: s.self - earlier.self,
		leadchat: s.leadchat - earlier.leadchat, ceil: s.ceil - earlier.ceil, twin: s.twin - earlier.twin, pg: s.pg - earlier.pg}
}

// plus adds up what two spans spent.
func (s sample) plus(o sample) sample {
	return sample{wall: s.wall + o.wall, busy: s.busy + o.busy, self: s.self + o.self, leadchat: s.leadchat + o.leadchat,
		ceil: s.ceil + o.ceil, twin: s.twin + o.twin, pg: s.pg + o.pg}
}

// account fills a row's CPU figures from the samples around its measured part.
func (b *bench) account(r *row, before, after sample, server *process) {
	b.accountSpent(r, after.minus(before), server)
}

// accountSpent fills a row's CPU figures from what its measured part spent.
func (b *bench) accountSpent(r *row, spent sample, server *process) {
	n := time.Duration(max(r.res.OK, 1))
	r.pgCPU = spent.pg / n
	r.clientCPU = spent.self / n
	switch server {
	case b.leadchat:
		r.serverCPU = spent.leadchat / n
	case b.ceiling:
		r.serverCPU = spent.ceil / n
	case b.twin:
		r.serverCPU = spent.twin / n
	}
	ours := spent.self + spent.leadchat + spent.ceil + spent.twin + spent.pg
	r.other = max(0, (spent.busy-ours).Seconds()/spent.wall.Seconds())
}

// side is one of two steps measured in alternation: a name, its server and its requests.
type side struct {
	step   string
	server *process
	addr   string
	next   func(conn, seq int) []byte
}

// roundLength is how long each side of an alternation runs at a time.
const roundLength = time.Second

// alternate measures two steps whose ratio is a target, in alternating rounds of roundLength
// (each after its own warm-up) until each has run the step duration. Two steps run one after
// the other saw the machine's speed drift between them: on this 2-core VM, two back-to-back
// 10-second lead steps of the same kind differed by up to 20%, enough to fail or pass a
// 90% target by chance. Rounds a second apart see the same machine.
func (b *bench) alternate(ctx context.Context, conns int, x, y side) (row, row) {
	sides := []side{x, y}
	rows := []row{{step: x.step, conns: conns}, {step: y.step, conns: conns}}
	b.checkpoint(ctx)
	loads := make([]Load, 2)
	for i, s := range sides {
		if err := resetPeakRSS(s.server.pid()); err != nil {
			rows[i].err = "resetting peak RSS: " + err.Error()
		}
		loads[i] = Load{Addr: s.addr, Conns: conns, Next: s.next}
		loads[i].Run(ctx, b.opt.warmup)
	}
	rounds := max(1, int(b.opt.duration/roundLength))
	runs := make([][]measured, 2)
	spent := make([]sample, 2)
	for r := 0; r < rounds && ctx.Err() == nil; r++ {
		for i := range sides {
			before := b.sample()
			runs[i] = append(runs[i], loads[i].measure(ctx, b.opt.duration/time.Duration(rounds)))
			spent[i] = spent[i].plus(b.sample().minus(before))
		}
	}
	for i, s := range sides {
		rows[i].res = resultOf(runs[i]...)
		rows[i].rss = peakRSS(s.server.pid())
		b.accountSpent(&rows[i], spent[i], s.server)
	}
	return rows[0], rows[1]
}

// checkpoint flushes the previous step's writes, so no step pays for another's checkpoint.
func (b *bench) checkpoint(ctx context.Context) {
	if _, err := b.admin.DB().ExecContext(ctx, "CHECKPOINT"); err != nil {
		fmt.Fprintln(b.log, "CHECKPOINT:", err)
	}
}

// dbStep runs a pgbench script against the ceiling database.
func (b *bench) dbStep(ctx context.Context, step string, conns int, script string, vars ...string) row {
	r := row{step: step, conns: conns}
	b.checkpoint(ctx)
	base := childCount(b.pgPID)
	before := b.sample()
	res, err := b.pgbench.run(ctx, fileName(step, conns), script, conns, b.opt.duration, vars...)
	// pgbench's backends count once the postmaster has reaped them.
	for deadline := time.Now().Add(3 * time.Second); childCount(b.pgPID) > base && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	after := b.sample()
	r.res = res
	if err != nil {
		r.err = err.Error()
	}
	b.account(&r, before, after, nil)
	return r
}

// httpStep warms the server up with the load, then measures it.
func (b *bench) httpStep(ctx context.Context, step string, conns int, server *process, addr string, next func(conn, seq int) []byte) row {
	r := row{step: step, conns: conns}
	b.checkpoint(ctx)
	if err := resetPeakRSS(server.pid()); err != nil {
		r.err = "resetting peak RSS: " + err.Error()
	}
	load := Load{Addr: addr, Conns: conns, Next: next}
	load.Run(ctx, b.opt.warmup)
	var profiles sync.WaitGroup
	if server == b.leadchat && b.pprofAddr != "" {
		secs := strconv.Itoa(int(b.opt.duration / time.Second))
		for kind, url := range map[string]string{
			"cpu":    "http://" + b.pprofAddr + "/debug/pprof/profile?seconds=" + secs,
			"allocs": "http://" + b.pprofAddr + "/debug/pprof/allocs?seconds=" + secs,
		} {
			profiles.Add(1)
			go func() {
				defer profiles.Done()
				path := filepath.Join(b.opt.profileDir, fileName(step, conns)+"."+kind+".pprof")
				if err := fetch(url, path); err != nil {
					fmt.Fprintf(b.log, "saving the %s profile: %v\n", kind, err)
				}
			}()
		}
	}
	before := b.sample()
	r.res = load.Run(ctx, b.opt.duration)
	after := b.sample()
	profiles.Wait()
	r.rss = peakRSS(server.pid())
	b.account(&r, before, after, server)
	return r
}

// fetch saves what GET url answers to path.
func fetch(url, path string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fileName names a step's files: "leadchat-lead-100-companies-c16".
func fileName(step string, conns int) string {
	f := strings.FieldsFunc(strings.ToLower(step), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	return strings.Join(f, "-") + "-c" + strconv.Itoa(conns)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// loadavg is /proc/loadavg's 1, 5 and 15 minute averages.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
