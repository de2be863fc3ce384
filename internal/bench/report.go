package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/leadchat/leadchat/internal/bench/leadpage"
	"github.com/leadchat/leadchat/internal/postgres"
)

// machine describes where a run ran, so runs can be compared.
type machine struct {
	cpu, kernel, ram, goVersion, pgVersion, pgSettings, commit string
	cores                                                      int
}

func describe(ctx context.Context, root string, admin *postgres.Store) (machine, error) {
	m := machine{cpu: "?", ram: "?", cores: runtime.NumCPU(), goVersion: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				m.ram = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.kernel = "Linux " + strings.TrimSpace(string(b))
	}
	db := admin.DB()
	if err := db.QueryRowContext(ctx, "SELECT version()").Scan(&m.pgVersion); err != nil {
		return m, fmt.Errorf("reading the PostgreSQL version: %w", err)
	}
	var settings []string
	for _, name := range []string{"fsync", "synchronous_commit", "full_page_writes", "shared_buffers", "max_wal_size"} {
		var v string
		if err := db.QueryRowContext(ctx, "SELECT current_setting($1)", name).Scan(&v); err != nil {
			return m, err
		}
		settings = append(settings, name+"="+v)
	}
	m.pgSettings = strings.Join(settings, " ")
	m.commit = "?"
	if out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--short", "HEAD").Output(); err == nil {
		m.commit = strings.TrimSpace(string(out))
		if st, err := exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
			m.commit += " with uncommitted changes"
		}
	}
	return m, nil
}

// report is the run's text: the machine, the table and the speed targets.
func (b *bench) report(rows map[string]*row, loadStart, loadEnd string) string {
	var s strings.Builder
	mode := fmt.Sprintf("%s a step after a %s warm-up", b.opt.duration, b.opt.warmup)
	if b.opt.smoke {
		mode = "SMOKE: " + mode + " (figures not meaningful; the read steps' company holds " + b.bigLeadsText() + " leads)"
	}
	if b.opt.profileDir != "" {
		mode += "; PROFILED server (figures not for comparison)"
	}
	m := b.machine
	fmt.Fprintf(&s, "leadchat bench, %s, %s\n\n", b.started.UTC().Format(time.RFC3339), mode)
	fmt.Fprintf(&s, "machine:    %s, %d cores, %s RAM, %s\n", m.cpu, m.cores, m.ram, m.kernel)
	fmt.Fprintf(&s, "software:   %s; %s\n", m.goVersion, m.pgVersion)
	fmt.Fprintf(&s, "postgres:   %s (own cluster; ceilings by pgbench -M %s)\n", m.pgSettings, b.opt.pgbenchMode)
	fmt.Fprintf(&s, "commit:     %s\n", m.commit)
	if len(b.opt.leadchatEnv) > 0 {
		fmt.Fprintf(&s, "leadchat:   %s\n", strings.Join(b.opt.leadchatEnv, " "))
	}
	fmt.Fprintf(&s, "load avg:   %s at start, %s at end (other CPU below: cores busy with processes not of this run)\n\n", loadStart, loadEnd)

	tw := tabwriter.NewWriter(&s, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "step\tconns\treq/s\tp50\tp99\terrors\tpeak RSS\tserver CPU/req\tpg CPU/req\tclient CPU/req\tother CPU\t÷ceiling req/s\t÷ceiling p99\t")
	for _, o := range tableOrder {
		for _, c := range b.opt.conns {
			r := rows[key(o.step, c)]
			if r == nil {
				continue
			}
			rss, server, tput, p99 := "–", "–", "", ""
			if r.rss > 0 {
				rss = fmt.Sprintf("%.1f MiB", float64(r.rss)/(1<<20))
			}
			if r.serverCPU > 0 {
				server = fmtMicros(r.serverCPU)
			}
			if ceil := rows[key(o.ceiling, c)]; o.ceiling != "" && ceil != nil {
				tput, p99 = ratio(r.res.RPS(), ceil.res.RPS()), ratio(r.res.P99.Seconds(), ceil.res.P99.Seconds())
			}
			fmt.Fprintf(tw, "%s\t%d\t%.0f\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t\n", leftPad(o.step), c, r.res.RPS(),
				fmtDur(r.res.P50), fmtDur(r.res.P99), r.res.Errors, rss, server, fmtMicros(r.pgCPU), fmtMicros(r.clientCPU), r.other, tput, p99)
		}
	}
	tw.Flush()

	s.WriteString("\ntargets (ratios at 16 connections where no other number is named):\n")
	for _, t := range b.targets(rows) {
		fmt.Fprintf(&s, "  %-7s %s\n", t.verdict, t.text)
	}
	var notes []string
	for _, o := range tableOrder {
		for _, c := range b.opt.conns {
			if r := rows[key(o.step, c)]; r != nil && r.err != "" {
				notes = append(notes, fmt.Sprintf("%s at %d: %s", o.step, c, r.err))
			}
		}
	}
	if log, err := os.ReadFile(b.leadchat.logPath()); err == nil && len(log) > 0 {
		lines := strings.Split(strings.TrimSpace(string(log)), "\n")
		notes = append(notes, fmt.Sprintf("leadchat logged %d lines at level error; the last: %s", len(lines), lines[len(lines)-1]))
	}
	if len(notes) > 0 {
		s.WriteString("\nnotes:\n")
		for _, n := range notes {
			fmt.Fprintf(&s, "  %s\n", n)
		}
	}
	return s.String()
}

