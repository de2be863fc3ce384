package web

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/sync/singleflight"

	"github.com/leadchat/leadchat/internal/insight"
	"github.com/leadchat/leadchat/internal/lead"
)

// Overviews are the figures of the landing page.
type Overviews interface {
	Overview(ctx context.Context, companyID uuid.UUID, now time.Time, days int, loc *time.Location) (insight.Overview, error)
}

type overviewData struct {
	*overviewFigures
	Period  int
	Periods []int
	Sources []lead.Source
}

// overviewFigures are a company's overview of a period as every viewer sees it: the figures,
// and the parts of the page drawn from them here rather than by the template.
type overviewFigures struct {
	insight.Overview
	// Chart is the leads per day as an SVG drawn here: no script, so it works under the CSP.
	Chart template.HTML
	// DailyRows are the chart's figures as the table's rows; see dailyRows.
	DailyRows template.HTML
	// Max is the largest day's total, the chart's scale.
	Max int
}

// OverviewFresh is how long a company's overview of a period is served from memory. Its figures
// are counts of days, which nobody reads to the second; the page is where every user of a
// company lands, so a team opening the dashboard at once costs one set of queries (the first
// asker's; the others wait for it) instead of one per user and reload. A new lead, a status
// change or a widget event shows on the overview within this time; the list and the lead pages
// read the database on every request.
const OverviewFresh = 10 * time.Second

// overviewEntries bounds the companies' overviews kept; past it the least used go first.
const overviewEntries = 1000

// overviewKey is a company's overview of a period.
type overviewKey struct {
	company uuid.UUID
	days    int
}

// overviews keeps companies' overviews for OverviewFresh by the dashboard's clock, each made
// once however many ask for it at the same time.
type overviews struct {
	now   func() time.Time
	fresh *lru.Cache[overviewKey, madeFigures]
	calls singleflight.Group
}

// madeFigures are figures and when they were made.
type madeFigures struct {
	*overviewFigures
	at time.Time
}

func newOverviews(now func() time.Time) *overviews {
	fresh, err := lru.New[overviewKey, madeFigures](overviewEntries)
	if err != nil { // only for a size below one
		panic(err)
	}
	return &overviews{now: now, fresh: fresh}
}

