package bench

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
)

// The read pair's steps (-only read): once one company holds bigLeads leads, lead creates (in
// alternation with the same creates into an empty database, served by a twin leadchat), that
// company's first and deep list pages, its dashboard leads page, the dashboard's search, its
// overview and one lead's page.
const (
	lcLeadEmpty   = "leadchat: lead, empty database"
	lcLeadMillion = "leadchat: lead, 1M stored leads"
	lcListFirst   = "leadchat: list, first page"
	lcListDeep    = "leadchat: list, deep page"
)

// bigLeads is how many leads the read steps' company holds; a smoke run seeds smokeLeads.
const (
	bigLeads   = 1_000_000
	smokeLeads = 20_000
)

// deepCursors is how many positions the deep page step pages from, all in the older half of
// the company's leads, so that no single page stays hot in the caches.
const deepCursors = 64

// SeedLeads stores leads number $2+1 to $2+$3 of company $1 in one statement, as varied as
// real ones in what the list reads (names, contacts, service, note, source, status), lead i
// created i × 30 seconds back from now, so a million span about a year. generate_series makes
// a million in seconds where a million creates through the API would take minutes.
const SeedLeads = `
INSERT INTO leads (id, company_id, first_name, last_name, email, phone, phone_e164, service,
                   details, source, referral_data, status, over_limit, created_at, updated_at)
SELECT gen_random_uuid(), $1,
       (ARRAY['Péter','Anna','Gábor','Eszter','László','Katalin','Zoltán','Judit'])[1 + i % 8],
       (ARRAY['Kovács','Nagy','Tóth','Szabó','Horváth','Varga','Kiss','Molnár','Németh'])[1 + i % 9],
       'lead' || i || '@example.hu',
       '+36 30 ' || lpad((i % 10000000)::text, 7, '0'), '+3630' || lpad((i % 10000000)::text, 7, '0'),
       (ARRAY['Napelem telepítés','Hőszivattyú','Klíma','Tetőfelújítás'])[1 + i % 4],
       jsonb_build_object('note', 'Családi ház, ' || (80 + i % 120) || ' m² tető, árajánlatot kér.'),
       (ARRAY['form','api','chat','manual'])[1 + i % 4],
       CASE WHEN i % 3 = 0 THEN jsonb_build_object('utm_source', 'google', 'utm_campaign', 'tavasz') END,
       (ARRAY['new','contacted','qualified','won','lost','over_limit'])[1 + i % 6], i % 6 = 5,
       now() - i * interval '30 seconds', now() - i * interval '30 seconds'
FROM generate_series($2::int + 1, $2::int + $3::int) AS i`

// seedRollups counts company $1's seeded leads by day, source and referral value, as the
// statement that stores leads counts its own.
var seedRollups = []string{
	`INSERT INTO lead_daily (company_id, day, source, count)
SELECT company_id, (created_at AT TIME ZONE 'Europe/Budapest')::date, source, count(*) FROM leads WHERE company_id = $1 GROUP BY 1, 2, 3`,
	`INSERT INTO lead_referral_daily (company_id, day, key, value_key, value, count)
SELECT l.company_id, (l.created_at AT TIME ZONE 'Europe/Budapest')::date, k, md5(l.referral_data->>k)::uuid, l.referral_data->>k, count(*)
FROM leads l, unnest(ARRAY['utm_source', 'landing_page']) AS k
WHERE l.company_id = $1 AND l.referral_data->>k <> ''
GROUP BY 1, 2, 3, 4, 5`,
}

// emptyLeads empties the tables a lead fills (the companies and keys stay), so that the
// empty-database step measures what its name says.
const emptyLeads = `TRUNCATE leads, lead_counters, idempotency_keys, lead_history, lead_notes, chat_messages, chat_sessions, lead_daily, lead_referral_daily`

// selectDeepCursors picks positions spread over the older half of the company's list.
const selectDeepCursors = `
SELECT created_at, id FROM (
    SELECT created_at, id, row_number() OVER (ORDER BY created_at DESC, id DESC) AS n
    FROM leads WHERE company_id = $1) list
WHERE n > $2::int / 2 AND n % ($2::int / 2 / $3::int) = 0
ORDER BY n LIMIT $3`

// bigLeads is how many leads the read steps' company holds in this run.
func (b *bench) bigLeads() int {
	if b.opt.smoke {
		return smokeLeads
	}
	return bigLeads
}

// listRequest is GET /api/v1/leads with a private key and a query.
func listRequest(host, key, query string) []byte {
	return []byte(fmt.Sprintf("GET /api/v1/leads?%s HTTP/1.1\r\nHost: %s\r\nX-Api-Key: %s\r\n\r\n", query, host, key))
}

