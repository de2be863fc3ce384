package admin

import (
	"context"
	"fmt"
	"strconv"

	"github.com/leadchat/leadchat/internal/plan"
)

func companyCreate(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "company create")
	name := fs.String("name", "", "company name")
	planName := fs.String("plan", "", "free, starter, pro, business or enterprise")
	limit := fs.String("lead-limit", "", "monthly lead limit overriding the plan's: a number, or none")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *name == "" {
		return fmt.Errorf("--name is required")
	}
	p, err := plan.Parse(*planName)
	if err != nil {
		return fmt.Errorf("--plan: %w", err)
	}
	var o plan.Override
	switch *limit {
	case "":
	case "none":
		o.Set = true
	default:
		n, err := strconv.Atoi(*limit)
		if err != nil || n < 0 {
			return fmt.Errorf("--lead-limit %q: want a number of at least 0, or none", *limit)
		}
		o = plan.Override{Set: true, Limit: &n}
	}
	c, err := env.Store.CreateCompany(ctx, *name, p, o)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, c)
	}
	lim := "none"
	if c.LeadLimit != nil {
		lim = strconv.Itoa(*c.LeadLimit)
	}
	fmt.Fprintf(env.Stdout, "company %s\n  name: %s\n  plan: %s\n  monthly lead limit: %s\n", c.ID, c.Name, c.Plan, lim)
	return nil
}
