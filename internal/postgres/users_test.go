package postgres_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/user"
)

// An address with an account becomes a member of another company with its password unchanged,
// and its link there is an invitation: using it leaves the password (and the account's other
// links) alone. The last membership removed takes the account with it.
func TestMembershipsOfOneAccount(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	hash, err := user.HashPassword("az eredeti jelszó")
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.CreateUser(ctx, a, "tobb@ceg.hu", user.Owner, hash, nil)
	if err != nil {
		t.Fatal(err)
	}
	token, link := user.NewLink(time.Now())
	inB, err := s.CreateUser(ctx, b, "tobb@ceg.hu", user.Member, "", &link)
	if err != nil || inB.ID != u.ID || inB.CompanyID != b || inB.Role != user.Member {
		t.Fatalf("inviting the account to B: %+v, %v; want the same account as a member of B", inB, err)
	}
	if _, err := s.CreateUser(ctx, b, "tobb@ceg.hu", user.Owner, "", &link); !errs.Is(err, errs.Conflict) {
		t.Errorf("inviting a member again: %v, want conflict", err)
	}
	ms, err := s.Memberships(ctx, u.ID)
	if err != nil || len(ms) != 2 || ms[0].CompanyID != a || ms[0].Role != user.Owner || ms[1].CompanyID != b || ms[1].CompanyName != "B" {
		t.Fatalf("memberships: %+v, %v", ms, err)
	}
	if got, err := s.User(ctx, b, u.ID); err != nil || got.PasswordSet {
		t.Errorf("the account in B before it came in: %+v, %v; want it shown as invited", got, err)
	}
	// The dashboard reads a session's user, company and companies together: the same as the
	// three reads apart.
	for _, c := range []uuid.UUID{a, b} {
		vu, vc, vms, err := s.Viewer(ctx, c, u.ID)
		wu, _ := s.User(ctx, c, u.ID)
		wc, _ := s.Company(ctx, c)
		if err != nil || vu != wu || vc.ID != wc.ID || vc.Name != wc.Name || vc.Plan != wc.Plan || !cmp.Equal(vms, ms) {
			t.Errorf("Viewer in %v: %+v %+v %+v, %v; want %+v %+v %+v", c, vu, vc, vms, err, wu, wc, ms)
		}
	}
	if _, _, _, err := s.Viewer(ctx, company(t, s, "C"), u.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("Viewer in a company the user is not in: %v, want not found", err)
	}

	other, _ := user.HashPassword("a meghívó jelszava")
	if _, err := s.SetPasswordByLink(ctx, user.LinkHash(token), other); err != nil {
		t.Fatalf("using the invitation: %v", err)
	}
	if _, got, _ := s.UserByEmail(ctx, "tobb@ceg.hu"); got != hash {
		t.Error("an invitation link changed the account's password")
	}
	if _, err := s.LinkUser(ctx, user.LinkHash(token)); !errs.Is(err, errs.NotFound) {
		t.Errorf("the invitation works twice: %v", err)
	}
	if got, err := s.User(ctx, b, u.ID); err != nil || !got.PasswordSet {
		t.Errorf("the account in B after its invitation was used: %+v, %v; want it shown as in", got, err)
	}

	if _, err := s.RemoveCompanyUser(ctx, a, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.User(ctx, a, u.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("still a member of A: %v", err)
	}
	if _, _, err := s.UserByEmail(ctx, "tobb@ceg.hu"); err != nil {
		t.Errorf("the account went with its first membership: %v", err)
	}
	if _, err := s.RemoveCompanyUser(ctx, b, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.UserByEmail(ctx, "tobb@ceg.hu"); !errs.Is(err, errs.NotFound) {
		t.Errorf("the account outlived its last membership: %v", err)
	}
}

// A new address's link sets its password; an account invited elsewhere before it set one keeps
// that first link working after using the second company's invitation.
func TestNewAccountLinkSetsThePassword(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	first, l1 := user.NewLink(time.Now())
	u, err := s.CreateUser(ctx, a, "uj@ceg.hu", user.Member, "", &l1)
	if err != nil {
		t.Fatal(err)
	}
	second, l2 := user.NewLink(time.Now())
	if _, err := s.CreateUser(ctx, b, "uj@ceg.hu", user.Member, "", &l2); err != nil {
		t.Fatal(err)
	}
	hash, _ := user.HashPassword("egy új jelszó 42")
	if _, err := s.SetPasswordByLink(ctx, user.LinkHash(second), hash); err != nil {
		t.Fatal(err)
	}
	if _, got, _ := s.UserByEmail(ctx, "uj@ceg.hu"); got != "" {
		t.Error("B's invitation set the password of an account A created")
	}
	if got, err := s.SetPasswordByLink(ctx, user.LinkHash(first), hash); err != nil || got.ID != u.ID || !got.PasswordSet {
		t.Fatalf("A's link after B's invitation: %+v, %v", got, err)
	}
}

// The memberships migration moves every user's company and role into memberships; rolled back, each user is
// in its first company again, and a user whose memberships all went is gone.
func TestMembershipMigration(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("postgres", pgtest.NewDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := postgres.MigrateTo(ctx, db, 12); err != nil {
		t.Fatal(err)
	}
	a, b, owner, member := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	if _, err := db.Exec(`INSERT INTO companies (id, name, plan) VALUES ($1, 'A', 'free'), ($2, 'B', 'free')`, a, b); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO users (id, company_id, email, role, created_at) VALUES
		($1, $3, 'tulaj@a.hu', 'owner', now() - interval '1 day'), ($2, $3, 'tag@a.hu', 'member', now())`, owner, member, a); err != nil {
		t.Fatal(err)
	}
	if err := postgres.MigrateTo(ctx, db, 20261127084446); err != nil {
		t.Fatal(err)
	}
	var got []string
	rows, err := db.Query(`SELECT u.email || ' ' || m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.company_id = $1 ORDER BY m.created_at`, a)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		rows.Scan(&s)
		got = append(got, s)
	}
	rows.Close()
	if len(got) != 2 || got[0] != "tulaj@a.hu owner" || got[1] != "tag@a.hu member" {
		t.Errorf("memberships after migration 13: %q", got)
	}
	// The owner joins B later; the member leaves A and has no company.
	if _, err := db.Exec(`INSERT INTO memberships (company_id, user_id, role) VALUES ($1, $2, 'member')`, b, owner); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM memberships WHERE user_id = $1`, member); err != nil {
		t.Fatal(err)
	}
	if err := postgres.MigrateTo(ctx, db, 12); err != nil {
		t.Fatal(err)
	}
	var company uuid.UUID
	var role string
	var users int
	if err := db.QueryRow(`SELECT company_id, role, (SELECT count(*) FROM users) FROM users WHERE id = $1`, owner).Scan(&company, &role, &users); err != nil {
		t.Fatal(err)
	}
	if company != a || role != "owner" || users != 1 {
		t.Errorf("after rolling back: the owner in %v as %q, %d users; want A, owner, 1", company, role, users)
	}
}
