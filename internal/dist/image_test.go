//go:build dist

package dist_test

import (
	"archive/tar"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// image is what `podman image inspect` tells of an image that a test loaded from the archive of
// `make dist`; the image is removed when the test ends.
type image struct {
	ID           string
	Architecture string
	Os           string
	Config       struct {
		User         string
		Entrypoint   []string
		Cmd          []string
		Env          []string
		ExposedPorts map[string]struct{}
		Labels       map[string]string
	}
}

func loadImage(t *testing.T, podman, archive string) image {
	t.Helper()
	out := output(t, podman, "load", "-q", "-i", archive)
	// "Loaded image: localhost/leadchat:…" (podman 4), or "Loaded image(s): …"
	_, name, ok := strings.Cut(strings.TrimSpace(out), ": ")
	if !ok {
		t.Fatalf("podman load %s: %q", archive, out)
	}
	var imgs []image
	if err := json.Unmarshal([]byte(output(t, podman, "image", "inspect", name)), &imgs); err != nil || len(imgs) != 1 {
		t.Fatalf("podman image inspect %s: %v", name, err)
	}
	return imgs[0]
}

// TestImage loads each image archive into podman and checks its configuration: a non-root user,
// the entrypoint, the port, the labels of the release and the architecture.
func TestImage(t *testing.T) {
	podman := need(t, "podman", "podman")
	dir := distDir(t)
	r := binaryRelease(t, dir)
	for _, arch := range distArches(t) {
		img := loadImage(t, podman, filepath.Join(dir, "leadchat-image-linux-"+arch+".oci.tar"))
		c := img.Config
		if img.Architecture != arch || img.Os != "linux" {
			t.Errorf("%s image: %s/%s", arch, img.Os, img.Architecture)
		}
		if c.User != "65532:65532" {
			t.Errorf("%s image: user %q, want 65532:65532", arch, c.User)
		}
		if !slices.Equal(c.Entrypoint, []string{"/usr/bin/leadchat"}) || !slices.Equal(c.Cmd, []string{"serve"}) {
			t.Errorf("%s image: entrypoint %q, cmd %q", arch, c.Entrypoint, c.Cmd)
		}
		if _, ok := c.ExposedPorts["8080/tcp"]; !ok || len(c.ExposedPorts) != 1 {
			t.Errorf("%s image: exposes %v, want 8080/tcp", arch, c.ExposedPorts)
		}
		if !slices.Contains(c.Env, "LEADCHAT_ADDR=0.0.0.0:8080") {
			t.Errorf("%s image: env %q lacks LEADCHAT_ADDR=0.0.0.0:8080", arch, c.Env)
		}
		for k, want := range map[string]string{
			"org.opencontainers.image.version":  r.Version,
			"org.opencontainers.image.revision": r.Commit,
			"org.opencontainers.image.created":  r.Time,
			"org.opencontainers.image.source":   "https://github.com/leadchat/leadchat",
		} {
			if c.Labels[k] != want {
				t.Errorf("%s image: label %s=%q, want %q", arch, k, c.Labels[k], want)
			}
		}
	}
}

// TestImageServes takes the amd64 image's files out with podman create and export (this
// machine cannot run containers): exactly the binary and the CA certificates, no shell. The
// binary, with the image's environment, serves against the test PostgreSQL.
func TestImageServes(t *testing.T) {
	podman := need(t, "podman", "podman")
	dir := distDir(t)
	r := binaryRelease(t, dir)
	img := loadImage(t, podman, filepath.Join(dir, "leadchat-image-linux-amd64.oci.tar"))
	ctr := strings.TrimSpace(output(t, podman, "create", img.ID))
	t.Cleanup(func() { exec.Command(podman, "rm", "-f", ctr).Run() })
	root := t.TempDir()
	export := exec.Command(podman, "export", ctr)
	stdout, err := export.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := export.Start(); err != nil {
		t.Fatal(err)
	}
	files := untar(t, stdout, root)
	if err := export.Wait(); err != nil {
		t.Fatalf("podman export: %v", err)
	}
	// podman create adds the mount points and files of a container's runtime; the image's own
	// files are these: the binary, the certificates and the licences of the data it embeds.
	for _, f := range []string{"usr/bin/leadchat", "etc/ssl/certs/ca-certificates.crt", "usr/share/doc/leadchat/copyright",
		"usr/share/doc/leadchat/GPL-2.0", "usr/share/doc/leadchat/MPL-2.0", "usr/share/doc/leadchat/WordNet-3.0"} {
		if !slices.Contains(files, f) {
			t.Errorf("the image lacks /%s (it holds %q)", f, files)
		}
	}
	for _, f := range files {
		if strings.HasPrefix(f, "bin/") || strings.HasSuffix(f, "/sh") || strings.HasSuffix(f, "busybox") {
			t.Errorf("the image holds /%s", f)
		}
	}
	if got, want := sha256File(t, filepath.Join(root, "usr/bin/leadchat")), sha256File(t, filepath.Join(dir, "leadchat-linux-amd64")); got != want {
		t.Error("the image's /usr/bin/leadchat is not dist/leadchat-linux-amd64")
	}
	if got, want := sha256File(t, filepath.Join(root, "etc/ssl/certs/ca-certificates.crt")), sha256File(t, "/etc/ssl/certs/ca-certificates.crt"); got != want {
		t.Error("the image's CA certificates are not the build machine's")
	}
	bin := filepath.Join(root, "usr/bin/leadchat")
	if got := versionOf(t, bin); got != r {
		t.Errorf("the image's binary: %+v, the release %+v", got, r)
	}
	addr := freeAddr(t)
	// The image's environment, the address moved to loopback: the test runs no container
	// whose published port would do so.
	env := append(slices.Clone(img.Config.Env), "DATABASE_URL="+emptyDatabase(t), "LEADCHAT_ADDR="+addr)
	migrate := exec.Command(bin, "migrate")
	migrate.Env = env
	if out, err := migrate.CombinedOutput(); err != nil {
		t.Fatalf("leadchat migrate: %v\n%s", err, out)
	}
	serve := exec.Command(bin, img.Config.Cmd...)
	serve.Env = env
	serveAndCheck(t, serve, addr, r)
}

// untar writes the regular files of the tar stream under root and returns their paths.
func untar(t *testing.T, r io.Reader, root string) []string {
	t.Helper()
	var names []string
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(filepath.Clean("/"+h.Name), "/")
		if h.Typeflag != tar.TypeReg {
			if h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink {
				names = append(names, name)
			}
			continue
		}
		names = append(names, name)
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o777)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, tr); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}
