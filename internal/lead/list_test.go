package lead_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
)

// A cursor survives its trip through a client; one that was cut, edited, made up, or sent with
// other filters than its list's does not.
func TestCursorText(t *testing.T) {
	c := lead.Cursor{CreatedAt: time.Date(2025, 3, 14, 9, 21, 7, 512345000, time.UTC), ID: uuid.New()}
	f := lead.Filter{Status: lead.StatusNew, Text: "Kovács"}
	text := c.Text(f)
	back, err := lead.ParseCursor(text, f)
	if err != nil || back != c {
		t.Fatalf("round trip: %v, %v; want %v", back, err, c)
	}
	edited := []byte(text)
	edited[5] = map[bool]byte{true: 'B', false: 'A'}[edited[5] == 'A']
	for name, bad := range map[string]string{
		"empty":                "",
		"not base64url":        "a+b/c=",
		"cut":                  text[:len(text)-1],
		"edited":               string(edited),
		"longer":               text + "AAAA",
		"with a line break":    text[:20] + "\n" + text[20:],
		"a lead id":            c.ID.String(),
		"the right size, zero": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	} {
		if _, err := lead.ParseCursor(bad, f); errs.As(err).Code != errs.CodeInvalidCursor {
			t.Errorf("%s (%q): %v, want invalid_cursor", name, bad, err)
		}
	}
	for name, other := range map[string]lead.Filter{
		"no filter":      {},
		"another status": {Status: lead.StatusWon, Text: "Kovács"},
		"another text":   {Status: lead.StatusNew, Text: "Kovács Péter"},
		"a source":       {Status: lead.StatusNew, Source: lead.SourceForm, Text: "Kovács"},
		"a month":        {Status: lead.StatusNew, Text: "Kovács", Since: c.CreatedAt.AddDate(0, -1, 0), Until: c.CreatedAt},
	} {
		if _, err := lead.ParseCursor(text, other); errs.As(err).Code != errs.CodeInvalidCursor {
			t.Errorf("a cursor of another list (%s): %v, want invalid_cursor", name, err)
		}
	}
	// Paging is the same page however the limit changes.
	if back, err := lead.ParseCursor(text, lead.Filter{Status: lead.StatusNew, Text: "Kovács", Limit: 200, After: &c}); err != nil || back != c {
		t.Errorf("with another page size: %v, %v", back, err)
	}
}

// The transcript's roles, as the API, the dashboard and the export name them.
func TestMessageRole(t *testing.T) {
	for _, tt := range []struct {
		m    lead.Message
		want string
	}{
		{lead.Message{Visitor: true, Text: "Szia"}, "visitor"},
		{lead.Message{Text: "Üdvözlöm"}, "assistant"},
		{lead.Message{Text: "Itt Anna", AgentName: "anna"}, "agent"},
	} {
		if got := tt.m.Role(); got != tt.want {
			t.Errorf("%+v: role %q, want %q", tt.m, got, tt.want)
		}
	}
}
