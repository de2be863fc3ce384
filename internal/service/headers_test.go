package service_test

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/service"
)

// A connection sending its headers slowly is closed within the header timeout: until then the
// server holds every header it was sent, so the timeout bounds what slow clients make it hold.
func TestSlowHeadersAreCut(t *testing.T) {
	t.Parallel()
	cluster, _ := ownCluster(t)
	r := serve(t, service.Config{DatabaseURL: cluster.DSN("postgres"), MaxDBConns: 2, ShutdownGrace: 5 * time.Second})
	conn, err := net.Dial("tcp", strings.TrimPrefix(r.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	// 10 KiB a second, as `make hostile`'s slow connections send: by 3 s, 30 KiB are held.
	const within = 3 * time.Second
	line := "X-Slow: " + strings.Repeat("s", 1<<10) + "\r\n"
	go func() {
		_, err := io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n")
		for err == nil {
			time.Sleep(100 * time.Millisecond)
			_, err = io.WriteString(conn, line)
		}
	}()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	io.Copy(io.Discard, conn) // until the server closes the connection
	if d := time.Since(start); d > within {
		t.Errorf("a connection sending headers slowly was closed after %v, want within %v", d.Round(time.Millisecond), within)
	}
}
