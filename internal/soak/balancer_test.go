//go:build soak && linux

package soak

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"text/template"
	"time"
)

// balancer is HAProxy in front of the instances: round robin over those whose /readyz answers,
// X-Forwarded-For added, the instance that answered named in X-Leadchat-Instance.
type balancer struct {
	addr string
	cmd  *exec.Cmd
	done chan struct{}
}

// haproxyConfig is the configuration the README's deployment section describes. A request is
// sent again to another instance only when it could not be delivered (retries, redispatch), so
// a POST is never sent twice. With every instance out, HAProxy answers the contract's 503 body
// itself.
var haproxyConfig = template.Must(template.New("haproxy").Parse(`global
    maxconn 4096

defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    option forwardfor
    retries 2
    option redispatch 1
    errorfile 503 {{.ErrorFile}}

frontend leadchat
    bind {{.Addr}}
    default_backend instances

backend instances
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 500ms fall 2 rise 1
    http-response set-header X-Leadchat-Instance %s
{{- range $i, $a := .Instances}}
    server instance{{$i}} {{$a}} check
{{- end}}
`))

// unavailable503 is HAProxy's answer when no instance is ready: the contract's error body.
const unavailable503 = "HTTP/1.1 503 Service Unavailable\r\n" +
	"Content-Type: application/json; charset=utf-8\r\n" +
	"Cache-Control: no-store\r\n" +
	"Retry-After: 1\r\n" +
	"Connection: close\r\n" +
	"\r\n" +
	`{"error":"A szolgáltatás átmenetileg nem érhető el. Kérjük, próbálja újra később.","code":"unavailable"}` + "\n"

var errNoHAProxy = errors.New("haproxy not found on PATH: apt-get install haproxy")

// startBalancer starts HAProxy on a free port in front of instances and waits until it has
// found every one ready.
func startBalancer(dir string, instances []string) (*balancer, error) {
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		return nil, errNoHAProxy
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	errorFile := filepath.Join(dir, "503.http")
	if err := os.WriteFile(errorFile, []byte(unavailable503), 0o644); err != nil {
		return nil, err
	}
	var cfg strings.Builder
	if err := haproxyConfig.Execute(&cfg, map[string]any{"Addr": addr, "ErrorFile": errorFile, "Instances": instances}); err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfgPath, []byte(cfg.String()), 0o644); err != nil {
		return nil, err
	}
	log, err := os.Create(filepath.Join(dir, "haproxy.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-db", "-f", cfgPath)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("starting haproxy: %w", err)
	}
	b := &balancer{addr: addr, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); log.Close(); close(b.done) }()

	// Ready when a round of requests has been answered by every instance.
	client := &http.Client{Timeout: 2 * time.Second}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		seen := map[string]bool{}
		for range 2 * len(instances) {
			if resp, err := client.Get(b.base() + "/healthz"); err == nil {
				resp.Body.Close()
				seen[resp.Header.Get("X-Leadchat-Instance")] = resp.StatusCode == http.StatusOK
			}
		}
		delete(seen, "")
		ready := 0
		for _, ok := range seen {
			if ok {
				ready++
			}
		}
		if ready == len(instances) {
			return b, nil
		}
		select {
		case <-b.done:
			return nil, fmt.Errorf("haproxy exited:\n%s", tail(filepath.Join(dir, "haproxy.log"), 15))
		default:
		}
		if time.Now().After(deadline) {
			b.stop()
			return nil, fmt.Errorf("haproxy did not find %d ready instances in 20 s (saw %v):\n%s", len(instances), seen,
				tail(filepath.Join(dir, "haproxy.log"), 15))
		}
	}
}

func (b *balancer) base() string { return "http://" + b.addr }

func (b *balancer) stop() { stopGroup(b.cmd.Process.Pid, b.done, 5*time.Second) }
