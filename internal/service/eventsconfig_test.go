package service

import (
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/event"
)

func TestEventsConfig(t *testing.T) {
	t.Parallel()
	c, err := ConfigFromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Events.Retry.String() != event.DefaultSchedule.String() || c.Events.AllowPrivate || c.Events.SMTP != nil ||
		c.Events.Workers != 64 || c.Events.RecordOnly {
		t.Errorf("defaults = %+v", c.Events)
	}
	c, err = ConfigFromEnv(env(map[string]string{
		"LEADCHAT_WEBHOOK_RETRY": "1s,1s,2s", "LEADCHAT_WEBHOOK_ALLOW_PRIVATE": "on",
		"LEADCHAT_SMTP_URL": "smtps://u:p@mail.example.com", "LEADCHAT_MAIL_FROM": "leadchat <noreply@example.com>",
		"LEADCHAT_DELIVERY_WORKERS": "0", "LEADCHAT_DELIVERIES_PER_COMPANY": "16",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if e := c.Events; len(e.Retry) != 3 || e.Retry[2] != 2*time.Second || !e.AllowPrivate || e.SMTP == nil ||
		e.SMTP.Port != 465 || !e.SMTP.TLS || e.SMTP.Password != "p" || e.MailFrom != "leadchat <noreply@example.com>" ||
		!e.RecordOnly || e.PerCompany != 16 {
		t.Errorf("events = %+v, smtp %+v", e, e.SMTP)
	}

	_, err = ConfigFromEnv(env(map[string]string{
		"LEADCHAT_WEBHOOK_RETRY": "1s,soon", "LEADCHAT_WEBHOOK_ALLOW_PRIVATE": "yes",
		"LEADCHAT_SMTP_URL": "http://u:secretpw@mail.example.com", "LEADCHAT_DELIVERY_WORKERS": "-1",
		"LEADCHAT_DELIVERIES_PER_COMPANY": "0",
	}))
	if err == nil {
		t.Fatal("a bad configuration was accepted")
	}
	for _, name := range []string{"LEADCHAT_WEBHOOK_RETRY", "LEADCHAT_WEBHOOK_ALLOW_PRIVATE", "LEADCHAT_SMTP_URL", "LEADCHAT_MAIL_FROM",
		"LEADCHAT_DELIVERY_WORKERS", "LEADCHAT_DELIVERIES_PER_COMPANY"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the error does not name %s: %v", name, err)
		}
	}
	if strings.Contains(err.Error(), "secretpw") {
		t.Errorf("the error shows the SMTP password: %v", err)
	}
	if _, err := ConfigFromEnv(env(map[string]string{"LEADCHAT_MAIL_FROM": "not an address"})); err == nil ||
		!strings.Contains(err.Error(), "LEADCHAT_MAIL_FROM") {
		t.Errorf("a bad sender: %v", err)
	}
}
