package postgres

import (
	"context"

	"github.com/leadchat/leadchat/internal/ratelimit"
)

var _ ratelimit.SharedStore = (*Store)(nil)

// The bucket arithmetic runs on the database's clock, so instances whose clocks disagree still
// share one budget. A refill is the tokens the bucket had plus perMinute/60 a second since it was
// last used, capped at perMinute; greatest(0, …) keeps a statement that started before a
// concurrent one committed from refilling backwards. Every SET expression sees the row as it
// was (the newest committed version, which ON CONFLICT locks), so the refill is written out
// each time it is needed.
const (
	takeToken = `
INSERT INTO rate_limit_buckets AS b (bucket, tokens, allowed, updated_at)
VALUES ($1, $2::float8 - 1, true, now())
ON CONFLICT (bucket) DO UPDATE SET
    allowed = least($2::float8, b.tokens + $2::float8 / 60 * greatest(0, extract(epoch FROM now() - b.updated_at)::float8)) >= 1,
    tokens = least($2::float8, b.tokens + $2::float8 / 60 * greatest(0, extract(epoch FROM now() - b.updated_at)::float8))
        - CASE WHEN least($2::float8, b.tokens + $2::float8 / 60 * greatest(0, extract(epoch FROM now() - b.updated_at)::float8)) >= 1
               THEN 1 ELSE 0 END,
    updated_at = greatest(b.updated_at, now())
RETURNING allowed, tokens`

	// A missing row is a full bucket.
	peekToken = `
SELECT coalesce((
    SELECT least($2::float8, tokens + $2::float8 / 60 * greatest(0, extract(epoch FROM now() - updated_at)::float8))
    FROM rate_limit_buckets WHERE bucket = $1), $2::float8)`

	purgeRateBuckets = `DELETE FROM rate_limit_buckets WHERE updated_at < now() - interval '1 minute'`
)

// TakeToken refills a bucket and, when take is set and a token is there, takes it: one
// statement per decision, whichever instance asks. It reports whether a token was there and how
// many are left.
func (s *Store) TakeToken(ctx context.Context, bucket []byte, perMinute int, take bool) (bool, float64, error) {
	r := runner{s: s}
	if !take {
		var tokens float64
		if err := r.get(ctx, &tokens, peekToken, bucket, float64(perMinute)); err != nil {
			return false, 0, err
		}
		return tokens >= 1, tokens, nil
	}
	var row struct {
		Allowed bool    `db:"allowed"`
		Tokens  float64 `db:"tokens"`
	}
	if err := r.get(ctx, &row, takeToken, bucket, float64(perMinute)); err != nil {
		return false, 0, err
	}
	return row.Allowed, row.Tokens, nil
}

// PurgeRateBuckets deletes the buckets untouched for a minute, which are full and so the same
// as none, and reports how many it deleted.
func (s *Store) PurgeRateBuckets(ctx context.Context) (int64, error) {
	res, err := s.db.ExecContext(ctx, purgeRateBuckets)
	if err != nil {
		return 0, translate(err)
	}
	return res.RowsAffected()
}
