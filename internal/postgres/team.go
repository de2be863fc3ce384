package postgres

import (
	"context"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/cache"
	"github.com/leadchat/leadchat/internal/user"
)

// teamTopic is the cache channel's payload that the triggers of memberships, users and
// companies send (migration 20261203000000_team_notify): who is in a company, a user's
// address or a company's name changed.
const teamTopic = "team"

// teamCache keeps, while the change feed is live, the lists that every lead page shows beside
// the lead and that change only when a team does: a company's users (the assignee select) and
// a user's companies (the switcher). Read on each page, they were a tenth of PostgreSQL's CPU
// for the page's statement (BenchmarkLeadFileParts).
type teamCache struct {
	users     *cache.Map[uuid.UUID, []user.User]       // by company: ids and addresses
	companies *cache.Map[uuid.UUID, []user.Membership] // by user
}

func newTeamCache() teamCache {
	return teamCache{users: cache.New[uuid.UUID, []user.User](teamTopic),
		companies: cache.New[uuid.UUID, []user.Membership](teamTopic)}
}

// TeamCache is the team cache's follower of the change feed (Listen): until it is told the
// feed is live, lead pages read the lists with the lead, as they did without it.
func (s *Store) TeamCache() cache.Follower { return cache.Group{s.team.users, s.team.companies} }

// live is whether the lists are kept.
func (t teamCache) live() bool { return t.users.IsLive() && t.companies.IsLive() }

// selectTeam is a company's users as the lead page's assignee select shows them (ids and
// addresses), the longest-standing member first, as leadFileUsersList reads them.
const selectTeam = `
SELECT u.id, u.email
FROM memberships m JOIN users u ON u.id = m.user_id
WHERE m.company_id = $1 ORDER BY m.created_at, u.id`

// teamUsers returns the company's users (ids and addresses), from the cache when it holds them.
func (s *Store) teamUsers(ctx context.Context, companyID uuid.UUID) ([]user.User, error) {
	return s.team.users.Get(ctx, companyID, func(ctx context.Context) ([]user.User, error) {
		st, err := s.stmt(ctx, selectTeam)
		if err != nil {
			return nil, err
		}
		rows, err := st.QueryContext(ctx, companyID)
		if err != nil {
			return nil, translate(err)
		}
		defer rows.Close()
		var users []user.User
		for rows.Next() {
			var u user.User
			if err := rows.Scan(&u.ID, &u.Email); err != nil {
				return nil, translate(err)
			}
			users = append(users, u)
		}
		return users, translate(rows.Err())
	})
}

// teamCompanies returns the companies the user is a member of (Memberships), from the cache
// when it holds them.
func (s *Store) teamCompanies(ctx context.Context, userID uuid.UUID) ([]user.Membership, error) {
	return s.team.companies.Get(ctx, userID, func(ctx context.Context) ([]user.Membership, error) {
		return s.Memberships(ctx, userID)
	})
}
