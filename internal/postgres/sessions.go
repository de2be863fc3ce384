package postgres

import (
	"time"

	"github.com/alexedwards/scs/postgresstore"
)

// SessionStore is the dashboard's session store: scs's postgresstore over the sessions table,
// which removes expired sessions every cleanup interval until StopCleanup is called.
func (s *Store) SessionStore(cleanup time.Duration) *postgresstore.PostgresStore {
	return postgresstore.NewWithConfig(s.db.DB, postgresstore.Config{CleanUpInterval: cleanup, TableName: "sessions"})
}
