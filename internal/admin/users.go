package admin

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

// CreatedUser is a new member of a company with its one-time link, when it got one instead of
// a password.
type CreatedUser struct {
	user.User
	// Existing is true when the address had an account already: it became a member of one more
	// company, its password unchanged, and its link only brings it to the dashboard.
	Existing bool `json:"existing_account"`
	// Link sets the user's password, once, within user.LinkValidity.
	Link string `json:"password_link,omitempty"`
	// LinkExpires is when Link stops working.
	LinkExpires *time.Time `json:"password_link_expires_at,omitempty"`
}

// CreateUser makes an address a member of a company: a new account with a password when
// password is not empty, else with a one-time link (under publicURL) that sets one; an address
// with an account keeps it (and its password) and gains the membership. The operator may know
// which it was, unlike a company's owner. `leadchat dev` uses it too.
func CreateUser(ctx context.Context, store *postgres.Store, publicURL string, companyID uuid.UUID, email string, role user.Role, password string) (CreatedUser, error) {
	if _, err := store.Company(ctx, companyID); err != nil {
		return CreatedUser{}, fmt.Errorf("company %s: %w", companyID, err)
	}
	normalized, err := user.NormalizeEmail(email)
	if err != nil {
		return CreatedUser{}, fmt.Errorf("--email %q: %w", email, err)
	}
	existing, _, err := store.UserByEmail(ctx, normalized)
	if err != nil && !errs.Is(err, errs.NotFound) {
		return CreatedUser{}, err
	}
	u, token, err := user.Create(ctx, store, companyID, email, role, password)
	if errors.Is(err, user.ErrInvalidEmail) {
		return CreatedUser{}, fmt.Errorf("--email %q: %w", email, err)
	}
	if err != nil {
		return CreatedUser{}, err
	}
	out := CreatedUser{User: u, Existing: existing.ID == u.ID}
	if token != "" {
		out.Link = PasswordLink(publicURL, token)
		exp := u.CreatedAt.Add(user.LinkValidity)
		out.LinkExpires = &exp
	}
	return out, nil
}

// PasswordLink is the dashboard address of a one-time link's token.
func PasswordLink(publicURL, token string) string {
	return strings.TrimRight(publicURL, "/") + "/app/password/" + token
}

func userCreate(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "user create")
	company := companyFlag(fs)
	email := fs.String("email", "", "the user's email address, the login name")
	roleName := fs.String("role", "", "owner (everything) or member (leads only); an address with an account gains this company with this role")
	fromStdin := fs.Bool("password-stdin", false, "read the password (one line) from standard input instead of printing a one-time link")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	if *email == "" {
		return errors.New("--email is required")
	}
	role, err := user.ParseRole(*roleName)
	if err != nil {
		return fmt.Errorf("--role: %w", err)
	}
	var password string
	if *fromStdin {
		line, err := bufio.NewReader(env.Stdin).ReadString('\n')
		if err != nil && line == "" {
			return fmt.Errorf("--password-stdin: reading the password: %w", err)
		}
		password = strings.TrimRight(line, "\r\n")
		if err := user.CheckPasswordRules(password); err != nil {
			return fmt.Errorf("--password-stdin: %w", err)
		}
	}
	u, err := CreateUser(ctx, env.Store, env.PublicURL, id, *email, role, password)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, u)
	}
	if u.Existing {
		fmt.Fprintf(env.Stdout, "user %s (%s) had an account already: now also %s of company %s; password unchanged\n", u.ID, u.Email, u.Role, id)
	} else {
		fmt.Fprintf(env.Stdout, "user %s (%s, %s) created\n", u.ID, u.Email, u.Role)
	}
	if u.Link != "" {
		fmt.Fprintf(env.Stdout, "\nSend this link to the user; it sets the password, once, until %s:\n\n  %s\n",
			u.LinkExpires.Format("2006-01-02 15:04Z07:00"), u.Link)
	}
	return nil
}

func userList(ctx context.Context, env Env, args []string) error {
	id, asJSON, err := idArgs(env, "user list", "company", "the company's id", args)
	if err != nil {
		return err
	}
	users, err := env.Store.Users(ctx, id)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(env.Stdout, users)
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEMAIL\tROLE\tPASSWORD SET\tCREATED")
	for _, u := range users {
		set := "no"
		if u.PasswordSet {
			set = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", u.ID, u.Email, u.Role, set, u.CreatedAt.Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

func userRemove(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "user remove")
	userID := newIDFlag(fs, "user", "user id (from user list)")
	company := fs.String("company", "", "remove the user from this company only (default: from every company)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := userID.id()
	if err != nil {
		return err
	}
	var u user.User
	if *company == "" {
		u, err = env.Store.RemoveUser(ctx, id)
	} else {
		cid, perr := uuidFlag("company", *company)
		if perr != nil {
			return perr
		}
		u, err = env.Store.RemoveCompanyUser(ctx, cid, id)
	}
	if err != nil {
		return fmt.Errorf("user %s: %w", id, err)
	}
	if *asJSON {
		return printJSON(env.Stdout, u)
	}
	if *company == "" {
		fmt.Fprintf(env.Stdout, "user %s (%s) removed from every company; their dashboard sessions end with their next request\n", u.ID, u.Email)
	} else {
		fmt.Fprintf(env.Stdout, "user %s (%s) removed from company %s (and deleted if it was their last); their sessions there end with their next request\n",
			u.ID, u.Email, *company)
	}
	return nil
}
