// Package metrics holds the service's Prometheus metrics, on a registry of its own.
package metrics

import (
	"net/http"
	"sync"
	"time"

	"github.com/leadchat/leadchat/internal/buildinfo"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the service's counters and histograms. A nil *Metrics records nothing, so code
// and tests that do not care need not build one.
type Metrics struct {
	reg          *prometheus.Registry
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	leads        *prometheus.CounterVec
	chatMessages prometheus.Counter
	modelCalls   *prometheus.CounterVec
	modelLatency prometheus.Histogram
	rateLimited  *prometheus.CounterVec
	botDropped   prometheus.Counter
	// series holds each request label set's counter and histogram once looked up, keyed by
	// requestLabels: a request then costs no label hashing and no allocation. The label sets
	// are few (route templates × methods × statuses), so the map stays small.
	mu     sync.RWMutex
	series map[requestLabels]*requestSeries
	// leadSeries holds leads' counter of each source and over-limit flag once looked up, as
	// series does the requests'.
	leadSeries map[leadLabels]prometheus.Counter
}

// leadLabels is one label set of the lead counter.
type leadLabels struct {
	source    string
	overLimit bool
}

// requestLabels is one label set of the request metrics.
type requestLabels struct {
	route, method string
	status        int
}

// requestSeries is a label set's counter and its route's histogram.
type requestSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// New registers the metrics on a fresh registry, with the Go runtime and process collectors and
// leadchat_build_info, which names the running build in its labels (always 1, so that a query
// can join it to the other series or count the instances per version).
func New() *Metrics {
	m := &Metrics{
		reg:    prometheus.NewRegistry(),
		series: map[requestLabels]*requestSeries{}, leadSeries: map[leadLabels]prometheus.Counter{},
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "leadchat_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "leadchat_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		leads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "leadchat_leads_created_total", Help: "Leads created, by source and whether over the monthly limit.",
		}, []string{"source", "over_limit"}),
		chatMessages: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "leadchat_chat_messages_total", Help: "Visitor chat messages answered.",
		}),
		modelCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "leadchat_model_calls_total", Help: "AI model calls by result: called (the model was asked), fallback (it failed or broke a rule; the built-in assistant answered), budget (the daily budget was spent; the model was not asked).",
		}, []string{"result"}),
		modelLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "leadchat_model_call_duration_seconds", Help: "AI model call latency, fallbacks included.",
			Buckets: []float64{.1, .25, .5, 1, 2, 4, 8, 16},
		}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "leadchat_rate_limited_total", Help: "Requests refused by a rate limit, by limit.",
		}, []string{"limit"}),
		botDropped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "leadchat_bot_submissions_dropped_total", Help: "Contact form submissions dropped as bots (honeypot or too fast).",
		}),
	}
	build := buildinfo.Get()
	buildInfo := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "leadchat_build_info", Help: "The running build: its version, commit, commit time and Go version.",
		ConstLabels: prometheus.Labels{"version": build.Version, "revision": build.Commit,
			"build_time": build.Time, "goversion": build.GoVersion},
	})
	buildInfo.Set(1)
	m.reg.MustRegister(buildInfo, m.requests, m.duration, m.leads, m.chatMessages, m.modelCalls, m.modelLatency,
		m.rateLimited, m.botDropped,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Request records one HTTP request. route must come from a fixed set (the route templates);
// the method is told by its name only when it is one the API knows, so no value a client makes
// up becomes a label, each of which would be kept for good.
func (m *Metrics) Request(route, method string, status int, d time.Duration) {
	if m == nil {
		return
	}
	key := requestLabels{route, methodLabel(method), status}
	m.mu.RLock()
	ser := m.series[key]
	m.mu.RUnlock()
	if ser == nil {
		ser = &requestSeries{
			count:    m.requests.WithLabelValues(key.route, key.method, statusText(status)),
			duration: m.duration.WithLabelValues(route),
		}
		m.mu.Lock()
		m.series[key] = ser
		m.mu.Unlock()
	}
	ser.count.Inc()
	ser.duration.Observe(d.Seconds())
}

// LeadCreated records a new lead.
func (m *Metrics) LeadCreated(source string, overLimit bool) {
	if m == nil {
		return
	}
	key := leadLabels{source, overLimit}
	m.mu.RLock()
	c := m.leadSeries[key]
	m.mu.RUnlock()
	if c == nil {
		ol := "false"
		if overLimit {
			ol = "true"
		}
		c = m.leads.WithLabelValues(source, ol)
		m.mu.Lock()
		m.leadSeries[key] = c
		m.mu.Unlock()
	}
	c.Inc()
}

// ChatMessage records an answered visitor message.
func (m *Metrics) ChatMessage() {
	if m != nil {
		m.chatMessages.Inc()
	}
}

// ModelCall records a model call's result ("called", "fallback" or "budget") and latency.
func (m *Metrics) ModelCall(result string, d time.Duration) {
	if m == nil {
		return
	}
	m.modelCalls.WithLabelValues(result).Inc()
	if result == "called" {
		m.modelLatency.Observe(d.Seconds())
	}
}

// RateLimited records a refusal by the named limit.
func (m *Metrics) RateLimited(limit string) {
	if m != nil {
		m.rateLimited.WithLabelValues(limit).Inc()
	}
}

// BotDropped records a contact form submission dropped as a bot's.
func (m *Metrics) BotDropped() {
	if m != nil {
		m.botDropped.Inc()
	}
}

// methodLabel is the method's label: one of GET HEAD POST PATCH DELETE OPTIONS other.
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return method
	}
	return "other"
}

// statusText avoids allocating for the common statuses.
func statusText(s int) string {
	switch s {
	case 200:
		return "200"
	case 201:
		return "201"
	case 204:
		return "204"
	case 400:
		return "400"
	case 401:
		return "401"
	case 403:
		return "403"
	case 429:
		return "429"
	}
	return itoa(s)
}

func itoa(n int) string {
	var b [8]byte
	i := len(b)
	for n >= 10 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	i--
	b[i] = byte('0' + n)
	return string(b[i:])
}
