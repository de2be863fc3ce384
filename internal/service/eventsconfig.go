package service

import (
	"fmt"
	"net/mail"
	"strconv"

	"github.com/leadchat/leadchat/internal/event"
	leadmail "github.com/leadchat/leadchat/internal/mail"
)

// EventsConfig is how lead events leave the service.
type EventsConfig struct {
	// Retry is the wait before each retry of a delivery (LEADCHAT_WEBHOOK_RETRY, like
	// "5s,5m,30m"; default event.DefaultSchedule, over three days).
	Retry event.Schedule
	// AllowPrivate lifts the https rule and the private-address refusal of webhook targets
	// (LEADCHAT_WEBHOOK_ALLOW_PRIVATE=on), for development and tests.
	AllowPrivate bool
	// SMTP is the mail server (LEADCHAT_SMTP_URL or LEADCHAT_SMTP_URL_FILE,
	// smtp://[user:pass@]host:port or smtps://…); nil when unset, and then no e-mail is sent.
	SMTP *leadmail.Server
	// MailFrom is the sender of the new-lead e-mail (LEADCHAT_MAIL_FROM; required with SMTP).
	MailFrom string
	// Workers is how many deliveries this instance makes at once (LEADCHAT_DELIVERY_WORKERS,
	// default 64, 0 in a Config means the default). LEADCHAT_DELIVERY_WORKERS=0 sets
	// RecordOnly instead: this instance makes no deliveries and leaves them to the others.
	Workers    int
	RecordOnly bool
	// PerCompany is how many of one company's deliveries are attempted at once across the
	// instances (LEADCHAT_DELIVERIES_PER_COMPANY, default limits.DeliveriesInFlight); the rest
	// wait their turn, so one company's slow endpoints never hold another's deliveries.
	PerCompany int
}

// eventsFromEnv reads EventsConfig, returning what is wrong with it.
func eventsFromEnv(getenv func(string) string) (EventsConfig, []string) {
	c := EventsConfig{Retry: event.DefaultSchedule, Workers: 64}
	var problems []string
	if v := getenv("LEADCHAT_DELIVERY_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1000 {
			problems = append(problems, fmt.Sprintf("LEADCHAT_DELIVERY_WORKERS=%q: want a number from 0 to 1000", v))
		}
		c.Workers, c.RecordOnly = n, n == 0
	}
	if v := getenv("LEADCHAT_DELIVERIES_PER_COMPANY"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			problems = append(problems, fmt.Sprintf("LEADCHAT_DELIVERIES_PER_COMPANY=%q: want a number from 1 to 1000", v))
		}
		c.PerCompany = n
	}
	if v := getenv("LEADCHAT_WEBHOOK_RETRY"); v != "" {
		s, err := event.ParseSchedule(v)
		if err != nil {
			problems = append(problems, "LEADCHAT_WEBHOOK_RETRY: "+err.Error())
		}
		c.Retry = s
	}
	switch v := getenv("LEADCHAT_WEBHOOK_ALLOW_PRIVATE"); v {
	case "", "off":
	case "on":
		c.AllowPrivate = true
	default:
		problems = append(problems, fmt.Sprintf("LEADCHAT_WEBHOOK_ALLOW_PRIVATE=%q: want on or off", v))
	}
	smtpURL, err := secret(getenv, "LEADCHAT_SMTP_URL")
	if err != nil {
		problems = append(problems, err.Error())
	}
	if smtpURL != "" {
		s, err := leadmail.ParseURL(smtpURL)
		if err != nil {
			problems = append(problems, "LEADCHAT_SMTP_URL: "+err.Error()) // the value may hold a password
		}
		c.SMTP = &s
	}
	c.MailFrom = getenv("LEADCHAT_MAIL_FROM")
	switch {
	case c.MailFrom != "":
		if _, err := mail.ParseAddress(c.MailFrom); err != nil {
			problems = append(problems, fmt.Sprintf("LEADCHAT_MAIL_FROM=%q: not an e-mail address", c.MailFrom))
		}
	case c.SMTP != nil:
		problems = append(problems, "LEADCHAT_SMTP_URL is set but LEADCHAT_MAIL_FROM is not")
	}
	return c, problems
}
