package main

import (
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

func TestUserAndCompanyCommands(t *testing.T) {
	t.Parallel()
	c := cli{t: t, dsn: pgtest.NewDSN(t)}
	if _, err := c.run("migrate"); err != nil {
		t.Fatal(err)
	}
	var company struct {
		ID              string `json:"id"`
		Name            string `json:"name"`
		Plan            string `json:"plan"`
		LeadLimit       *int   `json:"lead_limit"`
		RetentionMonths *int   `json:"retention_months"`
		RoundRobin      bool   `json:"round_robin"`
	}
	c.json(&company, "company", "create", "--name", "Teszt Kft.", "--plan", "pro", "--json")

	t.Run("company set changes only what it names", func(t *testing.T) {
		c.json(&company, "company", "set", "--company", company.ID, "--retention-months", "24", "--lead-limit", "7", "--json")
		if company.Name != "Teszt Kft." || company.Plan != "pro" || company.LeadLimit == nil || *company.LeadLimit != 7 ||
			company.RetentionMonths == nil || *company.RetentionMonths != 24 {
			t.Errorf("after set: %+v", company)
		}
		c.json(&company, "company", "set", "--company", company.ID, "--plan", "business", "--lead-limit", "plan",
			"--retention-months", "none", "--json")
		if company.Plan != "business" || company.LeadLimit == nil || *company.LeadLimit != 5000 || company.RetentionMonths != nil {
			t.Errorf("after second set: %+v", company)
		}
		c.json(&company, "company", "set", "--company", company.ID, "--round-robin", "on", "--json")
		if !company.RoundRobin || company.Plan != "business" {
			t.Errorf("after --round-robin on: %+v", company)
		}
		c.json(&company, "company", "set", "--company", company.ID, "--round-robin", "off", "--json")
		if company.RoundRobin {
			t.Errorf("after --round-robin off: %+v", company)
		}
		var list []struct {
			ID string `json:"id"`
		}
		c.json(&list, "company", "list", "--json")
		if len(list) != 1 || list[0].ID != company.ID {
			t.Errorf("company list = %+v", list)
		}
		for _, bad := range [][]string{
			{"company", "set", "--company", company.ID},
			{"company", "set", "--company", company.ID, "--retention-months", "0"},
			{"company", "set", "--company", company.ID, "--lead-limit", ""},
			{"company", "set", "--company", company.ID, "--plan", "gold"},
			{"company", "set", "--company", company.ID, "--round-robin", "yes"},
			{"company", "set", "--company", "00000000-0000-0000-0000-000000000000", "--name", "X"},
		} {
			if _, err := c.run(bad...); err == nil {
				t.Errorf("leadchat %s: no error", strings.Join(bad, " "))
			}
		}
	})

	t.Run("user create prints a one-time link or reads the password", func(t *testing.T) {
		var owner struct {
			ID          string `json:"id"`
			Email       string `json:"email"`
			Role        string `json:"role"`
			PasswordSet bool   `json:"password_set"`
			Link        string `json:"password_link"`
		}
		c.json(&owner, "user", "create", "--company", company.ID, "--email", " Anna@Example.HU", "--role", "owner", "--json")
		if owner.Email != "anna@example.hu" || owner.Role != "owner" || owner.PasswordSet ||
			!strings.HasPrefix(owner.Link, "http://127.0.0.1:8080/app/password/") {
			t.Errorf("owner = %+v", owner)
		}
		withPassword := cli{t: t, dsn: c.dsn, in: "a long enough secret\n"}
		var member struct {
			PasswordSet bool   `json:"password_set"`
			Link        string `json:"password_link"`
			ID          string `json:"id"`
		}
		withPassword.json(&member, "user", "create", "--company", company.ID, "--email", "bela@example.hu", "--role", "member", "--password-stdin", "--json")
		if !member.PasswordSet || member.Link != "" {
			t.Errorf("member = %+v", member)
		}
		short := cli{t: t, dsn: c.dsn, in: "short\n"}
		if _, err := short.run("user", "create", "--company", company.ID, "--email", "c@example.hu", "--role", "member", "--password-stdin"); err == nil ||
			!strings.Contains(err.Error(), "at least 10") {
			t.Errorf("a short password: %v", err)
		}
		if _, err := c.run("user", "create", "--company", company.ID, "--email", "ANNA@example.hu", "--role", "member"); err == nil ||
			!strings.Contains(err.Error(), "already a member") {
			t.Errorf("a member of the company again: %v", err)
		}
		if _, err := c.run("user", "create", "--company", company.ID, "--email", "d@example.hu", "--role", "admin"); err == nil {
			t.Error("role admin accepted")
		}
		text, err := c.run("user", "list", "--company", company.ID)
		if err != nil || !strings.Contains(text, "anna@example.hu") || !strings.Contains(text, "bela@example.hu") {
			t.Errorf("user list: %v\n%s", err, text)
		}
		if _, err := c.run("user", "remove", "--user", member.ID); err != nil {
			t.Fatal(err)
		}
		var users []struct {
			Email string `json:"email"`
		}
		c.json(&users, "user", "list", "--company", company.ID, "--json")
		if len(users) != 1 || users[0].Email != "anna@example.hu" {
			t.Errorf("after remove: %+v", users)
		}
		if _, err := c.run("user", "remove", "--user", member.ID); err == nil {
			t.Error("removing a removed user: no error")
		}
	})

	t.Run("an address with an account gains a company; remove takes one or every membership", func(t *testing.T) {
		var other struct {
			ID string `json:"id"`
		}
		c.json(&other, "company", "create", "--name", "Másik Kft.", "--plan", "free", "--json")
		var joined struct {
			ID          string `json:"id"`
			CompanyID   string `json:"company_id"`
			Role        string `json:"role"`
			Existing    bool   `json:"existing_account"`
			PasswordSet bool   `json:"password_set"`
		}
		withPassword := cli{t: t, dsn: c.dsn, in: "another long secret\n"}
		withPassword.json(&joined, "user", "create", "--company", other.ID, "--email", "anna@example.hu", "--role", "member", "--password-stdin", "--json")
		if !joined.Existing || joined.CompanyID != other.ID || joined.Role != "member" || joined.PasswordSet {
			t.Errorf("the existing account in another company: %+v", joined)
		}
		text, err := c.run("user", "create", "--company", other.ID, "--email", "uj@example.hu", "--role", "owner")
		if err != nil || !strings.Contains(text, "created") {
			t.Errorf("a new address: %v\n%s", err, text)
		}
		list := func(company string) []string {
			var users []struct {
				Email string `json:"email"`
				Role  string `json:"role"`
			}
			c.json(&users, "user", "list", "--company", company, "--json")
			var out []string
			for _, u := range users {
				out = append(out, u.Email+" "+u.Role)
			}
			return out
		}
		if got := strings.Join(list(other.ID), ", "); got != "anna@example.hu member, uj@example.hu owner" {
			t.Errorf("user list of the other company: %s", got)
		}
		if got := strings.Join(list(company.ID), ", "); got != "anna@example.hu owner" {
			t.Errorf("user list of the first company: %s", got)
		}
		if _, err := c.run("user", "remove", "--user", joined.ID, "--company", other.ID); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(list(company.ID), ", "); got != "anna@example.hu owner" {
			t.Errorf("after removing from the other company, the first: %s", got)
		}
		if _, err := c.run("user", "remove", "--user", joined.ID, "--company", other.ID); err == nil {
			t.Error("removing a membership twice: no error")
		}
		c.json(&joined, "user", "create", "--company", other.ID, "--email", "anna@example.hu", "--role", "owner", "--json")
		if _, err := c.run("user", "remove", "--user", joined.ID); err != nil {
			t.Fatal(err)
		}
		if a, b := list(company.ID), list(other.ID); len(a) != 0 || strings.Join(b, ", ") != "uj@example.hu owner" {
			t.Errorf("after removing from every company: %v and %v", a, b)
		}
	})
}
