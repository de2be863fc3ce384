//go:build dist

package dist_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"debug/buildinfo"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/testenv"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// distArches are the architectures `make dist` builds, the Makefile's DIST_ARCHES (GOARCH names,
// which for these are Debian's and OCI's too).
func distArches(t *testing.T) []string {
	t.Helper()
	mk, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^DIST_ARCHES\s*:=(.*)$`).FindSubmatch(mk)
	if m == nil || len(strings.Fields(string(m[1]))) == 0 {
		t.Fatal("the Makefile sets no DIST_ARCHES")
	}
	return strings.Fields(string(m[1]))
}

// distDir is the folder `make dist` wrote: LEADCHAT_DIST_DIR (set by `make test-dist`), else
// dist/ at the module's root. Without the artefacts the test fails: they are what it checks.
func distDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("LEADCHAT_DIST_DIR")
	if dir == "" {
		dir = filepath.Join(testenv.ModuleRoot(t), "dist")
	}
	if _, err := os.Stat(filepath.Join(dir, "SHA256SUMS")); err != nil {
		t.Fatalf("no release in %s: run `make dist` first (make test-dist does): %v", dir, err)
	}
	return dir
}

// need is the path of program, or fails t naming the Debian package that installs it.
func need(t *testing.T, program, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		t.Fatalf("this test needs %s: apt-get install %s", program, pkg)
	}
	return path
}

func output(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func git(t *testing.T, args ...string) string {
	t.Helper()
	return strings.TrimSpace(output(t, "git", append([]string{"-C", testenv.ModuleRoot(t)}, args...)...))
}

// release is what every artefact must say about the build: the binary's `version`.
type release struct {
	Version, Commit, Time string
}

// binaryRelease runs the host's binary of dir with `version` and checks the commit and its
// time against git.
func binaryRelease(t *testing.T, dir string) release {
	t.Helper()
	return versionOf(t, filepath.Join(dir, "leadchat-linux-amd64"))
}

func versionOf(t *testing.T, bin string) release {
	t.Helper()
	out := output(t, bin, "version")
	fields := map[string]string{}
	for line := range strings.Lines(out) {
		k, v, _ := strings.Cut(line, ":")
		fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	r := release{Version: fields["version"], Commit: fields["commit"], Time: fields["build time"]}
	head := git(t, "rev-parse", "HEAD")
	if strings.TrimSuffix(r.Commit, "-dirty") != head {
		t.Fatalf("%s version: commit %q, HEAD is %s (make dist again)", bin, r.Commit, head)
	}
	epoch, err := strconv.ParseInt(git(t, "log", "-1", "--format=%ct"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Unix(epoch, 0).UTC().Format(time.RFC3339); r.Time != want {
		t.Errorf("%s version: build time %q, want the commit's %s", bin, r.Time, want)
	}
	if tag := git(t, "tag", "--points-at", "HEAD", "--list", "v[0-9]*"); tag == "" {
		want := `^0\.0\.0~git\d{14}\.` + head[:12] + `$`
		if !regexp.MustCompile(want).MatchString(r.Version) {
			t.Errorf("%s version: %q, want %s between tags", bin, r.Version, want)
		}
	}
	if !strings.HasPrefix(fields["go"], "go1.") {
		t.Errorf("%s version: go %q", bin, fields["go"])
	}
	return r
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestChecksums(t *testing.T) {
	dir := distDir(t)
	r := binaryRelease(t, dir)
	f, err := os.Open(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var listed []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: %q is not sha256sum's format", sc.Text())
		}
		listed = append(listed, name)
		if got := sha256File(t, filepath.Join(dir, name)); got != sum {
			t.Errorf("SHA256SUMS: %s is %s, listed as %s", name, got, sum)
		}
	}
	var want []string
	for _, arch := range distArches(t) {
		want = append(want, "leadchat-linux-"+arch, "leadchat-linux-"+arch+".cdx.json",
			"leadchat_"+r.Version+"_"+arch+".deb", "leadchat-image-linux-"+arch+".oci.tar")
	}
	slices.Sort(want)
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("SHA256SUMS lists %q, want %q", listed, want)
	}
}

// TestStaticBinaries: each binary is a static ELF of its architecture, built without cgo, with
// -trimpath and the release's identity.
func TestStaticBinaries(t *testing.T) {
	dir := distDir(t)
	r := binaryRelease(t, dir)
	machine := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}
	for _, arch := range distArches(t) {
		path := filepath.Join(dir, "leadchat-linux-"+arch)
		f, err := elf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.Machine != machine[arch] {
			t.Errorf("%s: machine %v", path, f.Machine)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Errorf("%s is not static: it has a %v program header", path, p.Type)
			}
		}
		f.Close()
		bi, err := buildinfo.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		for k, v := range map[string]string{"CGO_ENABLED": "0", "-trimpath": "true", "GOOS": "linux", "GOARCH": arch} {
			if settings[k] != v {
				t.Errorf("%s: built with %s=%q, want %q", path, k, settings[k], v)
			}
		}
		// The identity comes from -ldflags (which -trimpath leaves out of the record), not from
		// the toolchain's vcs stamps, which would differ between a clean and a dirty tree.
		if settings["vcs"] != "" || settings["vcs.revision"] != "" {
			t.Errorf("%s: built with vcs stamps (%s %s): -buildvcs=false", path, settings["vcs"], settings["vcs.revision"])
		}
		if arch == "amd64" {
			if got := versionOf(t, path); got != r {
				t.Errorf("%s: %+v", path, got)
			}
		}
	}
}

// TestReproducible builds the binaries, the SBOMs, the packages and the images again into another
// folder: every byte must be the same.
func TestReproducible(t *testing.T) {
	need(t, "podman", "podman")
	dir := distDir(t)
	again := t.TempDir()
	cmd := exec.Command("make", "-s", "--no-print-directory", "dist-deb", "dist-sbom", "dist-image", "DIST_DIR="+again)
	cmd.Dir = testenv.ModuleRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make dist-deb dist-sbom dist-image again: %v\n%s", err, out)
	}
	r := binaryRelease(t, dir)
	var names []string
	for _, arch := range distArches(t) {
		names = append(names, "leadchat-linux-"+arch, "leadchat-linux-"+arch+".cdx.json",
			"leadchat_"+r.Version+"_"+arch+".deb", "leadchat-image-linux-"+arch+".oci.tar")
	}
	for _, name := range names {
		if a, b := sha256File(t, filepath.Join(dir, name)), sha256File(t, filepath.Join(again, name)); a != b {
			t.Errorf("%s differs between two builds: %s and %s", name, a, b)
		}
	}
}

// TestSBOM: each binary's SBOM names the release and lists exactly the modules linked into the
// binary, at their versions.
func TestSBOM(t *testing.T) {
	dir := distDir(t)
	r := binaryRelease(t, dir)
	for _, arch := range distArches(t) {
		bin := filepath.Join(dir, "leadchat-linux-"+arch)
		var bom struct {
			BOMFormat   string `json:"bomFormat"`
			SpecVersion string `json:"specVersion"`
			Metadata    struct {
				Component struct{ Name, Version string }
			}
			Components []struct{ Name, Version string }
		}
		b, err := os.ReadFile(bin + ".cdx.json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &bom); err != nil {
			t.Fatal(err)
		}
		if bom.BOMFormat != "CycloneDX" || bom.SpecVersion == "" {
			t.Errorf("%s.cdx.json: bomFormat %q, specVersion %q", bin, bom.BOMFormat, bom.SpecVersion)
		}
		if c := bom.Metadata.Component; c.Name != "github.com/leadchat/leadchat" || c.Version != r.Version {
			t.Errorf("%s.cdx.json describes %s %s, want github.com/leadchat/leadchat %s", bin, c.Name, c.Version, r.Version)
		}
		var got []string
		for _, c := range bom.Components {
			got = append(got, c.Name+"@"+c.Version)
		}
		// The binary's own record of its modules.
		bi, err := buildinfo.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, m := range bi.Deps {
			if m.Replace != nil {
				m = m.Replace
			}
			want = append(want, m.Path+"@"+m.Version)
		}
		slices.Sort(got)
		slices.Sort(want)
		if len(want) < 20 || !slices.Equal(got, want) {
			t.Errorf("%s.cdx.json's components:\n%s\nthe binary's modules:\n%s", bin, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func debPath(t *testing.T, dir, arch string) string {
	return filepath.Join(dir, "leadchat_"+binaryRelease(t, dir).Version+"_"+arch+".deb")
}

// TestDebMetadata reads each package with dpkg-deb: its control fields, its conffile, and its
// files with their modes, owners and times.
func TestDebMetadata(t *testing.T) {
	dpkg := need(t, "dpkg-deb", "dpkg")
	dir := distDir(t)
	r := binaryRelease(t, dir)
	epoch, _ := strconv.ParseInt(git(t, "log", "-1", "--format=%ct"), 10, 64)
	stamp := time.Unix(epoch, 0).Local().Format("2006-01-02 15:04")
	for _, arch := range distArches(t) {
		deb := debPath(t, dir, arch)
		for field, want := range map[string]string{"Package": "leadchat", "Version": r.Version, "Architecture": arch, "Section": "net"} {
			if got := strings.TrimSpace(output(t, dpkg, "--field", deb, field)); got != want {
				t.Errorf("%s: %s %q, want %q", deb, field, got, want)
			}
		}
		for _, field := range []string{"Maintainer", "Description", "Homepage"} {
			if strings.TrimSpace(output(t, dpkg, "--field", deb, field)) == "" {
				t.Errorf("%s: no %s", deb, field)
			}
		}
		if got := strings.TrimSpace(output(t, dpkg, "--info", deb, "conffiles")); got != "/etc/leadchat/leadchat.env" {
			t.Errorf("%s: conffiles %q", deb, got)
		}
		for _, script := range []string{"postinst", "prerm", "postrm"} {
			if !strings.HasPrefix(output(t, dpkg, "--info", deb, script), "#!/bin/sh") {
				t.Errorf("%s: no %s script", deb, script)
			}
		}
		files := map[string]string{}
		for line := range strings.Lines(output(t, dpkg, "--contents", deb)) {
			f := strings.Fields(line)
			if len(f) < 6 {
				t.Fatalf("dpkg-deb --contents: %q", line)
			}
			if !strings.HasSuffix(f[5], "/") {
				files[f[5]] = f[0] + " " + f[1]
			}
			if f[3]+" "+f[4] != stamp {
				t.Errorf("%s: %s dated %s %s, want the commit's %s", deb, f[5], f[3], f[4], stamp)
			}
		}
		want := map[string]string{
			"./usr/bin/leadchat":                    "-rwxr-xr-x root/root",
			"./lib/systemd/system/leadchat.service": "-rw-r--r-- root/root",
			"./etc/leadchat/leadchat.env":           "-rw------- root/root",
			"./usr/share/doc/leadchat/copyright":    "-rw-r--r-- root/root",
			"./usr/share/doc/leadchat/GPL-2.0":      "-rw-r--r-- root/root",
			"./usr/share/doc/leadchat/MPL-2.0":      "-rw-r--r-- root/root",
			"./usr/share/doc/leadchat/WordNet-3.0":  "-rw-r--r-- root/root",
		}
		if fmt.Sprint(files) != fmt.Sprint(want) {
			t.Errorf("%s holds %v, want %v", deb, files, want)
		}
		root := t.TempDir()
		output(t, dpkg, "-x", deb, root)
		if got, want := sha256File(t, filepath.Join(root, "usr/bin/leadchat")), sha256File(t, filepath.Join(dir, "leadchat-linux-"+arch)); got != want {
			t.Errorf("%s: /usr/bin/leadchat is not %s", deb, "leadchat-linux-"+arch)
		}
	}
}

// TestEnvFileDocumentsEveryVariable: the packaged environment file names every variable of the
// README's Configuration table, so that an operator finds each setting where they edit.
func TestEnvFileDocumentsEveryVariable(t *testing.T) {
	root := testenv.ModuleRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "\n## Configuration\n")
	section, _, _ = strings.Cut(section, "\n## ")
	env, err := os.ReadFile(filepath.Join(root, "internal/dist/leadchat.env"))
	if err != nil {
		t.Fatal(err)
	}
	vars := regexp.MustCompile("(?m)^\\| `([A-Z_]+)`").FindAllStringSubmatch(section, -1)
	if len(vars) < 20 {
		t.Fatalf("the README's Configuration table has %d variables", len(vars))
	}
	for _, v := range vars {
		if !regexp.MustCompile(`(?m)^#?` + v[1] + `=`).Match(env) {
			t.Errorf("internal/dist/leadchat.env does not mention %s", v[1])
		}
	}
}

