package postgres

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/leadjson"
)

// insertLeads is the one statement that stores leads: every create (API with or without an
// Idempotency-Key, form, chat) goes through it, alone or in a group. $1 is a JSON array of
// leadRow, ord giving the order of arrival.
//
// Each company's monthly counter goes up by its number of leads in one upsert, the counter rows
// taken in company id order so that concurrent groups cannot deadlock; the upsert holds the
// counter row's lock until commit, which serialises a company's creates and makes every count
// exact and distinct. Each lead gets the count it would have got alone, in arrival order, and
// is over_limit when that count passes its limit. The month is UTC, as the limit is defined.
// The day's counts of leads by source and by referral value (lead_daily, lead_referral_daily),
// which the overview reads, go up in the same statement; their rows are taken in key order.
// A company with round_robin on gives each lead to one of its users in turn: the lead numbered n
// in the month goes to the user n mod (number of users) in id order, so the counter that already
// serialises the company's creates also takes the turns, and no other row is written.
// A lead created with an Idempotency-Key records the key with its outcome in the same
// statement, so a retry finds either both or neither. Each lead's lead.created is recorded in
// the statement too (outbox.go), with the event id its row carries (a UUIDv7 made here, as
// outbox_id would make it), from the rows the statement inserts rather than from a RETURNING
// of the insert: the insert stores every row or fails the statement.
//
// The statement comes in four forms (insertLeadsFor): the referral counts and the key's record
// are left out when no lead of the group has referral data or a key. They would write nothing
// then, but PostgreSQL still sets up their plan nodes, opens their tables and indexes and runs
// their scans on every execution; a group of the API's creates (no key joins a group) rarely
// has either.
var insertLeads = insertLeadsSQL(true, true)

// insertLeadsFor holds insertLeads' forms, by [referral][key]: [true][true] is insertLeads.
var insertLeadsFor = [2][2]string{
	{insertLeadsSQL(false, false), insertLeadsSQL(false, true)},
	{insertLeadsSQL(true, false), insertLeads},
}

func insertLeadsSQL(referral, keys bool) string {
	q := `
WITH batch AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(
        ord int, company_id uuid, id uuid, event_id uuid, first_name text, last_name text, email text,
        phone text, phone_e164 text, service text, details jsonb, source text,
        referral_data jsonb, consent jsonb, lead_limit int, idem_key text, request_hash text)
), counter AS (
    INSERT INTO lead_counters AS lc (company_id, month, count)
    SELECT company_id, date_trunc('month', now() AT TIME ZONE 'UTC')::date, count(*)
    FROM batch GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, month) DO UPDATE SET count = lc.count + excluded.count
    RETURNING company_id, count
), numbered AS (
    SELECT b.*, c.count - count(*) OVER w + row_number() OVER (w ORDER BY b.ord) AS n
    FROM batch b JOIN counter c USING (company_id)
    WINDOW w AS (PARTITION BY b.company_id)
), decided AS (
    SELECT numbered.*, lead_limit IS NOT NULL AND n > lead_limit AS over_limit
    FROM numbered
), daily AS (
    INSERT INTO lead_daily AS ld (company_id, day, source, count)
    SELECT company_id, (now() AT TIME ZONE 'Europe/Budapest')::date, source, count(*)
    FROM batch GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (company_id, day, source) DO UPDATE SET count = ld.count + excluded.count
), `
	if referral {
		q += `referral AS (
    INSERT INTO lead_referral_daily AS lr (company_id, day, key, value_key, value, count)
    SELECT b.company_id, (now() AT TIME ZONE 'Europe/Budapest')::date, k, md5(b.referral_data->>k)::uuid,
           b.referral_data->>k, count(*)
    FROM batch b, unnest(ARRAY['utm_source', 'landing_page']) AS k
    WHERE b.referral_data->>k <> ''
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
    ON CONFLICT (company_id, day, key, value_key) DO UPDATE SET count = lr.count + excluded.count
), `
	}
	q += `turn AS (
    SELECT cm.company_id, cm.user_id AS id, row_number() OVER w - 1 AS k, count(*) OVER w AS m
    FROM companies c JOIN memberships cm ON cm.company_id = c.id
    WHERE c.id IN (SELECT company_id FROM batch) AND c.round_robin
    WINDOW w AS (PARTITION BY cm.company_id ORDER BY cm.user_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
), assigned AS (
    SELECT d.*, t.id AS assignee_id
    FROM decided d LEFT JOIN turn t ON t.company_id = d.company_id AND t.k = d.n % t.m
), inserted AS (
    INSERT INTO leads (company_id, id, first_name, last_name, email, phone, phone_e164, service,
                       details, source, referral_data, consent, over_limit, status, assignee_id)
    SELECT company_id, id, first_name, last_name, email, phone, phone_e164, service,
           details, source, referral_data, consent, over_limit,
           CASE WHEN over_limit THEN 'over_limit' ELSE 'new' END, assignee_id
    FROM assigned
), `
	if keys {
		q += `keys AS (
    INSERT INTO idempotency_keys (company_id, key, request_hash, lead_id, over_limit, lead_limit, lead_count)
    SELECT company_id, idem_key, decode(request_hash, 'hex'), id, over_limit, lead_limit, n
    FROM decided WHERE idem_key IS NOT NULL
    ON CONFLICT (company_id, key) DO UPDATE SET
        request_hash = excluded.request_hash, lead_id = excluded.lead_id,
        over_limit = excluded.over_limit, lead_limit = excluded.lead_limit,
        lead_count = excluded.lead_count, created_at = now()
), `
	}
	return q + recordEventsAs(`SELECT company_id, id AS lead_id, event_id, '`+string(event.LeadCreated)+`' AS type, a.email IS NOT NULL OR a.phone IS NOT NULL AS reachable, a.assignee_id AS assignee
    FROM assigned a`, "s.event_id") + `
SELECT ord, over_limit, n AS count FROM assigned`
}