// readSteps runs the read pair: the big company is seeded with bigLeads leads, then at every
// concurrency lead creates into it are measured in alternation with the same creates into an
// empty database (the twin leadchat, on a copy of the database as provisioned, emptied of leads
// before each alternation), then its first and deep list pages, its dashboard leads page,
// search, overview and lead page, and at the end its CSV export.
func (b *bench) readSteps(ctx context.Context, add func(row), leadSpread [][]byte) error {
	s, err := postgres.Open(ctx, b.cluster.DSN("leadchat"), postgres.Options{MaxOpenConns: 2, StatementTimeout: 10 * time.Minute})
	if err != nil {
		return err
	}
	defer s.Close()
	twinStore, err := postgres.Open(ctx, b.cluster.DSN(twinDB), postgres.Options{MaxOpenConns: 1})
	if err != nil {
		return err
	}
	defer twinStore.Close()
	// The other pairs' leads go, so that the big company's are the million stored.
	if _, err := s.DB().ExecContext(ctx, emptyLeads); err != nil {
		return fmt.Errorf("emptying the lead tables: %w", err)
	}
	n := b.bigLeads()
	fmt.Fprintf(b.log, "seeding %d leads ...\n", n)
	start := time.Now()
	if _, err := s.DB().ExecContext(ctx, SeedLeads, b.bigCompany, 0, n); err != nil {
		return fmt.Errorf("seeding leads: %w", err)
	}
	// As autovacuum would soon after a million inserts, mid-step: set the rows' hint bits and
	// the visibility map, and gather the planner's statistics.
	if _, err := s.DB().ExecContext(ctx, "VACUUM (ANALYZE) leads"); err != nil {
		return err
	}
	for _, q := range seedRollups {
		if _, err := s.DB().ExecContext(ctx, q, b.bigCompany); err != nil {
			return fmt.Errorf("counting the seeded leads by day: %w", err)
		}
	}
	if _, err := s.DB().ExecContext(ctx, seedWidgetEvents, b.bigCompany, bigEvents); err != nil {
		return fmt.Errorf("seeding widget events: %w", err)
	}
	if err := b.seedLeadPage(ctx, s); err != nil {
		return err
	}
	fmt.Fprintf(b.log, "seeded in %v\n", time.Since(start).Round(time.Second))
	deep, err := b.deepPages(ctx, s, n)
	if err != nil {
		return err
	}
	if err := b.startTwin(ctx); err != nil {
		return err
	}
	defer b.stopTwin()
	var twinSpread [][]byte
	for i := range companies {
		twinSpread = append(twinSpread, leadRequest(b.twinAddr, b.privateKeys[i]))
	}
	first := [][]byte{listRequest(b.leadchatAddr, b.bigKey, "limit=50")}
	dashboard := [][]byte{dashboardRequest(b.leadchatAddr, b.dashboardCookie)}
	searches := dashboardSearches(b.leadchatAddr, b.dashboardCookie, n)
	overview := [][]byte{overviewRequest(b.leadchatAddr, b.dashboardCookie)}
	leadPage := [][]byte{leadPageRequest(b.leadchatAddr, b.dashboardCookie, b.pageLead)}
	for _, c := range b.opt.conns {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if _, err := twinStore.DB().ExecContext(ctx, emptyLeads); err != nil {
			return fmt.Errorf("emptying the twin's lead tables: %w", err)
		}
		empty, million := b.alternate(ctx, c, side{lcLeadEmpty, b.twin, b.twinAddr, roundRobin(twinSpread)},
			side{lcLeadMillion, b.leadchat, b.leadchatAddr, roundRobin(leadSpread)})
		add(empty)
		add(million)
		add(b.httpStep(ctx, lcListFirst, c, b.leadchat, b.leadchatAddr, roundRobin(first)))
		add(b.httpStep(ctx, lcListDeep, c, b.leadchat, b.leadchatAddr, roundRobin(deep)))
		add(b.httpStep(ctx, lcDashboardLeads, c, b.leadchat, b.leadchatAddr, roundRobin(dashboard)))
		add(b.httpStep(ctx, lcDashboardSearch, c, b.leadchat, b.leadchatAddr, roundRobin(searches)))
		add(b.httpStep(ctx, lcOverview, c, b.leadchat, b.leadchatAddr, roundRobin(overview)))
		add(b.httpStep(ctx, lcLeadPage, c, b.leadchat, b.leadchatAddr, roundRobin(leadPage)))
	}
	b.stopTwin()
	if ctx.Err() == nil {
		e := b.exportCSV(ctx)
		b.export = &e
		fmt.Fprintf(b.log, "        CSV export of the big company: %d rows in %v, %.0f rows/s, peak RSS %.1f MiB %s\n",
			e.rows, e.elapsed.Round(time.Millisecond), e.perSecond(), float64(e.rss)/(1<<20), e.err)
	}
	return nil
}

// startTwin starts the second leadchat, on the copy of the provisioned database.
func (b *bench) startTwin(ctx context.Context) (err error) {
	fmt.Fprintln(b.log, "starting the empty-database twin ...")
	b.twin, b.twinAddr, err = b.startServe(ctx, "the twin leadchat", "twin.log", func(addr string) []string {
		return b.leadchatEnv(twinDB, addr)
	})
	return err
}

func (b *bench) stopTwin() {
	if b.twin != nil {
		b.twin.stop()
		b.twin = nil
	}
}

// deepPages are list requests that start at cursors in the older half of the big company's
// leads, made as the service makes them.
func (b *bench) deepPages(ctx context.Context, s *postgres.Store, n int) ([][]byte, error) {
	rows, err := s.DB().QueryContext(ctx, selectDeepCursors, b.bigCompany, n, deepCursors)
	if err != nil {
		return nil, fmt.Errorf("reading deep cursors: %w", err)
	}
	defer rows.Close()
	var reqs [][]byte
	for rows.Next() {
		var c lead.Cursor
		if err := rows.Scan(&c.CreatedAt, &c.ID); err != nil {
			return nil, err
		}
		reqs = append(reqs, listRequest(b.leadchatAddr, b.bigKey, "limit=50&cursor="+url.QueryEscape(c.Text(lead.Filter{}))))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(reqs) == 0 {
		return nil, fmt.Errorf("no deep cursors in %d leads", n)
	}
	return reqs, nil
}
