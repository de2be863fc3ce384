package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
)

// BenchmarkHandler measures one request through the whole in-process stack on a real database:
// go test -run '^$' -bench Handler -benchmem ./internal/httpapi/
func BenchmarkHandler(b *testing.B) {
	ctx := context.Background()
	// Errors only and no deliveries, as make bench runs the server: an info line per request is
	// the log's cost, and the delivery workers' polling would be counted as the requests' CPU.
	svc, err := service.Open(ctx, service.Config{DatabaseURL: pgtest.NewDSN(b), MaxDBConns: 8, ShutdownGrace: time.Second,
		Events: service.EventsConfig{RecordOnly: true}, LogLevel: slog.LevelError}, io.Discard, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	// Serving runs the change feed that makes the caches live, as in production.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go svc.Serve(sctx, ln)
	for !svc.CacheLive() {
		time.Sleep(time.Millisecond)
	}
	c, _ := svc.Store().CreateCompany(ctx, "Bench Kft.", plan.Enterprise, plan.Override{})
	priv, _ := admin.CreateKey(ctx, svc.Store(), c.ID, auth.Private, nil, true)
	pub, _ := admin.CreateKey(ctx, svc.Store(), c.ID, auth.Public, nil, true)
	h := svc.Handler()
	// Requests run side by side, as the server's connections do: a lead create waits for its
	// group's commit, and a lone caller would measure that wait. On a shared machine the wall
	// time per request includes waiting for a core; the process's CPU time per request is what
	// a request costs (the test's own client side, a request and a recorder, included).
	run := func(b *testing.B, method, path, body string, hdr map[string]string) {
		b.ReportAllocs()
		b.SetParallelism(8)
		start := cpuTime(b)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				req := httptest.NewRequest(method, path, strings.NewReader(body))
				if body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				for k, v := range hdr {
					req.Header.Set(k, v)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code >= 300 {
					b.Errorf("%d %s", w.Code, w.Body)
					return
				}
			}
		})
		b.ReportMetric(float64((cpuTime(b)-start).Nanoseconds())/float64(max(b.N, 1)), "cpu-ns/op")
	}
	b.Run("lead", func(b *testing.B) {
		run(b, "POST", "/api/v1/leads", `{"first_name":"Kovács Péter","email":"peter.kovacs@example.hu","phone":"+36 30 123 4567","service":"Napelem telepítés"}`,
			map[string]string{"X-Api-Key": priv.Key})
	})
	b.Run("list", func(b *testing.B) {
		// A page of 50 of the leads the lead step stored (at least 50: it is run first).
		run(b, "GET", "/api/v1/leads?limit=50", "", map[string]string{"X-Api-Key": priv.Key})
	})
	b.Run("config", func(b *testing.B) {
		run(b, "GET", "/api/embed/config?api_key="+pub.Key, "", map[string]string{"Origin": "https://www.example.hu"})
	})
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