// insertLeadsOf is the form of insertLeads that stores creates.
func insertLeadsOf(creates []leadCreate) string {
	referral, keys := 0, 0
	for _, c := range creates {
		if len(c.lead.ReferralData) > 0 {
			referral = 1
		}
		if c.idem != nil {
			keys = 1
		}
	}
	return insertLeadsFor[referral][keys]
}

// leadRow is a lead as insertLeads reads it: the one encoding of a lead's columns. An omitted
// field is NULL. appendJSON writes it; the tags say what it writes, and
// TestLeadRowJSONIsEncodingJSONs holds the two to each other.
type leadRow struct {
	Ord          int               `json:"ord"`
	CompanyID    uuid.UUID         `json:"company_id"`
	ID           uuid.UUID         `json:"id"`
	EventID      uuid.UUID         `json:"event_id"`
	FirstName    string            `json:"first_name,omitempty"`
	LastName     string            `json:"last_name,omitempty"`
	Email        string            `json:"email,omitempty"`
	Phone        string            `json:"phone,omitempty"`
	PhoneE164    string            `json:"phone_e164,omitempty"`
	Service      string            `json:"service,omitempty"`
	Details      *detailsJSON      `json:"details,omitempty"`
	Source       string            `json:"source"`
	ReferralData map[string]string `json:"referral_data,omitempty"`
	Consent      *lead.Consent     `json:"consent,omitempty"`
	LeadLimit    *int              `json:"lead_limit"`
	IdemKey      string            `json:"idem_key,omitempty"`
	RequestHash  string            `json:"request_hash,omitempty"`
}

// leadCreate is one lead to store: whose, with which limit and, for an idempotent create, its key.
type leadCreate struct {
	companyID uuid.UUID
	lead      lead.Lead
	limit     *int
	idem      *lead.Idempotency
}

func (c leadCreate) row(ord int) leadRow {
	l := c.lead
	r := leadRow{Ord: ord, CompanyID: c.companyID, ID: l.ID, FirstName: l.FirstName,
		LastName: l.LastName, Email: l.Email, Phone: l.Phone, PhoneE164: l.PhoneE164,
		Service: l.Service, Source: string(l.Source), ReferralData: l.ReferralData, Consent: l.Consent,
		LeadLimit: c.limit, EventID: uuid.Must(uuid.NewV7())}
	if l.Note != "" {
		r.Details = leadDetails(l.Note, l.Unanswered)
	}
	if c.idem != nil {
		r.IdemKey, r.RequestHash = c.idem.Key, hex.EncodeToString(c.idem.RequestHash[:])
	}
	return r
}

