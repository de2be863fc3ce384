// Package servicetest helps tests that start the whole service.
package servicetest

import "github.com/leadchat/leadchat/internal/service"

// RecordEventsOnly makes a test's service record its events without delivering them, unless
// the test gave them somewhere to go: its own receivers on 127.0.0.1 (Events.AllowPrivate; any
// other webhook address is refused or unreachable in a test) or an SMTP server. The delivery
// workers poll the database every 20 ms: an idle service's polling cost some 16% of a core
// (half of it PostgreSQL's), for as long as each test ran.
func RecordEventsOnly(cfg *service.Config) {
	if !cfg.Events.AllowPrivate && cfg.Events.SMTP == nil {
		cfg.Events.RecordOnly = true
	}
}
