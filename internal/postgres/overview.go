package postgres

import (
	"context"
	"database/sql"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/insight"
	"github.com/leadchat/leadchat/internal/lead"
)

// The overview's days are Budapest days, as the dashboard shows dates. Each figure is one
// statement over one company's rows since the period's first midnight ($2); the leads per day
// and per referral value come from the daily counts insertLeads keeps, not from the leads.
const (
	overviewDays = `
SELECT day, source, count FROM lead_daily WHERE company_id = $1 AND day >= $2::date`

	overviewFunnel = `
SELECT coalesce((SELECT sum(shown) FROM widget_events WHERE company_id = $1 AND day >= $3::date), 0) AS shown,
       coalesce((SELECT sum(opened) FROM widget_events WHERE company_id = $1 AND day >= $3::date), 0) AS opened,
       (SELECT count(*) FROM chat_sessions WHERE company_id = $1 AND created_at >= $2) AS conversations`

	// overviewReferral counts a referral key's values ($3: utm_source or landing_page).
	overviewReferral = `
SELECT value, sum(count)::int AS count
FROM lead_referral_daily WHERE company_id = $1 AND day >= $2::date AND key = $3
GROUP BY value ORDER BY 2 DESC, 1 LIMIT $4`

	// overviewFirstResponse starts from the history's status changes, few beside the leads.
	overviewFirstResponse = `
SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY secs), 0) AS median, count(*) AS n FROM (
    SELECT extract(epoch FROM min(h.created_at) - l.created_at) AS secs
    FROM lead_history h JOIN leads l ON l.company_id = $1 AND l.id = h.lead_id
    WHERE h.company_id = $1 AND h.field = 'status' AND l.created_at >= $2
    GROUP BY l.id, l.created_at) x`

	// overviewQuestions finds the visitor messages since $2 the assistant handed over (flagged
	// as they were stored), grouped by their text whatever its case and spacing.
	overviewQuestions = `
SELECT min(m.text) AS text, count(*) AS n, max(m.created_at) AS last
FROM chat_messages m
WHERE m.company_id = $1 AND m.visitor AND m.handed_over AND m.created_at >= $2
GROUP BY lower(regexp_replace(btrim(m.text), '\s+', ' ', 'g'))
ORDER BY n DESC, last DESC LIMIT $3`
)

// Overview returns a company's figures for the days days up to now (Budapest days, today
// included), and the questions handed over in the last insight.QuestionDays days.
func (s *Store) Overview(ctx context.Context, companyID uuid.UUID, now time.Time, days int, loc *time.Location) (insight.Overview, error) {
	today := time.Date(now.In(loc).Year(), now.In(loc).Month(), now.In(loc).Day(), 0, 0, 0, 0, loc)
	since := today.AddDate(0, 0, -(days - 1))
	var o insight.Overview
	index := map[string]int{}
	for i := range days {
		d := since.AddDate(0, 0, i)
		index[d.Format(time.DateOnly)] = i
		o.Days = append(o.Days, insight.Day{Day: d, BySource: map[lead.Source]int{}})
	}
	sinceDay := since.Format(time.DateOnly)
	rows, err := s.db.QueryContext(ctx, overviewDays, companyID, sinceDay)
	if err != nil {
		return o, translate(err)
	}
	for rows.Next() {
		var day time.Time
		var src lead.Source
		var n int
		if err := rows.Scan(&day, &src, &n); err != nil {
			rows.Close()
			return o, translate(err)
		}
		if i, ok := index[day.Format(time.DateOnly)]; ok {
			o.Days[i].BySource[src] += n
			o.Days[i].Total += n
			o.Funnel.Leads += n
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return o, translate(err)
	}
	if err := s.db.QueryRowContext(ctx, overviewFunnel, companyID, since, since.Format(time.DateOnly)).
		Scan(&o.Funnel.Shown, &o.Funnel.Opened, &o.Funnel.Conversations); err != nil {
		return o, translate(err)
	}
	for key, dst := range map[string]*[]insight.Count{"utm_source": &o.Sources, "landing_page": &o.Pages} {
		if err := s.db.SelectContext(ctx, dst, overviewReferral, companyID, sinceDay, key, insight.TopN); err != nil {
			return o, translate(err)
		}
	}
	var median float64
	if err := s.db.QueryRowContext(ctx, overviewFirstResponse, companyID, since).Scan(&median, &o.Responded); err != nil {
		return o, translate(err)
	}
	o.FirstResponse = time.Duration(median * float64(time.Second)).Round(time.Minute)
	var qs []struct {
		Text  string       `db:"text"`
		Count int          `db:"n"`
		Last  sql.NullTime `db:"last"`
	}
	if err := s.db.SelectContext(ctx, &qs, overviewQuestions, companyID, today.AddDate(0, 0, -(insight.QuestionDays-1)),
		insight.TopN); err != nil {
		return o, translate(err)
	}
	for _, q := range qs {
		o.Questions = append(o.Questions, insight.Question{Text: q.Text, Count: q.Count, Last: q.Last.Time})
	}
	return o, nil
}

// addWidgetEvents adds counts to their companies' counts of the day (Budapest), the rows taken
// in company order so that two instances' flushes cannot deadlock.
const addWidgetEvents = `
INSERT INTO widget_events AS w (company_id, day, shown, opened)
SELECT c, (now() AT TIME ZONE 'Europe/Budapest')::date, s, o
FROM unnest($1::uuid[], $2::bigint[], $3::bigint[]) AS t(c, s, o)
ORDER BY c
ON CONFLICT (company_id, day) DO UPDATE SET shown = w.shown + excluded.shown, opened = w.opened + excluded.opened`

// AddWidgetEvents adds companies' widget events to today's counts, in one statement; nothing
// of a visitor is kept.
func (s *Store) AddWidgetEvents(ctx context.Context, counts map[uuid.UUID]insight.Counts) error {
	ids, shown, opened := make([]uuid.UUID, 0, len(counts)), make(pq.Int64Array, 0, len(counts)), make(pq.Int64Array, 0, len(counts))
	for id, c := range counts {
		ids = append(ids, id)
		shown = append(shown, c.Shown)
		opened = append(opened, c.Opened)
	}
	_, err := s.db.ExecContext(ctx, addWidgetEvents, uuidArray(ids), shown, opened)
	return translate(err)
}
