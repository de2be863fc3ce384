package postgres_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// The store refuses a database whose encoding is not UTF8: a list page reads its texts as
// bytea, in the database's encoding, with no conversion to the client's UTF8.
func TestOpenRefusesADatabaseNotInUTF8(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.New(t)
	name := fmt.Sprintf("latin2_%d", time.Now().UnixNano())
	if _, err := db.ExecContext(ctx, `CREATE DATABASE `+name+` ENCODING 'LATIN2' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.ExecContext(ctx, `DROP DATABASE `+name) })
	dsn := pgtest.NewDSN(t)
	u, err := url.Parse(dsn)
	if err != nil || !strings.HasPrefix(u.Scheme, "postgres") {
		dsn += " dbname=" + name
	} else {
		u.Path, u.RawPath = "/"+name, ""
		dsn = u.String()
	}
	s, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 1})
	if err == nil {
		s.Close()
		t.Fatal("opened a LATIN2 database")
	}
	if !strings.Contains(err.Error(), "LATIN2") {
		t.Errorf("error %q does not name the encoding", err)
	}
}
