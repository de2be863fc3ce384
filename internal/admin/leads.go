package admin

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/csvexport"
	"github.com/leadchat/leadchat/internal/lead"
)

// leadJSON is a lead as `leads list --json` prints it: every stored field, null when absent.
type leadJSON struct {
	ID           uuid.UUID         `json:"id"`
	FirstName    *string           `json:"first_name"`
	LastName     *string           `json:"last_name"`
	Email        *string           `json:"email"`
	Phone        *string           `json:"phone"`
	PhoneE164    *string           `json:"phone_e164"`
	Service      *string           `json:"service"`
	Details      *leadDetails      `json:"details"`
	Source       lead.Source       `json:"source"`
	ReferralData map[string]string `json:"referral_data"`
	Status       lead.Status       `json:"status"`
	CreatedAt    time.Time         `json:"created_at"`
}

type leadDetails struct {
	Note string `json:"note"`
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toJSON(l lead.Stored) leadJSON {
	j := leadJSON{
		ID: l.ID, FirstName: orNull(l.FirstName), LastName: orNull(l.LastName), Email: orNull(l.Email),
		Phone: orNull(l.Phone), PhoneE164: orNull(l.PhoneE164), Service: orNull(l.Service),
		Source: l.Source, ReferralData: l.ReferralData, Status: l.Status, CreatedAt: l.CreatedAt.UTC(),
	}
	if l.Note != "" {
		j.Details = &leadDetails{Note: l.Note}
	}
	return j
}

func leadsList(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "leads list")
	company := fs.String("company", "", "company id")
	asJSON := fs.Bool("json", false, "print JSON")
	asCSV := fs.Bool("csv", false, "print CSV")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *asJSON && *asCSV {
		return fmt.Errorf("choose --json or --csv, not both")
	}
	id, err := uuidFlag("company", *company)
	if err != nil {
		return err
	}
	if _, err := env.Store.Company(ctx, id); err != nil {
		return fmt.Errorf("company %s: %w", id, err)
	}
	leads, err := lead.Collect(lead.All(ctx, env.Store, id, lead.Filter{}))
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		out := make([]leadJSON, 0, len(leads))
		for _, l := range leads {
			out = append(out, toJSON(l))
		}
		return printJSON(env.Stdout, out)
	case *asCSV:
		// Cells hold what visitors typed: csvexport keeps a spreadsheet from running any as a formula.
		w := csvexport.NewWriter(env.Stdout)
		_ = w.Write(csvexport.LeadHeader)
		for _, l := range leads {
			_ = w.Write(csvexport.LeadRecord(l))
		}
		return w.Flush()
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CREATED\tSTATUS\tSOURCE\tNAME\tEMAIL\tPHONE\tSERVICE\tID")
	for _, l := range leads {
		// Client text is escaped, so it can neither drive the terminal nor fake a row or column.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", l.CreatedAt.UTC().Format("2006-01-02 15:04"),
			l.Status, l.Source, printable(l.DisplayName()), printable(l.Email),
			printable(l.Phone), printable(l.Service), l.ID)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%d leads\n", len(leads))
	return nil
}
