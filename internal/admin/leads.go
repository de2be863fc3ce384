package admin

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/leadchat/leadchat/internal/csvexport"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/leadjson"
	"github.com/leadchat/leadchat/internal/limits"
)

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// toJSON is the contract's Lead object of l, the shape a lead has wherever it leaves the service.
func toJSON(l lead.Stored) json.RawMessage { return leadjson.Marshal(&l) }

// leadsList prints a company's leads, newest first, as they are read: page by page from the
// store (lead.All), each written before the next is read, so that a company with millions of
// leads is listed in the memory of one page.
func leadsList(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "leads list")
	company := companyFlag(fs)
	status := fs.String("status", "", "only leads of this status: "+oneOf(lead.Statuses()))
	source := fs.String("source", "", "only leads from this source: "+oneOf(lead.Sources()))
	since := fs.String("since", "", "only leads created at or after this time: 2006-01-02 (UTC) or 2006-01-02T15:04:05+01:00")
	until := fs.String("until", "", "only leads created before this time, in the same forms")
	limit := fs.Int("limit", 0, "print at most this many leads, the newest")
	asJSON := fs.Bool("json", false, "print a JSON array")
	asCSV := fs.Bool("csv", false, "print CSV, cells a spreadsheet would run made harmless")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *asJSON && *asCSV {
		return fmt.Errorf("--json and --csv together: choose one")
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	f, err := leadFilter(*status, *source, *since, *until)
	if err != nil {
		return err
	}
	if *limit < 0 || isSet(fs, "limit") && *limit == 0 {
		return fmt.Errorf("--limit %d: want 1 or more", *limit)
	}
	if _, err := env.Store.Company(ctx, id); err != nil {
		return notFound(err, "company", id, "company")
	}
	out := bufio.NewWriterSize(env.Stdout, 64<<10)
	var sink leadSink
	switch {
	case *asJSON:
		sink = &jsonLeads{w: out}
	case *asCSV:
		sink = csvLeads{csvexport.NewLeadWriter(out)}
	default:
		sink = newTableLeads(out, *limit)
	}
	n := 0
	for l, err := range lead.All(ctx, env.Store, id, f) {
		if err != nil {
			return err
		}
		if err := sink.write(l); err != nil {
			return err
		}
		if n++; n == *limit {
			break
		}
	}
	if err := sink.close(n); err != nil {
		return err
	}
	return out.Flush()
}

// leadFilter checks the filter flags of leads list.
func leadFilter(status, source, since, until string) (lead.Filter, error) {
	var f lead.Filter
	if status != "" {
		if f.Status = lead.Status(status); !f.Status.Valid() {
			return f, fmt.Errorf("--status %q: want %s", status, oneOf(lead.Statuses()))
		}
	}
	if source != "" {
		var err error
		if f.Source, err = lead.ParseSource(source); err != nil {
			return f, fmt.Errorf("--source %q: want %s", source, oneOf(lead.Sources()))
		}
	}
	var err error
	if f.Since, err = timeFlag("since", since); err != nil {
		return f, err
	}
	if f.Until, err = timeFlag("until", until); err != nil {
		return f, err
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Since.Before(f.Until) {
		return f, fmt.Errorf("--since %s is not before --until %s: no lead can match", since, until)
	}
	return f, nil
}

// timeFlag reads a time flag: a day (midnight UTC, as the monthly limits count), a day and
// minute in UTC as the table shows them, or an RFC 3339 time with its offset.
func timeFlag(name, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02 15:04", time.RFC3339} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--%s %q: want a day such as 2024-06-01 (UTC) or a time such as 2024-06-01T08:00:00+02:00", name, v)
}

// leadSink is one of the forms leads list prints: each lead as it comes, then an ending.
type leadSink interface {
	write(lead.Stored) error
	close(count int) error
}

type csvLeads struct{ w *csvexport.LeadWriter }

// Cells hold what visitors typed: csvexport keeps a spreadsheet from running any as a formula.
func (c csvLeads) write(l lead.Stored) error { return c.w.Write(l) }
func (c csvLeads) close(int) error           { return c.w.Flush() }

// jsonLeads writes one JSON array, an element at a time, as printJSON would write the whole.
type jsonLeads struct {
	w *bufio.Writer
	n int
}

func (j *jsonLeads) write(l lead.Stored) error {
	b, err := json.MarshalIndent(toJSON(l), "  ", "  ")
	if err != nil {
		return err
	}
	if j.n == 0 {
		j.w.WriteString("[\n  ")
	} else {
		j.w.WriteString(",\n  ")
	}
	j.n++
	_, err = j.w.Write(escapeJSON(b))
	return err
}

func (j *jsonLeads) close(int) error {
	if j.n == 0 {
		_, err := j.w.WriteString("[]\n")
		return err
	}
	_, err := j.w.WriteString("\n]\n")
	return err
}

// tableLeads writes the table a page of rows at a time, and the count at the end.
type tableLeads struct {
	t     table
	w     io.Writer
	limit int
}

func newTableLeads(w io.Writer, limit int) *tableLeads {
	tl := &tableLeads{t: table{w: w}, w: w, limit: limit}
	tl.t.row("CREATED", "STATUS", "SOURCE", "NAME", "EMAIL", "PHONE", "SERVICE", "ID")
	return tl
}

func (tl *tableLeads) write(l lead.Stored) error {
	name := l.DisplayName()
	// Client text is escaped, so it can neither drive the terminal nor fake a row or column.
	tl.t.row(l.CreatedAt.UTC().Format("2006-01-02 15:04"), string(l.Status), string(l.Source), printable(name),
		printable(l.Email), printable(l.Phone), printable(l.Service), l.ID.String())
	if len(tl.t.rows) < limits.ListMax {
		return nil
	}
	return tl.t.flush()
}

func (tl *tableLeads) close(n int) error {
	if err := tl.t.flush(); err != nil {
		return err
	}
	count := plural(n, "lead", "leads")
	if tl.limit > 0 && n == tl.limit {
		count += fmt.Sprintf(" (--limit %d: there may be more)", n)
	}
	_, err := fmt.Fprintln(tl.w, count)
	return err
}
