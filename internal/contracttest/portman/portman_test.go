package portman_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/contracttest"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/testenv"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// requestBody is the context key of the body of a request the proxy forwards.
type requestBody struct{}

// TestPortman runs the collection Portman generates from the spec with Newman against the
// service, through a proxy that also checks every exchange with contracttest: the answer
// against the spec and its operation's error code list, and the request of every success
// against the spec. Any failed Newman assertion or contracttest check fails the test, and so
// does an operation whose success answer the run never saw.
func TestPortman(t *testing.T) {
	bin := testenv.Portman(t)
	root := testenv.ModuleRoot(t)
	base, apiKey, publicKey := startService(t)

	v := contracttest.New(t, base)
	target, _ := url.Parse(base)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var answers atomic.Int64
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.StatusCode == http.StatusOK && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			// A stream does not end: Newman gets its first event, and the stream's status and
			// type are checked against the contract.
			answers.Add(1)
			if err := v.CheckStream(resp.Request, resp); err != nil {
				t.Errorf("contracttest: %v", err)
			}
			first, _ := bufio.NewReader(resp.Body).ReadString('\n')
			resp.Body.Close()
			resp.Body = io.NopCloser(strings.NewReader(first + "\n"))
			resp.Header.Del("Connection")
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		answers.Add(1)
		if err := v.Check(resp.Request, resp, body); err != nil {
			t.Errorf("contracttest: %v", err)
		}
		// Every success is an answer to a request the contract allows: Portman's own requests
		// are, and the service is never more lenient than its contract.
		sent, _ := resp.Request.Context().Value(requestBody{}).([]byte)
		if err := v.CheckRequest(resp.Request, sent); resp.StatusCode < 300 && err != nil {
			t.Errorf("contracttest: %s %s answered %d to a request the contract refuses: %v",
				resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, err)
		}
		return nil
	}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestBody{}, body)))
	}))
	defer front.Close()

	dir := t.TempDir()
	collection, report := filepath.Join(dir, "collection.json"), filepath.Join(dir, "newman.json")
	run(t, dir, filepath.Join(bin, "portman"), "--local", filepath.Join(root, "api", "openapi.yaml"),
		"--portmanConfigFile", filepath.Join(root, "api", "portman.yaml"), "--baseUrl", front.URL,
		"--output", collection, "--logAssignVariables=false")
	start := time.Now()
	out, err := command(dir, filepath.Join(bin, "newman"), "run", collection,
		"--env-var", "apiKey="+apiKey, "--env-var", "publicKey="+publicKey,
		"--timeout-request", "10000", "--color", "off", "--disable-unicode",
		"--reporters", "cli,json", "--reporter-json-export", report)
	elapsed := time.Since(start)
	var r struct {
		Run struct {
			Stats map[string]struct{ Total, Failed int } `json:"stats"`
		} `json:"run"`
	}
	if raw, rerr := os.ReadFile(report); rerr != nil || json.Unmarshal(raw, &r) != nil {
		t.Fatalf("newman: %v, and no report\n%s", err, out)
	}
	req, as := r.Run.Stats["requests"], r.Run.Stats["assertions"]
	t.Logf("newman: %d requests (%d failed), %d assertions (%d failed) in %v; contracttest checked %d answers",
		req.Total, req.Failed, as.Total, as.Failed, elapsed.Round(time.Millisecond), answers.Load())
	if err != nil || req.Total == 0 || as.Total == 0 || req.Failed+as.Failed > 0 {
		t.Errorf("newman: %v\n%s", err, out)
	}
	if int64(req.Total) != answers.Load() {
		t.Errorf("newman sent %d requests, the proxy saw %d answers", req.Total, answers.Load())
	}
	for path, item := range contracttest.Spec(t, base).Paths.Map() {
		for method, op := range item.Operations() {
			if status := successStatus(op.Responses.Map()); status != 0 && !v.Seen(method, path, status) {
				t.Errorf("the run never saw %s %s answer %d", method, path, status)
			}
		}
	}
}

// successStatus is the lowest 2xx status of responses, the one Portman's contract test expects.
func successStatus[T any](responses map[string]T) int {
	best := 0
	for code := range responses {
		if n, err := strconv.Atoi(code); err == nil && n >= 200 && n < 300 && (best == 0 || n < best) {
			best = n
		}
	}
	return best
}

// startService starts the service on a fresh database with a company on a plan with a limit
// (so the limit headers are sent) and returns its address, a private and a public key.
func startService(t *testing.T) (base, private, public string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := service.Open(ctx, service.Config{DatabaseURL: pgtest.NewDSN(t), MaxDBConns: 8, ShutdownGrace: 5 * time.Second}, io.Discard, nil)
	if err != nil {
		t.Fatalf("opening the service: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- svc.Serve(ctx, ln) }()
	t.Cleanup(func() {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		svc.Close()
	})
	store := svc.Store()
	c, err := store.CreateCompany(ctx, "Portman Kft.", plan.Free, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 2)
	for i, kind := range []auth.Kind{auth.Private, auth.Public} {
		k, err := admin.CreateKey(ctx, store, c.ID, kind, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k.Key
	}
	for deadline := time.Now().Add(10 * time.Second); !svc.CacheLive(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the key cache listener did not connect")
		}
	}
	return "http://" + ln.Addr().String(), keys[0], keys[1]
}

// run runs a command in dir and fails t with its output when it fails.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	if out, err := command(dir, name, args...); err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(name), err, out)
	}
}

// command runs name in dir with node's update checks and colours off, and returns its output.
func command(dir, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_UPDATE_NOTIFIER=1", "FORCE_COLOR=0")
	return cmd.CombinedOutput()
}
