package postgres

import (
	"context"
	"crypto/rand"
)

// A server secret is made by whichever instance asks first; the others read that one, so every
// instance signs and checks with the same key. It belongs to no company.
const (
	insertServerSecret = `INSERT INTO server_secrets (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`
	selectServerSecret = `SELECT secret FROM server_secrets WHERE name = $1`
)

// ServerSecret returns the server's secret of that name (32 random bytes), made on first use.
func (s *Store) ServerSecret(ctx context.Context, name string) ([]byte, error) {
	fresh := make([]byte, 32)
	rand.Read(fresh)
	if _, err := s.db.ExecContext(ctx, insertServerSecret, name, fresh); err != nil {
		return nil, translate(err)
	}
	var secret []byte
	return secret, translate(s.db.GetContext(ctx, &secret, selectServerSecret, name))
}