// TestUnitVerifies runs systemd-analyze verify on the packaged unit, in the tree the package
// unpacks to, so that its paths resolve; a unit with a mistake (a bad value, a missing program,
// a misspelt setting) must fail the same check, or the check proves nothing.
func TestUnitVerifies(t *testing.T) {
	analyze := need(t, "systemd-analyze", "systemd")
	dpkg := need(t, "dpkg-deb", "dpkg")
	dir := distDir(t)
	// The tree holds the machine's units too, which ours needs (sysinit.target, …).
	root := t.TempDir()
	units := filepath.Join(root, "lib/systemd/system")
	if err := os.MkdirAll(units, 0o755); err != nil {
		t.Fatal(err)
	}
	output(t, "cp", "-a", "/lib/systemd/system/.", units)
	output(t, dpkg, "-x", debPath(t, dir, "amd64"), root)
	unit := filepath.Join(units, "leadchat.service")
	if out, err := verify(analyze, root, unit); err != nil {
		t.Errorf("systemd-analyze verify leadchat.service: %v\n%s", err, out)
	}
	b, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	for _, setting := range []string{"DynamicUser=yes", "ProtectSystem=strict", "ProtectHome=yes", "NoNewPrivileges=yes",
		"PrivateTmp=yes", "CapabilityBoundingSet=\n", "RestrictAddressFamilies=", "SystemCallFilter=@system-service",
		"EnvironmentFile=/etc/leadchat/leadchat.env", "ExecStartPre=/usr/bin/leadchat migrate", "ExecStart=/usr/bin/leadchat serve"} {
		if !strings.Contains(string(b), "\n"+setting) {
			t.Errorf("leadchat.service lacks %q", strings.TrimSpace(setting))
		}
	}
	// The README's several-instances setup: a template of the unit, each instance's port its name.
	readme, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var script []string
	for line := range strings.Lines(string(readme)) {
		if strings.HasPrefix(line, "cp /lib/systemd/system/leadchat.service ") || strings.HasPrefix(line, "sed -i '/^EnvironmentFile=/a ") {
			script = append(script, strings.NewReplacer(" /lib/", " "+root+"/lib/", " /etc/", " "+root+"/etc/").Replace(line))
		}
	}
	if len(script) != 2 {
		t.Fatalf("README: the several-instances setup has %d of its 2 lines (cp, sed)", len(script))
	}
	if err := os.MkdirAll(filepath.Join(root, "etc/systemd/system"), 0o755); err != nil {
		t.Fatal(err)
	}
	output(t, "bash", "-euc", strings.Join(script, ""))
	instance := filepath.Join(root, "etc/systemd/system/leadchat@8081.service")
	if out, err := verify(analyze, root, instance); err != nil {
		t.Errorf("systemd-analyze verify leadchat@8081.service (README): %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "etc/systemd/system/leadchat@.service")); !strings.Contains(string(b), "\nEnvironment=LEADCHAT_ADDR=127.0.0.1:%i\n") {
		t.Errorf("the README's leadchat@.service sets no port from the instance name:\n%s", b)
	}

	for _, broken := range []string{
		strings.Replace(string(b), "ProtectSystem=strict", "ProtectSystem=stricter", 1),
		strings.Replace(string(b), "ExecStart=/usr/bin/leadchat serve", "ExecStart=/usr/bin/leadchat-missing serve", 1),
		strings.Replace(string(b), "NoNewPrivileges=yes", "NoNewPrivileges=yes\nNoNewPrivilege=yes", 1),
	} {
		if err := os.WriteFile(unit, []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := verify(analyze, root, unit); err == nil {
			t.Errorf("systemd-analyze verify passed a broken unit:\n%s", out)
		}
	}
}

// verify is systemd-analyze verify of unit, with its paths looked up under root; any message
// about the unit fails it (systemd-analyze exits 0 on some warnings).
func verify(analyze, root, unit string) (string, error) {
	cmd := exec.Command(analyze, "verify", "--root="+root, "--man=no", unit)
	out, err := cmd.CombinedOutput()
	if err == nil && strings.Contains(string(out), "leadchat") {
		err = fmt.Errorf("messages about the unit")
	}
	return string(out), err
}

// TestDebServes unpacks the amd64 package, runs its unit's ExecStartPre and ExecStart with its
// environment file (DATABASE_URL pointed at an empty test database, a free port) and asks the
// service for /healthz and /metrics.
func TestDebServes(t *testing.T) {
	dpkg := need(t, "dpkg-deb", "dpkg")
	dir := distDir(t)
	r := binaryRelease(t, dir)
	root := t.TempDir()
	output(t, dpkg, "-x", debPath(t, dir, "amd64"), root)
	unit, err := os.ReadFile(filepath.Join(root, "lib/systemd/system/leadchat.service"))
	if err != nil {
		t.Fatal(err)
	}
	env := envFile(t, filepath.Join(root, "etc/leadchat/leadchat.env"))
	if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "DATABASE_URL=") }) {
		t.Fatal("leadchat.env sets no DATABASE_URL")
	}
	dsn := emptyDatabase(t)
	addr := freeAddr(t)
	env = append(env, "DATABASE_URL="+dsn, "LEADCHAT_ADDR="+addr)
	var pre, start []string
	for line := range strings.Lines(string(unit)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "ExecStartPre="); ok {
			pre = strings.Fields(v)
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "ExecStart="); ok {
			start = strings.Fields(v)
		}
	}
	if len(pre) == 0 || len(start) == 0 {
		t.Fatalf("leadchat.service has no ExecStartPre or ExecStart")
	}
	inRoot := func(argv []string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(root, argv[0]), argv[1:]...)
		cmd.Env = env
		return cmd
	}
	if out, err := inRoot(pre).CombinedOutput(); err != nil {
		t.Fatalf("ExecStartPre %v: %v\n%s", pre, err, out)
	}
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := postgres.SchemaCurrent(context.Background(), db); err != nil {
		t.Fatalf("after ExecStartPre: %v", err)
	}
	serveAndCheck(t, inRoot(start), addr, r)
	if got := versionOf(t, filepath.Join(root, "usr/bin/leadchat")); got != r {
		t.Errorf("the packaged binary's version %+v, the release's %+v", got, r)
	}
}

