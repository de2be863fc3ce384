package postgres

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"
)

// A login attempt is reserved before the password is checked, under a lock on its key (an
// email's, a client address's or a device's), so that parallel guesses are counted one by one:
// the count and the insert cannot interleave. Attempts older than the window are of no use to anyone and go at the same time.
const (
	lockLoginEmail      = `SELECT pg_advisory_xact_lock(hashtextextended(encode($1, 'hex'), 7))`
	purgeLoginAttempts  = `DELETE FROM login_attempts WHERE at <= now() - make_interval(secs => $1)`
	selectLoginAttempts = `
SELECT at FROM login_attempts WHERE email_hash = $1 AND at > now() - make_interval(secs => $2) ORDER BY at`
	insertLoginAttempt = `INSERT INTO login_attempts (email_hash) VALUES ($1) RETURNING id`
)

// ReserveLoginAttempt records a login attempt under a key unless max attempts are already
// recorded within window. It returns the attempt's id (0 when refused) and the times of the
// attempts in the window before this one, from which the caller tells how long to wait.
func (s *Store) ReserveLoginAttempt(ctx context.Context, key [32]byte, max int, window time.Duration) (int64, []time.Time, error) {
	var id int64
	var recent []time.Time
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, lockLoginEmail, key[:]); err != nil {
			return translate(err)
		}
		if _, err := tx.ExecContext(ctx, purgeLoginAttempts, window.Seconds()); err != nil {
			return translate(err)
		}
		if err := tx.SelectContext(ctx, &recent, selectLoginAttempts, key[:], window.Seconds()); err != nil {
			return translate(err)
		}
		if len(recent) >= max {
			return nil
		}
		return translate(tx.GetContext(ctx, &id, insertLoginAttempt, key[:]))
	})
	return id, recent, err
}

// ReleaseLoginAttempt forgets one reserved attempt that did not fail (a client address's
// attempt of a login that succeeded, or that was refused before its hash).
func (s *Store) ReleaseLoginAttempt(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, deleteLoginAttempt, id)
	return translate(err)
}

// Attempts are keyed by hashes of what they count, never by a company: a login comes before
// anyone knows whose it is.
const (
	deleteLoginAttempts = `DELETE FROM login_attempts WHERE email_hash = $1`
	deleteLoginAttempt  = `DELETE FROM login_attempts WHERE id = $1`
)

// ClearLoginAttempts forgets a key's attempts after a successful login.
func (s *Store) ClearLoginAttempts(ctx context.Context, key [32]byte) error {
	_, err := s.db.ExecContext(ctx, deleteLoginAttempts, key[:])
	return translate(err)
}
