package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/alexedwards/scs/postgresstore"
	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/user"
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

// findSessionViewer is findSession with the viewer the session names, in one round trip
// instead of two (every dashboard page reads both). The data is read as JSON, where $2 and $3
// (text[] paths) find the user's and the company's ids; data that is not JSON (a gob session
// of before), ids that are not UUIDs in their usual form, or a user who is no longer the
// company's member give no row, as no session does. The guards keep such data from failing
// the statement: PostgreSQL evaluates a CASE's branch only when its condition holds.
const findSessionViewer = `
SELECT s.data, ` + viewerColumns + sessionViewerFrom + sessionLive

// sessionViewerFrom joins the session s to its member m, user u and company c.
const sessionViewerFrom = `
FROM sessions s
CROSS JOIN LATERAL (
    SELECT doc #>> $2::text[] AS user_id, doc #>> $3::text[] AS company_id
    FROM (SELECT CASE WHEN substring(s.data FROM 1 FOR 1) = '\x7b'::bytea
                      THEN convert_from(s.data, 'UTF8')::jsonb END AS doc) j) ids
JOIN memberships m
  ON m.company_id = CASE WHEN ids.company_id ~ '` + uuidPattern + `' THEN ids.company_id::uuid END
 AND m.user_id = CASE WHEN ids.user_id ~ '` + uuidPattern + `' THEN ids.user_id::uuid END
JOIN users u ON u.id = m.user_id
JOIN companies c ON c.id = m.company_id`

// sessionLive finds the live session of the token $1.
const sessionLive = `
WHERE s.token = $1 AND current_timestamp < s.expiry`

// findSessionLeadFile is findSessionViewer with the file of the lead $4 of the session's
// company, as selectLeadFile reads it with up to $5 of the same person's other leads: the lead
// page's one round trip, where the lookup and the file were two statements, each with its
// own work per statement on both sides. No row when findSessionViewer gives none, or the
// company has no such lead.
const findSessionLeadFile = `
SELECT s.data, ` + leadColumns + leadFileLists + `$5` + leadFileListsEnd + `, ` + viewerColumns + sessionViewerFrom + `
JOIN leads l ON l.company_id = m.company_id AND l.id = $4` + sessionLive

// uuidPattern is a UUID's usual text, as uuid.UUID's String writes it.
const uuidPattern = `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`

// FindViewerCtx returns the data of the live session with the token and the viewer it names:
// the user at userPath of the data read as JSON (a path of object keys), as a member of the
// company at companyPath, as Viewer returns them. found is false when there is no such session
// or it names no member, or not in JSON; FindCtx tells those apart.
func (ss *SessionStore) FindViewerCtx(ctx context.Context, token string, userPath, companyPath []string) (data []byte, v user.Viewer, found bool, err error) {
	st, err := ss.s.stmt(ctx, findSessionViewer)
	if err != nil {
		return nil, user.Viewer{}, false, err
	}
	v, err = scanViewer(st.QueryRowContext(ctx, token, pq.StringArray(userPath), pq.StringArray(companyPath)), &data)
	if errs.Is(err, errs.NotFound) {
		return nil, user.Viewer{}, false, nil
	}
	if err != nil {
		return nil, user.Viewer{}, false, err
	}
	return data, v, true, nil
}

// findSessionTeamlessLeadFile is findSessionLeadFile without the company's users and the
// viewer's companies, which the team cache holds while it is live.
const findSessionTeamlessLeadFile = `
SELECT s.data, ` + leadColumns + leadFileTeamlessLists + `$5` + leadFileListsEnd + `, ` + viewerOwnColumns + sessionViewerFrom + `
JOIN leads l ON l.company_id = m.company_id AND l.id = $4` + sessionLive

// FindViewerLeadFileCtx is FindViewerCtx that also reads the file of the lead of the session's
// company, as LeadFile does with up to related of the same person's other leads. found is
// false when FindViewerCtx's would be, or the company has no such lead. While the team cache
// is live, the company's users and the viewer's companies come from it, and the statement
// reads neither.
func (ss *SessionStore) FindViewerLeadFileCtx(ctx context.Context, token string, userPath, companyPath []string,
	leadID uuid.UUID, related int) (data []byte, v user.Viewer, f lead.File, users []user.User, found bool, err error) {
	teamless := ss.s.team.live()
	q := findSessionLeadFile
	if teamless {
		q = findSessionTeamlessLeadFile
	}
	st, err := ss.s.stmt(ctx, q)
	if err != nil {
		return nil, user.Viewer{}, lead.File{}, nil, false, err
	}
	if err := ss.s.fileTurn(ctx); err != nil {
		return nil, user.Viewer{}, lead.File{}, nil, false, err
	}
	var row fileRow
	r := st.QueryRowContext(ctx, token, pq.StringArray(userPath), pq.StringArray(companyPath), leadID, related)
	if teamless {
		v, err = scanViewerThen(r, append(append([]any{&data}, row.r.dest()...), row.lists.teamlessDest()...))
	} else {
		v, err = scanViewer(r, append([]any{&data}, row.dest()...)...)
	}
	ss.s.endFileTurn()
	if errs.Is(err, errs.NotFound) {
		return nil, user.Viewer{}, lead.File{}, nil, false, nil
	}
	if err != nil {
		return nil, user.Viewer{}, lead.File{}, nil, false, err
	}
	if f, users, err = row.file(); err != nil {
		return nil, user.Viewer{}, lead.File{}, nil, false, err
	}
	if teamless {
		if users, err = ss.s.teamUsers(ctx, v.CompanyID); err != nil {
			return nil, user.Viewer{}, lead.File{}, nil, false, err
		}
		if v.Companies, err = ss.s.teamCompanies(ctx, v.ID); err != nil {
			return nil, user.Viewer{}, lead.File{}, nil, false, err
		}
	}
	return data, v, f, users, true, nil
}
