package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/alexedwards/scs/postgresstore"
)

// SessionStore is the dashboard's session store: scs's postgresstore over the sessions table,
// which removes expired sessions every cleanup interval until StopCleanup is called, with the
// lookup that every dashboard request makes run as a prepared statement. postgresstore's own
// runs the query text unprepared, which lib/pq does in two round trips (parse, then run) and
// PostgreSQL parses and plans every time.
type SessionStore struct {
	*postgresstore.PostgresStore
	s *Store
}

// SessionStore returns the dashboard's session store.
func (s *Store) SessionStore(cleanup time.Duration) *SessionStore {
	return &SessionStore{postgresstore.NewWithConfig(s.db.DB, postgresstore.Config{CleanUpInterval: cleanup, TableName: "sessions"}), s}
}

// findSession is postgresstore's lookup: a live session's data by its (hashed) token.
const findSession = `SELECT data FROM sessions WHERE token = $1 AND current_timestamp < expiry`

// FindCtx returns the data of the live session with the token, and whether there is one.
func (ss *SessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	st, err := ss.s.stmt(ctx, findSession)
	if err != nil {
		return nil, false, err
	}
	var b []byte
	err = st.QueryRowContext(ctx, token).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}
