package admin

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/leadchat/leadchat/internal/plan"
)

func companyCreate(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "company create")
	name := fs.String("name", "", "the company's name")
	planName := fs.String("plan", "", "the company's plan, one of "+oneOf(plan.All()))
	limit := fs.String("lead-limit", "", "a monthly lead limit instead of the plan's: a number, or none")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "name", "plan"); err != nil {
		return err
	}
	if strings.TrimSpace(*name) == "" {
		return fmt.Errorf("--name is empty: give the company's name")
	}
	p, err := plan.Parse(*planName)
	if err != nil {
		return fmt.Errorf("--plan %q: want %s", *planName, oneOf(plan.All()))
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
