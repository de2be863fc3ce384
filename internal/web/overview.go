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

	"github.com/leadchat/leadchat/internal/insight"
	"github.com/leadchat/leadchat/internal/lead"
)

// Overviews are the figures of the landing page.
type Overviews interface {
	Overview(ctx context.Context, companyID uuid.UUID, now time.Time, days int, loc *time.Location) (insight.Overview, error)
}

type overviewData struct {
	insight.Overview
	Period  int
	Periods []int
	Sources []lead.Source
	// Chart is the leads per day as an SVG drawn here: no script, so it works under the CSP.
	Chart template.HTML
	// Max is the largest day's total, the chart's scale.
	Max int
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
	o, err := d.store.Overview(r.Context(), v.CompanyID, d.now(), period, budapest)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	data := overviewData{Overview: o, Period: period, Periods: insight.Periods, Sources: lead.Sources()}
	for _, day := range o.Days {
		data.Max = max(data.Max, day.Total)
	}
	data.Chart = chart(o.Days, data.Sources, data.Max)
	d.render(w, r, http.StatusOK, "overview", &v, data)
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