// appendJSON appends r as encoding/json writes it, without its reflection: a group of leads
// is encoded on every create.
func (r *leadRow) appendJSON(b []byte) []byte {
	b = append(b, `{"ord":`...)
	b = strconv.AppendInt(b, int64(r.Ord), 10)
	b = append(b, `,"company_id":"`...)
	b = leadjson.AppendUUID(b, r.CompanyID)
	b = append(b, `","id":"`...)
	b = leadjson.AppendUUID(b, r.ID)
	b = append(b, `","event_id":"`...)
	b = leadjson.AppendUUID(b, r.EventID)
	b = append(b, '"')
	b = appendField(b, "first_name", r.FirstName)
	b = appendField(b, "last_name", r.LastName)
	b = appendField(b, "email", r.Email)
	b = appendField(b, "phone", r.Phone)
	b = appendField(b, "phone_e164", r.PhoneE164)
	b = appendField(b, "service", r.Service)
	if d := r.Details; d != nil {
		b = append(b, `,"details":{"note":`...)
		b = leadjson.AppendString(b, d.Note)
		if len(d.Unanswered) > 0 {
			b = append(b, `,"unanswered_questions":[`...)
			for i, q := range d.Unanswered {
				if i > 0 {
					b = append(b, ',')
				}
				b = leadjson.AppendString(b, q)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	b = append(b, `,"source":`...)
	b = leadjson.AppendString(b, r.Source)
	if len(r.ReferralData) > 0 {
		keys := slices.Sorted(maps.Keys(r.ReferralData)) // encoding/json's order
		b = append(b, `,"referral_data":{`...)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(leadjson.AppendString(b, k), ':')
			b = leadjson.AppendString(b, r.ReferralData[k])
		}
		b = append(b, '}')
	}
	if c := r.Consent; c != nil {
		b = append(b, `,"consent":{"marketing":`...)
		b = strconv.AppendBool(b, c.Marketing)
		b = append(b, `,"text":`...)
		b = appendStringPtr(b, c.Text)
		b = append(b, `,"privacy_url":`...)
		b = appendStringPtr(b, c.PrivacyURL)
		b = append(b, `,"given_at":"`...)
		b = c.GivenAt.AppendFormat(b, time.RFC3339Nano) // as time.Time's MarshalJSON
		b = append(b, `","source":`...)
		b = leadjson.AppendString(b, string(c.Source))
		b = append(b, '}')
	}
	b = append(b, `,"lead_limit":`...)
	if r.LeadLimit == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*r.LeadLimit), 10)
	}
	b = appendField(b, "idem_key", r.IdemKey)
	b = appendField(b, "request_hash", r.RequestHash)
	return append(b, '}')
}

// appendField appends `,"name":"value"`, nothing for an empty value (omitempty).
func appendField(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `":`...)
	return leadjson.AppendString(b, value)
}

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return leadjson.AppendString(b, *s)
}

// leadsJSON is insertLeads' $1: a JSON array of rows.
func leadsJSON(rows []leadRow) []byte {
	return appendLeadsJSON(make([]byte, 0, 512*len(rows)), rows)
}

// jsonbVersion is the first byte of jsonb's binary form, the document's text following it
// (PostgreSQL's jsonb_recv and jsonb_send).
const jsonbVersion = 1

// leadsParam is insertLeads' $1 as lib/pq sends it. With binary_parameters (withRuntimeParams
// sets it unless the DSN says otherwise) a []byte argument goes into the message as it is, in
// binary form, so the array goes as jsonb's binary form: the text behind jsonbVersion. A string
// argument cost a group two copies of its text (string(b), then lib/pq's []byte(s)), about a
// tenth of the bytes a lead create allocated. Without binary_parameters lib/pq would send a
// []byte as bytea's text, so the text goes as a string.
func leadsParam(binary bool, rows []leadRow) any {
	if !binary {
		return string(leadsJSON(rows))
	}
	b := make([]byte, 1, 1+512*len(rows))
	b[0] = jsonbVersion
	return appendLeadsJSON(b, rows)
}

// appendLeadsJSON appends rows as a JSON array.
func appendLeadsJSON(b []byte, rows []leadRow) []byte {
	b = append(b, '[')
	for i := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = rows[i].appendJSON(b)
	}
	return append(b, ']')
}

// leadRows are the rows of creates, numbered in order.
func leadRows(creates []leadCreate) []leadRow {
	rows := make([]leadRow, len(creates))
	for i, c := range creates {
		rows[i] = c.row(i)
	}
	return rows
}

// storeLeads stores creates with their form of insertLeads, on q (the pool, or a transaction), and returns
// each one's outcome in order. Its three columns are scanned by hand, as sqlx's reflection
// would cost a group more than its encoding.
func storeLeads(ctx context.Context, q runner, creates []leadCreate) ([]lead.Created, error) {
	rows, err := q.query(ctx, insertLeadsOf(creates), leadsParam(q.s.binaryParams, leadRows(creates)))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	created := make([]lead.Created, len(creates))
	n := 0
	for rows.Next() {
		var ord, count int
		var overLimit bool
		if err := rows.Scan(&ord, &overLimit, &count); err != nil {
			return nil, translate(err)
		}
		if ord < 0 || ord >= len(creates) {
			return nil, fmt.Errorf("a group of %d leads stored one numbered %d", len(creates), ord)
		}
		c := creates[ord]
		created[ord] = lead.Created{ID: c.lead.ID, OverLimit: overLimit, Limit: c.limit, Count: count}
		n++
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err)
	}
	if n != len(creates) {
		return nil, fmt.Errorf("a group of %d leads stored %d", len(creates), n)
	}
	return created, nil
}

// detailsJSON is a lead's details column: {"note", "unanswered_questions"}, as the contract's
// LeadDetails.
type detailsJSON struct {
	Note       string   `json:"note"`
	Unanswered []string `json:"unanswered_questions,omitempty"`
}

// leadDetails is the details column of a lead with a note; a lead without a note has none.
func leadDetails(note string, unanswered []string) *detailsJSON {
	return &detailsJSON{Note: note, Unanswered: unanswered}
}
