package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/webhook"
)

// webhookCommands are the commands of a company's lead events: webhook endpoints and the
// new-lead e-mail. The commands that take --webhook or --delivery find the company from it.
func webhookCommands() []Command {
	return []Command{
		{"webhook add", "--company ID --url URL [--event lead.created|lead.updated|lead.erased]... [--json]", webhookAdd},
		{"webhook list", "--company ID [--json]", webhookList},
		{"webhook remove", "--webhook ID", webhookRemove},
		{"webhook rotate", "--webhook ID [--grace 24h] [--json]", webhookRotate},
		{"webhook enable", "--webhook ID", webhookEnable},
		{"webhook deliveries", "--webhook ID [--limit 50] [--json]", webhookDeliveries},
		{"webhook redeliver", "--delivery ID", webhookRedeliver},
		{"notify set", "--company ID [--email ADDR]... [--json]", notifySet},
		{"notify list", "--company ID [--json]", notifyList},
	}
}

// createdEndpoint is a new endpoint with its secret, shown this once.
type createdEndpoint struct {
	event.Endpoint
	Secret string `json:"secret"`
}

func webhookAdd(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "webhook add")
	company := companyFlag(fs)
	url := fs.String("url", "", "the endpoint's https URL")
	var types stringList
	fs.Var(&types, "event", "an event type to send (repeatable); every type when none is named")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	if _, err := env.Store.Company(ctx, id); err != nil {
		return fmt.Errorf("company %s: %w", id, err)
	}
	ep, secret, err := webhook.Add(ctx, env.Store, id, *url, types, env.AllowPrivateWebhooks)
	switch {
	case errors.Is(err, webhook.ErrBadURL):
		return fmt.Errorf("--url: %w", err)
	case errors.Is(err, webhook.ErrSpecialTarget):
		return fmt.Errorf("--url: %w: a webhook may not target a loopback, private, link-local, documentation or other special-purpose address", err)
	case errors.Is(err, event.ErrTooManyEndpoints):
		return fmt.Errorf("company %s: %w; remove one first (webhook remove)", id, err)
	case errors.Is(err, event.ErrUnknownType):
		return fmt.Errorf("--event: %w", err)
	case err != nil:
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, createdEndpoint{ep, secret})
	}
	fmt.Fprintf(env.Stdout, "webhook %s for company %s: %s (%s)\n\n  %s\n\nStore the signing secret now: it is shown only this once.\n",
		ep.ID, id, ep.URL, typesText(ep.Events), secret)
	return nil
}

func typesText(ts []event.Type) string {
	if len(ts) == 0 {
		return "every event"
	}
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

func webhookList(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "webhook list")
	company := companyFlag(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	eps, err := env.Store.Endpoints(ctx, id)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, eps)
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tURL\tEVENTS\tSTATE\tCREATED")
	for _, e := range eps {
		state := "enabled"
		if e.DisabledAt != nil {
			state = fmt.Sprintf("disabled %s (%s)", e.DisabledAt.Format("2006-01-02 15:04"), e.DisabledReason)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.URL, typesText(e.Events), state, e.CreatedAt.Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

// endpointFlag reads --webhook and finds the company of that endpoint.
func endpointFlag(ctx context.Context, env Env, hook idFlag) (companyID, endpointID uuid.UUID, err error) {
	endpointID, err = hook.id()
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	companyID, err = env.Store.EndpointCompany(ctx, endpointID)
	if err != nil {
		return uuid.Nil, uuid.Nil, fmt.Errorf("webhook %s: %w", endpointID, err)
	}
	return companyID, endpointID, nil
}

func webhookRemove(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "webhook remove")
	hook := webhookFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	company, id, err := endpointFlag(ctx, env, hook)
	if err != nil {
		return err
	}
	if err := env.Store.RemoveEndpoint(ctx, company, id); err != nil {
		return fmt.Errorf("webhook %s: %w", id, err)
	}
	fmt.Fprintf(env.Stdout, "webhook %s removed, with its delivery log\n", id)
	return nil
}

func webhookRotate(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "webhook rotate")
	hook := webhookFlag(fs)
	grace := fs.Duration("grace", webhook.RotationGrace, "how long the old secret keeps signing beside the new one")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *grace < 0 || *grace > webhook.MaxRotationGrace {
		return fmt.Errorf("--grace %v: want 0 to 168h", *grace)
	}
	company, id, err := endpointFlag(ctx, env, hook)
	if err != nil {
		return err
	}
	ep, secret, err := webhook.Rotate(ctx, env.Store, company, id, *grace)
	if err != nil {
		return fmt.Errorf("webhook %s: %w", id, err)
	}
	if *asJSON {
		return printJSON(env.Stdout, createdEndpoint{ep, secret})
	}
	fmt.Fprintf(env.Stdout, "webhook %s has a new signing secret; the old one also signs until %s\n\n  %s\n\nStore it now: it is shown only this once.\n",
		id, ep.PreviousUntil.Format(time.RFC3339), secret)
	return nil
}

func webhookEnable(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "webhook enable")
	hook := webhookFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	company, id, err := endpointFlag(ctx, env, hook)
	if err != nil {
		return err
	}
	if _, err := env.Store.EnableEndpoint(ctx, company, id); err != nil {
		return fmt.Errorf("webhook %s: %w", id, err)
	}
	fmt.Fprintf(env.Stdout, "webhook %s enabled: events from now on reach it\n", id)
	return nil
}

