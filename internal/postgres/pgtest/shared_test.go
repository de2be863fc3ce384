package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A shared cluster allows the connections asked for, and its stop leaves no folder behind.
func TestShared(t *testing.T) {
	dsn, stop, err := Shared(context.Background(), io.Discard, 321)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		stop()
		t.Fatal(err)
	}
	var maxConns, dir string
	err = db.QueryRow("SHOW max_connections").Scan(&maxConns)
	if err == nil {
		err = db.QueryRow("SHOW data_directory").Scan(&dir)
	}
	db.Close()
	if stopErr := stop(); stopErr != nil {
		t.Errorf("stop: %v", stopErr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if maxConns != "321" {
		t.Errorf("max_connections = %s, want 321", maxConns)
	}
	if _, err := os.Stat(filepath.Dir(dir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the cluster's folder %s is still there after stop (%v)", filepath.Dir(dir), err)
	}
}
