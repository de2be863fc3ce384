package metrics

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/buildinfo"
)

func TestMethodLabelsFromAFixedSet(t *testing.T) {
	m := New()
	for _, method := range []string{"GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS", "PUT", "get", "BREW", strings.Repeat("X", 100_000)} {
		m.Request("/api/v1/leads", method, 404, time.Millisecond)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	var series []string
	for line := range strings.Lines(string(body)) {
		if strings.HasPrefix(line, "leadchat_http_requests_total{") {
			series = append(series, strings.TrimSpace(line))
		}
	}
	want := []string{
		`leadchat_http_requests_total{method="DELETE",route="/api/v1/leads",status="404"} 1`,
		`leadchat_http_requests_total{method="GET",route="/api/v1/leads",status="404"} 1`,
		`leadchat_http_requests_total{method="HEAD",route="/api/v1/leads",status="404"} 1`,
		`leadchat_http_requests_total{method="OPTIONS",route="/api/v1/leads",status="404"} 1`,
		`leadchat_http_requests_total{method="PATCH",route="/api/v1/leads",status="404"} 1`,
		`leadchat_http_requests_total{method="POST",route="/api/v1/leads",status="404"} 1`,
		`leadchat_http_requests_total{method="other",route="/api/v1/leads",status="404"} 4`,
	}
	if strings.Join(series, "\n") != strings.Join(want, "\n") {
		t.Errorf("series:\n%s\nwant:\n%s", strings.Join(series, "\n"), strings.Join(want, "\n"))
	}
}

func TestBuildInfo(t *testing.T) {
	rec := httptest.NewRecorder()
	New().Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	b := buildinfo.Get()
	want := fmt.Sprintf(`leadchat_build_info{build_time=%q,goversion=%q,revision=%q,version=%q} 1`, b.Time, b.GoVersion, b.Commit, b.Version)
	if !strings.Contains(string(body), want+"\n") {
		t.Errorf("/metrics lacks %s:\n%s", want, body)
	}
}
