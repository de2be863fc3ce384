package httpapi_test

import (
	"context"
	"io"
	"net"
	"net/http/httptest"
	"strings"
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
	svc, err := service.Open(ctx, service.Config{DatabaseURL: pgtest.NewDSN(b), MaxDBConns: 8, ShutdownGrace: time.Second}, io.Discard, nil)
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
	run := func(b *testing.B, method, path, body string, hdr map[string]string) {
		for b.Loop() {
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
				b.Fatalf("%d %s", w.Code, w.Body)
			}
		}
	}
	b.Run("lead", func(b *testing.B) {
		run(b, "POST", "/api/v1/leads", `{"first_name": "Kovács Péter", "email": "peter@example.hu", "phone": "+36 30 123 4567", "referral_data": {"utm_source": "google"}}`,
			map[string]string{"X-Api-Key": priv.Key})
	})
	b.Run("list", func(b *testing.B) {
		// A page of 50 of the leads the lead step stored (at least 50: it is run first).
		run(b, "GET", "/api/v1/leads?limit=50", "", map[string]string{"X-Api-Key": priv.Key})
	})
	b.Run("config", func(b *testing.B) {
		run(b, "GET", "/api/embed/config?api_key="+pub.Key, "", nil)
	})
}