// get returns the company's overview of the period, from memory while it is fresh, else made
// by load, whose context is not the caller's: other requests may be waiting for it.
func (o *overviews) get(ctx context.Context, k overviewKey, load func(context.Context) (*overviewFigures, error)) (*overviewFigures, error) {
	if f, ok := o.fresh.Get(k); ok && o.now().Sub(f.at) < OverviewFresh {
		return f.overviewFigures, nil
	}
	ch := o.calls.DoChan(k.company.String()+"/"+strconv.Itoa(k.days), func() (any, error) {
		at := o.now()
		f, err := load(context.WithoutCancel(ctx))
		if err == nil {
			o.fresh.Add(k, madeFigures{f, at})
		}
		return f, err
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.(*overviewFigures), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// overview is the landing page, Áttekintés: leads per day by source, the widget's funnel,
// where leads come from, how fast they are answered, and the questions the assistant handed
// over. Owners and members see it; adding a question to the FAQ is for owners.
func (d *dashboard) overview(w http.ResponseWriter, r *http.Request, v viewer) {
	period := insight.Periods[0]
	if p := r.URL.Query().Get("napok"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || !validPeriod(n) {
			d.errorPage(w, r, http.StatusBadRequest)
			return
		}
		period = n
	}
	sources := lead.Sources()
	figures, err := d.overviews.get(r.Context(), overviewKey{v.CompanyID, period}, func(ctx context.Context) (*overviewFigures, error) {
		o, err := d.store.Overview(ctx, v.CompanyID, d.now(), period, budapest)
		if err != nil {
			return nil, err
		}
		f := &overviewFigures{Overview: o}
		for _, day := range o.Days {
			f.Max = max(f.Max, day.Total)
		}
		f.Chart = chart(o.Days, sources, f.Max)
		f.DailyRows = dailyRows(o.Days, sources)
		return f, nil
	})
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	d.render(w, r, http.StatusOK, "overview", &v, overviewData{overviewFigures: figures, Period: period,
		Periods: insight.Periods, Sources: sources})
}

// dailyRows writes the daily table's rows, a day a row with its count per source and its
// total. They are written here rather than by the template for the reason leadRows gives: the
// template's range over ninety days and their sources took most of the page's time. The
// values are dates and numbers, which need no escaping.
func dailyRows(days []insight.Day, sources []lead.Source) template.HTML {
	var b strings.Builder
	b.Grow(len(days) * (80 + 12*len(sources)))
	for _, day := range days {
		b.WriteString(`<tr data-day="`)
		b.WriteString(day.Day.Format("2006-01-02"))
		b.WriteString(`"><th scope="row">`)
		b.WriteString(day.Day.Format("2006. 01. 02."))
		b.WriteString("</th>")
		for _, s := range sources {
			b.WriteString("<td>")
			b.WriteString(strconv.Itoa(day.BySource[s]))
			b.WriteString("</td>")
		}
		b.WriteString("<td>")
		b.WriteString(strconv.Itoa(day.Total))
		b.WriteString("</td></tr>\n      ")
	}
	return template.HTML(b.String()) // dates and numbers only
}

func validPeriod(n int) bool {
	for _, p := range insight.Periods {
		if p == n {
			return true
		}
	}
	return false
}

// Chart geometry, in the SVG's own units: a bar per day, stacked by source.
const (
	chartBar    = 10
	chartGap    = 2
	chartHeight = 120
)

// chart draws the days' leads as stacked bars, one class per source (the colours are in the
// stylesheet), with a title per bar that tells its day and figures. Every text is escaped.
func chart(days []insight.Day, sources []lead.Source, top int) template.HTML {
	var b strings.Builder
	width := len(days) * (chartBar + chartGap)
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" preserveAspectRatio="none" role="img" aria-labelledby="chart-title" focusable="false">`, width, chartHeight)
	b.WriteString(`<title id="chart-title">Érdeklődők naponta, forrás szerint</title>`)
	scale := 1.0
	if top > 0 {
		scale = float64(chartHeight-4) / float64(top)
	}
	for i, day := range days {
		x := i * (chartBar + chartGap)
		y := float64(chartHeight)
		var parts []string
		b.WriteString("<g>")
		for _, s := range sources {
			n := day.BySource[s]
			if n == 0 {
				continue
			}
			h := float64(n) * scale
			y -= h
			fmt.Fprintf(&b, `<rect class="src-%s" x="%d" y="%.2f" width="%d" height="%.2f"></rect>`,
				template.HTMLEscapeString(string(s)), x, y, chartBar, h)
			parts = append(parts, fmt.Sprintf("%s: %d", s.Name(), n))
		}
		label := day.Day.Format("2006. 01. 02.") + ": " + strconv.Itoa(day.Total) + " érdeklődő"
		if len(parts) > 0 {
			label += " (" + strings.Join(parts, ", ") + ")"
		}
		b.WriteString("<title>" + template.HTMLEscapeString(label) + "</title></g>")
	}
	b.WriteString("</svg>")
	return template.HTML(b.String()) // every value in it escaped above
}

// faqLink opens the assistant page with the question filled in as a new FAQ entry.
func faqLink(question string) string {
	return "/app/assistant?" + url.Values{"kerdes": {question}}.Encode()
}

// duration words a duration the Hungarian way, in days, hours and minutes.
func duration(d time.Duration) string {
	if d <= 0 {
		return "kevesebb mint egy perc"
	}
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	var parts []string
	if days > 0 {
		parts = append(parts, strconv.Itoa(days)+" nap")
	}
	if hours > 0 {
		parts = append(parts, strconv.Itoa(hours)+" óra")
	}
	if mins > 0 && days == 0 {
		parts = append(parts, strconv.Itoa(mins)+" perc")
	}
	if len(parts) == 0 {
		return "kevesebb mint egy perc"
	}
	return strings.Join(parts, " ")
}

// percent is part of whole in whole percents, "–" without a whole.
func percent(part, whole int) string {
	if whole == 0 {
		return "–"
	}
	return strconv.Itoa(part*100/whole) + "%"
}