// bigLeadsText is how many leads the read steps' company holds, written with thousands
// separators for the report.
func (b *bench) bigLeadsText() string {
	digits := strconv.Itoa(b.bigLeads())
	var out []byte
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, digits[i])
	}
	return string(out)
}

// leftPad keeps the step names left-aligned in a right-aligned table.
func leftPad(step string) string { return step + strings.Repeat(" ", 32-len([]rune(step))) }

type target struct{ verdict, text string }

// targets judges the run against the project's speed targets. Nothing fails on them: a bench run
// reports, it does not assert. A comparison whose ceiling did not run cleanly is missed.
func (b *bench) targets(rows map[string]*row) []target {
	var out []target
	judge := func(ok bool, format string, args ...any) {
		v := "missed"
		if ok {
			v = "met"
		}
		out = append(out, target{v, fmt.Sprintf(format, args...)})
	}
	get := func(step string, c int) *row { return rows[key(step, c)] }
	// pair returns a step and its ceiling at 16 connections when both ran, and whether the
	// ceiling gave figures to compare with.
	pair := func(step, ceiling string) (lc, db *row, ok bool) {
		lc, db = get(step, 16), get(ceiling, 16)
		if lc == nil || db == nil {
			return nil, nil, false
		}
		if db.err != "" || db.res.RPS() == 0 || db.res.P99 == 0 {
			judge(false, "%s: its ceiling gave no figures (%s)", step, firstLine(db.err))
			return nil, nil, false
		}
		return lc, db, true
	}
	if lc, db, ok := pair(lcLeadSpread, dbLeadSpread); ok {
		t, p := lc.res.RPS()/db.res.RPS(), lc.res.P99.Seconds()/db.res.P99.Seconds()
		judge(t >= 1.0, "lead create, 100 companies: %.1f%% of the single-lead transaction's ceiling (want ≥ 100%%)%s", 100*t, disturbed(lc, db))
		judge(p <= 3, "lead create, 100 companies: p99 %.1f× the ceiling's (want ≤ 3×)%s", p, disturbed(lc, db))
	}
	if lc, db, ok := pair(lcLeadHot, dbLeadHot); ok {
		t := lc.res.RPS() / db.res.RPS()
		judge(t >= 0.60, "lead create, 1 company: %.1f%% of its database ceiling (want ≥ 60%%)%s", 100*t, disturbed(lc, db))
	}
	// The request path's own cost: leadchat against a bare net/http handler decoding the same
	// lead body, at 16 and at 64 connections.
	for _, c := range []int{16, 64} {
		lc, h := get(lcLeadSpread, c), get(httpCeiling, c)
		if lc == nil || h == nil {
			continue
		}
		if h.err != "" || h.res.RPS() == 0 {
			judge(false, "lead create, 100 companies, %d connections: the HTTP ceiling gave no figures (%s)", c, firstLine(h.err))
			continue
		}
		want := map[int]float64{16: 0.25, 64: 0.35}[c]
		t := lc.res.RPS() / h.res.RPS()
		judge(t >= want, "lead create, 100 companies, %d connections: %.2f of the HTTP ceiling's throughput (want ≥ %.2f)%s",
			c, t, want, disturbed(lc, h))
		if c == 64 && h.serverCPU > 0 {
			k := float64(lc.serverCPU) / float64(h.serverCPU)
			judge(lc.serverCPU > 0 && k <= 2, "lead create, 100 companies, 64 connections: server CPU %s a lead, %.1f× the HTTP ceiling's %s (want ≤ 2×)%s",
				fmtMicros(lc.serverCPU), k, fmtMicros(h.serverCPU), disturbed(lc, h))
		}
	}
	for _, c := range []int{16, 64} {
		lc, h := get(lcConfig, c), get(httpCeiling, c)
		if lc == nil || h == nil {
			continue
		}
		if h.err != "" || h.res.RPS() == 0 {
			judge(false, "widget config, %d connections: the HTTP ceiling gave no figures (%s)", c, firstLine(h.err))
			continue
		}
		t := lc.res.RPS() / h.res.RPS()
		judge(t >= 0.80, "widget config, %d connections: %.2f of the HTTP ceiling's throughput (want ≥ 0.80)%s", c, t, disturbed(lc, h))
	}
	if lc, h, ok := pair(lcEvent, httpCeiling); ok {
		t := lc.res.RPS() / h.res.RPS()
		judge(t >= 0.50, "widget event: %.1f%% of the HTTP ceiling (want ≥ 50%%)%s", 100*t, disturbed(lc, h))
	}
	if lc, db, ok := pair(lcChat, dbChat); ok {
		t := lc.res.RPS() / db.res.RPS()
		judge(t >= 0.80, "chat message: %.1f%% of its database ceiling, the turn's own read and write (want ≥ 80%%)%s", 100*t, disturbed(lc, db))
	}
	if lc, empty, ok := pair(lcLeadMillion, lcLeadEmpty); ok {
		t := lc.res.RPS() / empty.res.RPS()
		judge(t >= 0.90, "lead create at %s stored leads: %.1f%% of an empty database's throughput, in alternating 1 s rounds (want ≥ 90%%)%s",
			b.bigLeadsText(), 100*t, disturbed(lc, empty))
	}
	for _, page := range []struct{ step, name string }{{lcListFirst, "first"}, {lcListDeep, "deep"}} {
		if r := get(page.step, 16); r != nil {
			judge(r.err == "" && r.res.OK > 0 && r.res.Errors == 0 && r.res.P99 <= 20*time.Millisecond,
				"lead list, the %s page of a company's %s leads: p99 %s at 16 connections, %d errors (want ≤ 20ms, none)%s",
				page.name, b.bigLeadsText(), fmtDur(r.res.P99), r.res.Errors, disturbed(r))
		}
	}
	if lc, none, ok := pair(lcLeadHook, lcLeadNoHook); ok {
		t := lc.res.RPS() / none.res.RPS()
		judge(t >= 0.95, "lead create with one webhook endpoint: %.1f%% of without, in alternating 1 s rounds, deliveries after the step (want ≥ 95%%)%s", 100*t, disturbed(lc, none))
	}
	if len(b.hookRates) > 0 {
		best := deliveryRate{}
		for _, d := range b.hookRates {
			if d.err == "" && d.perSecond() > best.perSecond() {
				best = d
			}
		}
		judge(best.perSecond() >= 1000, "webhook deliveries to a local receiver: %.0f events/s (%d in %v, the best backlog a lead step left; "+
			"CPU an event: deliverer %v, PostgreSQL %v; want ≥ 1,000)",
			best.perSecond(), best.events, best.elapsed.Round(time.Millisecond), best.perEvent(best.deliverer), best.perEvent(best.pg))
	}
	if b.latencies != nil || b.latErr != "" {
		p99 := percentile(b.latencies, 0.99)
		judge(b.latErr == "" && len(b.latencies) > 0 && p99 < 2*time.Second,
			"commit to delivery at %d leads/s: p50 %s, p99 %s over %d events (want p99 < 2 s)%s", pacedRate,
			fmtDur(percentile(b.latencies, 0.50)), fmtDur(p99), len(b.latencies), map[bool]string{true: "; " + b.latErr}[b.latErr != ""])
	}
	if r := get(lcDashboardLeads, 16); r != nil {
		judge(r.err == "" && r.res.OK > 0 && r.res.Errors == 0 && r.res.P99 <= 50*time.Millisecond,
			"dashboard leads page of a company's %s leads: p99 %s at 16 connections, %d errors (want ≤ 50ms, none)%s",
			b.bigLeadsText(), fmtDur(r.res.P99), r.res.Errors, disturbed(r))
	}
	if r := get(lcDashboardSearch, 16); r != nil {
		judge(r.err == "" && r.res.OK > 0 && r.res.Errors == 0 && r.res.P99 <= 100*time.Millisecond,
			"dashboard search in a company's %s leads: p99 %s at 16 connections, %d errors (want ≤ 100ms, none)%s",
			b.bigLeadsText(), fmtDur(r.res.P99), r.res.Errors, disturbed(r))
	}
	if r := get(lcOverview, 16); r != nil {
		judge(r.err == "" && r.res.OK > 0 && r.res.Errors == 0 && r.res.P99 <= 50*time.Millisecond,
			"dashboard overview of a company's %s leads and 10M counted widget events: p99 %s at 16 connections, %d errors (want ≤ 50ms, none)%s",
			b.bigLeadsText(), fmtDur(r.res.P99), r.res.Errors, disturbed(r))
	}
	if r := get(lcLeadPage, 16); r != nil {
		judge(r.err == "" && r.res.OK > 0 && r.res.Errors == 0 && r.res.P99 <= 30*time.Millisecond,
			"dashboard lead page with %d related leads, %d notes, %d changes and %d chat messages: p99 %s at 16 connections, %d errors (want ≤ 30ms, none)%s",
			leadpage.Related, leadpage.Notes, leadpage.History, leadpage.Transcript, fmtDur(r.res.P99), r.res.Errors, disturbed(r))
	}
	if e := b.export; e != nil {
		// The company's leads are the seeded ones and the lead page's lead with its related leads.
		judge(e.err == "" && e.rows == b.bigLeads()+1+leadpage.Related && e.perSecond() >= 50000 && e.rss > 0 && e.rss < 64<<20,
			"CSV export of a company's %s leads from the dashboard: %d rows at %.0f rows/s, server peak RSS %.1f MiB (want all, ≥ 50,000 rows/s, < 64 MiB)%s",
			b.bigLeadsText(), e.rows, e.perSecond(), float64(e.rss)/(1<<20), map[bool]string{true: "; " + e.err}[e.err != ""])
	}
	if f := b.streamFigures; f != nil {
		var chatPG time.Duration
		for _, c := range b.opt.conns {
			if r := get(lcChat, c); r != nil && r.pgCPU > 0 && (chatPG == 0 || r.pgCPU < chatPG) {
				chatPG = r.pgCPU
			}
		}
		f.targets(judge, chatPG)
	}
	top := b.opt.conns[len(b.opt.conns)-1]
	errors := 0
	var peak int64
	for _, o := range tableOrder {
		for _, c := range b.opt.conns {
			r := get(o.step, c)
			if r == nil || !strings.HasPrefix(o.step, "leadchat") {
				continue
			}
			if c == top {
				errors += r.res.Errors
			}
			peak = max(peak, r.rss)
		}
	}
	judge(errors == 0, "leadchat errors at %d connections: %d (want none)", top, errors)
	judge(peak > 0 && peak < 64<<20, "leadchat peak RSS: %.1f MiB (want < 64 MiB)", float64(peak)/(1<<20))
	return out
}

// disturbedAt is the CPU, in cores, that other processes may use during a step before the
// step's figures are flagged as not comparable.
const disturbedAt = 0.25

// disturbed says when other processes took CPU during either step of a comparison.
func disturbed(rows ...*row) string {
	worst := 0.0
	for _, r := range rows {
		worst = max(worst, r.other)
	}
	if worst < disturbedAt {
		return ""
	}
	return fmt.Sprintf(" [disturbed: other processes used %.2f cores; run again on a quiet machine]", worst)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// fmtDur prints a latency to three significant digits.
func fmtDur(d time.Duration) string {
	switch {
	case d == 0:
		return "–"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	case d < 100*time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.0fms", float64(d)/float64(time.Millisecond))
	}
}

func fmtMicros(d time.Duration) string {
	if d <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond))
}
