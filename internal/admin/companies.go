package admin

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/company"
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
	o, err := parseLimit(*limit)
	if err != nil {
		return err
	}
	c, err := env.Store.CreateCompany(ctx, *name, p, o)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, c)
	}
	fmt.Fprintf(env.Stdout, "company %s\n  name: %s\n  plan: %s\n  monthly lead limit: %s\n", c.ID, c.Name, c.Plan, numberOrNone(c.LeadLimit))
	return nil
}

// parseLimit reads --lead-limit: "" keeps the plan's, "none" is no limit, else a number.
func parseLimit(v string) (plan.Override, error) {
	switch v {
	case "":
		return plan.Override{}, nil
	case "none":
		return plan.Override{Set: true}, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return plan.Override{}, fmt.Errorf("--lead-limit %q: want a number of at least 0, or none", v)
	}
	return plan.Override{Set: true, Limit: &n}, nil
}

func numberOrNone(n *int) string {
	if n == nil {
		return "none"
	}
	return strconv.Itoa(*n)
}

func companyList(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "company list")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	cs, err := env.Store.Companies(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, cs)
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tPLAN\tLEAD LIMIT\tRETENTION MONTHS\tCREATED")
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.ID, c.Name, c.Plan, numberOrNone(c.LeadLimit),
			numberOrNone(c.RetentionMonths), c.CreatedAt.Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

// companySet changes only what its flags name. --lead-limit "" is not accepted here: the plan's
// own limit comes back with --lead-limit plan.
func companySet(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "company set")
	id := companyFlag(fs)
	name := fs.String("name", "", "company name")
	planName := fs.String("plan", "", "free, starter, pro, business or enterprise")
	limit := fs.String("lead-limit", "", "monthly lead limit overriding the plan's: a number, none, or plan (the plan's own)")
	retention := fs.String("retention-months", "", "months to keep leads and chats: a number, or none (keep them)")
	roundRobin := fs.String("round-robin", "", "on: give new leads to the company's users in turn; off: leave them unassigned")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	companyID, err := id.id()
	if err != nil {
		return err
	}
	var ch company.Changes
	var problems []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "name":
			n := strings.TrimSpace(*name)
			if n == "" || utf8.RuneCountInString(n) > 200 {
				problems = append(problems, "--name: want 1 to 200 characters")
			}
			ch.Name = &n
		case "plan":
			p, err := plan.Parse(*planName)
			if err != nil {
				problems = append(problems, "--plan: "+err.Error())
			}
			ch.Plan = &p
		case "lead-limit":
			o := plan.Override{}
			if *limit != "plan" {
				var err error
				if o, err = parseLimit(*limit); err != nil || !o.Set {
					problems = append(problems, fmt.Sprintf("--lead-limit %q: want a number of at least 0, none, or plan", *limit))
				}
			}
			ch.Override = &o
		case "retention-months":
			r := company.Retention{}
			if *retention != "none" {
				n, err := strconv.Atoi(*retention)
				if err != nil || n < 1 || n > company.MaxRetentionMonths {
					problems = append(problems, fmt.Sprintf("--retention-months %q: want 1 to %d, or none", *retention, company.MaxRetentionMonths))
				}
				r.Months = &n
			}
			ch.Retention = &r
		case "round-robin":
			on := *roundRobin == "on"
			if !on && *roundRobin != "off" {
				problems = append(problems, fmt.Sprintf("--round-robin %q: want on or off", *roundRobin))
			}
			ch.RoundRobin = &on
		}
	})
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	if ch == (company.Changes{}) {
		return errors.New("nothing to change: give --name, --plan, --lead-limit, --retention-months or --round-robin")
	}
	c, err := env.Store.UpdateCompany(ctx, companyID, ch)
	if err != nil {
		return fmt.Errorf("company %s: %w", companyID, err)
	}
	if *asJSON {
		return printJSON(env.Stdout, c)
	}
	fmt.Fprintf(env.Stdout, "company %s\n  name: %s\n  plan: %s\n  monthly lead limit: %s\n  retention months: %s\n  round robin: %s\n",
		c.ID, c.Name, c.Plan, numberOrNone(c.LeadLimit), numberOrNone(c.RetentionMonths), onOff(c.RoundRobin))
	return nil
}
