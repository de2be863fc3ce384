package servicetest

import (
	"testing"

	"github.com/leadchat/leadchat/internal/mail"
	"github.com/leadchat/leadchat/internal/service"
)

// A service delivers only what a test gave somewhere to go.
func TestRecordEventsOnly(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events service.EventsConfig
		record bool
	}{
		{"nowhere to go", service.EventsConfig{}, true},
		{"receivers on 127.0.0.1", service.EventsConfig{AllowPrivate: true}, false},
		{"an SMTP server", service.EventsConfig{SMTP: &mail.Server{}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := service.Config{Events: tc.events}
			RecordEventsOnly(&cfg)
			if cfg.Events.RecordOnly != tc.record {
				t.Errorf("RecordOnly = %v, want %v", cfg.Events.RecordOnly, tc.record)
			}
		})
	}
}