func webhookDeliveries(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "webhook deliveries")
	hook := webhookFlag(fs)
	limit := fs.Int("limit", 50, "how many of the newest deliveries, 1 to 1000")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *limit < 1 || *limit > 1000 {
		return fmt.Errorf("--limit %d: want 1 to 1000", *limit)
	}
	company, id, err := endpointFlag(ctx, env, hook)
	if err != nil {
		return err
	}
	ds, err := env.Store.Deliveries(ctx, company, id, *limit)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, ds)
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CREATED\tEVENT\tLEAD\tSTATE\tATTEMPTS\tLAST ANSWER\tNEXT ATTEMPT\tID")
	for _, d := range ds {
		last := "-"
		switch {
		case d.LastStatus != nil:
			last = fmt.Sprint(*d.LastStatus)
		case d.LastError != "":
			last = d.LastError
		}
		next := "-"
		if d.NextAttemptAt != nil {
			next = d.NextAttemptAt.Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", d.CreatedAt.Format("2006-01-02 15:04:05"), d.Type,
			d.LeadID, d.State, d.Attempts, last, next, d.ID)
	}
	return tw.Flush()
}

func webhookRedeliver(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "webhook redeliver")
	delivery := newIDFlag(fs, "delivery", "delivery id (from webhook deliveries)")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := delivery.id()
	if err != nil {
		return err
	}
	company, err := env.Store.DeliveryCompany(ctx, id)
	if err != nil {
		return fmt.Errorf("delivery %s: %w", id, err)
	}
	if err := env.Store.Redeliver(ctx, company, id); err != nil {
		if errors.Is(err, event.ErrPending) {
			return fmt.Errorf("delivery %s: %w", id, err)
		}
		return err
	}
	fmt.Fprintf(env.Stdout, "delivery %s queued again, with the same webhook-id\n", id)
	return nil
}

func notifySet(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "notify set")
	company := companyFlag(fs)
	var emails stringList
	fs.Var(&emails, "email", "an address that gets an e-mail for each new lead (repeatable); none turns the e-mail off")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	clean, err := event.NotifyAddresses(emails)
	switch {
	case errors.Is(err, event.ErrTooManyEmails):
		return fmt.Errorf("--email: %d addresses: %w", len(emails), err)
	case err != nil:
		return fmt.Errorf("--email %w", err)
	}
	if _, err := env.Store.Company(ctx, id); err != nil {
		return fmt.Errorf("company %s: %w", id, err)
	}
	if err := env.Store.SetNotifyEmails(ctx, id, clean); err != nil {
		return err
	}
	return printNotify(ctx, env, id, *asJSON)
}

func notifyList(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "notify list")
	company := companyFlag(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	if _, err := env.Store.Company(ctx, id); err != nil {
		return fmt.Errorf("company %s: %w", id, err)
	}
	return printNotify(ctx, env, id, *asJSON)
}

// printNotify prints a company's new-lead addresses, each with whether it is confirmed (an
// address gets lead e-mails only once it followed the link sent to it).
func printNotify(ctx context.Context, env Env, id uuid.UUID, asJSON bool) error {
	addrs, err := env.Store.NotifyAddresses(ctx, id)
	if err != nil {
		return err
	}
	if asJSON {
		emails := make([]string, len(addrs))
		for i, a := range addrs {
			emails[i] = a.Email
		}
		return printJSON(env.Stdout, struct {
			Emails    []string              `json:"emails"`
			Addresses []event.NotifyAddress `json:"addresses"`
		}{emails, addrs})
	}
	if len(addrs) == 0 {
		fmt.Fprintln(env.Stdout, "new-lead e-mail off")
		return nil
	}
	fmt.Fprintln(env.Stdout, "new-lead e-mail to:")
	for _, a := range addrs {
		state := "waiting for confirmation (a link was sent to it)"
		if a.Confirmed {
			state = "confirmed"
		}
		fmt.Fprintf(env.Stdout, "  %s  %s\n", a.Email, state)
	}
	return nil
}