// envFile reads a systemd EnvironmentFile as NAME=value pairs, as systemd does for ours: no
// quotes, no expansion, # comments.
func envFile(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin"}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.Contains(line, "=") || strings.ContainsAny(line, `"'$`) {
			t.Fatalf("%s: %q is not a plain NAME=value line", path, line)
		}
		env = append(env, line)
	}
	return env
}

// emptyDatabase is a test database emptied, for `leadchat migrate` to fill.
func emptyDatabase(t *testing.T) string {
	t.Helper()
	dsn := pgtest.NewDSN(t)
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The migrations' objects, pg_trgm's among them, and goose's record of them are all in
	// the public schema.
	if _, err := db.Exec(`DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
		t.Fatal(err)
	}
	return dsn
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// serveAndCheck starts cmd (leadchat serve listening on addr), waits for /healthz, checks
// /metrics' leadchat_build_info against r, then stops it with SIGTERM: it must end with 0.
func serveAndCheck(t *testing.T, cmd *exec.Cmd, addr string, r release) {
	t.Helper()
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			<-exited
		}
	}()
	base := "http://" + addr
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || !strings.Contains(string(body), `"status":"ok"`) {
				t.Fatalf("/healthz: %d %s", res.StatusCode, body)
			}
			break
		}
		select {
		case err := <-exited:
			stopped = true
			t.Fatalf("leadchat serve ended before answering: %v\n%s", err, logs.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("leadchat serve did not answer /healthz within a minute: %v\n%s", err, logs.String())
		}
	}
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	want := fmt.Sprintf(`leadchat_build_info{build_time=%q,goversion=`, r.Time)
	line := regexp.MustCompile(`(?m)^leadchat_build_info\{.*$`).FindString(string(body))
	if !strings.HasPrefix(line, want) || !strings.Contains(line, fmt.Sprintf(`revision=%q,version=%q} 1`, r.Commit, r.Version)) {
		t.Errorf("/metrics: %q, want the release %+v", line, r)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		stopped = true
		if err != nil {
			t.Errorf("leadchat serve after SIGTERM: %v\n%s", err, logs.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("leadchat serve still runs a minute after SIGTERM\n%s", logs.String())
	}
}
