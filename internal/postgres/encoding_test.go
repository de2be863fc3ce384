package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// The store refuses a database whose encoding is not UTF8: a list page reads its texts as
// bytea, in the database's encoding, with no conversion to the client's UTF8.
func TestOpenRefusesADatabaseNotInUTF8(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewBareDSN(t, "ENCODING 'LATIN2' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
	s, err := postgres.Open(context.Background(), dsn, postgres.Options{MaxOpenConns: 1})
	if err == nil {
		s.Close()
		t.Fatal("opened a LATIN2 database")
	}
	if !strings.Contains(err.Error(), "LATIN2") {
		t.Errorf("error %q does not name the encoding", err)
	}
}
