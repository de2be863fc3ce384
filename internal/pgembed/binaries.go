package pgembed

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
)

// debianRoot is where Debian and Ubuntu install each PostgreSQL major version side by side,
// off PATH.
const debianRoot = "/usr/lib/postgresql"

// binaries are the server programs of one PostgreSQL installation.
type binaries struct {
	initdb   string
	postgres string
}

// findBinaries looks on PATH first, then under root/<version>/bin, newest version first.
func findBinaries(root string) (binaries, error) {
	var dirs []string
	if p, err := exec.LookPath("initdb"); err == nil {
		dirs = append(dirs, filepath.Dir(p))
		// A symlink on PATH (Homebrew, a hand-made /usr/local/bin link) leads to the real
		// installation, which has postgres beside initdb even when PATH does not.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	versioned, _ := filepath.Glob(filepath.Join(root, "*", "bin"))
	sort.SliceStable(versioned, func(i, j int) bool {
		return majorVersion(versioned[i]) > majorVersion(versioned[j])
	})
	dirs = append(dirs, versioned...)
	for _, d := range dirs {
		b := binaries{initdb: filepath.Join(d, "initdb"), postgres: filepath.Join(d, "postgres")}
		if isExecutable(b.initdb) && isExecutable(b.postgres) {
			return b, nil
		}
	}
	return binaries{}, fmt.Errorf("%w on PATH or in %s/*/bin: install them with "+
		"`apt-get install postgresql` (Debian, Ubuntu) or `brew install postgresql` (macOS), "+
		"or put the directory holding initdb and postgres on PATH", ErrNotInstalled, root)
}

// majorVersion reads the version from a .../<version>/bin path; "9.6" sorts below "15".
func majorVersion(binDir string) float64 {
	v, err := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	if err != nil {
		return -1
	}
	return v
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
