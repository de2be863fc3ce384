package admin

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

func TestWidgetSetSaysWhichColoursTheWidgetAdjusts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, err := postgres.Open(ctx, pgtest.NewDSN(t), postgres.Options{MaxOpenConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	business, err := store.CreateCompany(ctx, "Napfény Kft.", plan.Business, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	pro, err := store.CreateCompany(ctx, "Arany Kft.", plan.Pro, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	set := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		cmd, rest, _ := Find(append([]string{"widget", "set"}, args...))
		if err := cmd.Run(ctx, Env{Store: store, Stdout: &out, Stderr: &errOut}, rest); err != nil {
			t.Fatalf("widget set %v: %v\n%s", args, err, errOut.String())
		}
		return errOut.String()
	}

	tests := []struct {
		name string
		args []string
		want []string // stderr lines
	}{
		{"colours that reach their contrast: nothing to say",
			[]string{"--company", business.ID.String(), "--primary-hex", "#1F6FEB", "--accent-hex", "#E11D48"}, nil},
		{"a primary no text colour reaches 4.5:1 on, and a light accent",
			[]string{"--company", business.ID.String(), "--primary-hex", "#8b5cf6", "--accent-hex", "#FFD700"}, []string{
				"widget set: primary colour #8B5CF6: text and icons on it reach 4.23:1 at best, 4.50:1 needed; the widget uses #8558EC instead",
				"widget set: accent colour #FFD700: focus rings and borders drawn in it on the panel's #F5F6F8 reach 1.29:1 at best, 3.00:1 needed; the widget uses #A68C00 instead",
			}},
		{"a later change of something else says it again",
			[]string{"--company", business.ID.String(), "--primary-hex", "#0A7C66"}, []string{
				"widget set: accent colour #FFD700: focus rings and borders drawn in it on the panel's #F5F6F8 reach 1.29:1 at best, 3.00:1 needed; the widget uses #A68C00 instead",
			}},
		{"without an accent, the primary draws the rings",
			[]string{"--company", pro.ID.String(), "--primary-hex", "#10B981", "--accent-hex", "#000000"}, []string{
				"widget set: primary colour #10B981: focus rings and borders drawn in it on the panel's #F5F6F8 reach 2.34:1 at best, 3.00:1 needed; the widget uses #0EA170 instead",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.FieldsFunc(set(tt.args...), func(r rune) bool { return r == '\n' })
			var lines []string
			for _, l := range got {
				if strings.HasPrefix(l, "widget set: ") {
					lines = append(lines, l)
				}
			}
			if strings.Join(lines, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("stderr:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
