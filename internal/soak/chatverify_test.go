//go:build soak

package soak

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"
)

// chatFigures is what the database holds of the visitors' messages.
type chatFigures struct {
	stored     int // messages stored (a visitor row with its message_id)
	duplicates int // rows beyond one visitor message and one reply per message_id
	unanswered int // stored messages whose sender never got a 200 during the run
	lost       int // answered 200 during the run, not in the database
}

// One visitor row and one reply row carry each message_id.
const selectChatTurns = `
SELECT session_id, message_id, count(*) FILTER (WHERE visitor), count(*) FILTER (WHERE NOT visitor)
FROM chat_messages WHERE company_id = $1 AND message_id IS NOT NULL GROUP BY 1, 2`

// verifyChat holds the database against every message sent: each answered one is stored with
// its reply, once; none is stored that no visitor sent. acked says which were answered during
// the run (before settle resent the rest).
func verifyChat(ctx context.Context, dsn string, companyID uuid.UUID, turns []*turn, acked map[*turn]bool) (chatFigures, []string, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return chatFigures{}, nil, err
	}
	defer db.Close()
	type counts struct{ visitor, replies int }
	stored := map[[2]string]counts{}
	err = scan(ctx, db, selectChatTurns, companyID, func(rows *sql.Rows) error {
		var session, id string
		var c counts
		if err := rows.Scan(&session, &id, &c.visitor, &c.replies); err != nil {
			return err
		}
		stored[[2]string{session, id}] = c
		return nil
	})
	if err != nil {
		return chatFigures{}, nil, err
	}
	var fig chatFigures
	var problems []string
	sent := map[[2]string]bool{}
	for _, t := range turns {
		k := [2]string{t.session, t.messageID}
		sent[k] = true
		c, ok := stored[k]
		switch {
		case !ok && acked[t]:
			fig.lost++
			problems = append(problems, fmt.Sprintf("lost: chat message %s of session %s was answered 200 (%d attempts) and is not in the database",
				t.messageID, t.session, t.attempts))
		case !ok:
		case c.visitor != 1 || c.replies != 1:
			fig.duplicates += max(c.visitor-1, 0) + max(c.replies-1, 0)
			problems = append(problems, fmt.Sprintf("chat message %s is stored %d times with %d replies", t.messageID, c.visitor, c.replies))
		}
		if ok {
			fig.stored++
			if !acked[t] {
				fig.unanswered++
			}
		}
	}
	for k := range stored {
		if !sent[k] {
			problems = append(problems, fmt.Sprintf("chat message %s of session %s is stored, and no visitor sent it", k[1], k[0]))
		}
	}
	return fig, problems, nil
}
