// Package user holds the people who log in to the dashboard: their roles and what each role
// may do, password hashing, and the login throttle's rule. It knows nothing of HTTP or SQL.
package user

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/limits"
)

// Role is what a user may do in the dashboard.
type Role string

// The roles: an owner does everything, a member works on leads only.
const (
	Owner  Role = "owner"
	Member Role = "member"
)

// ParseRole checks a role name.
func ParseRole(s string) (Role, error) {
	switch Role(s) {
	case Owner, Member:
		return Role(s), nil
	}
	return "", fmt.Errorf("unknown role %q: want owner or member", s)
}

// Area is a part of the dashboard that a role may or may not reach.
type Area int

// The areas of the dashboard.
const (
	// Leads are the company's leads: reading them and changing their status.
	Leads Area = iota
	// Settings are the keys, the widget, the assistant profile and the usage figures.
	Settings
	// Team is the list of the company's users: inviting and removing them.
	Team
)

// May reports whether the role reaches the area.
func (r Role) May(a Area) bool {
	switch r {
	case Owner:
		return true
	case Member:
		return a == Leads
	}
	return false
}

// User is one person who logs in, as a member of one company (CompanyID and Role), or as an
// account in no company (both zero) where no company is in question yet.
type User struct {
	ID        uuid.UUID `json:"id"`
	CompanyID uuid.UUID `json:"company_id,omitzero"`
	Email     string    `json:"email"`
	Role      Role      `json:"role,omitzero"`
	// PasswordSet is false until the user has set a password through a one-time link; in a
	// company, also until they first came in to it.
	PasswordSet bool      `json:"password_set"`
	CreatedAt   time.Time `json:"created_at"`
}

// Viewer is a user as a member of one company, with that company and every company the user
// may switch between: who is logged in, as a dashboard page shows them.
type Viewer struct {
	User
	Company   company.Company
	Companies []Membership
}

// Membership is a user's place in one company.
type Membership struct {
	CompanyID   uuid.UUID `json:"company_id"`
	CompanyName string    `json:"company_name"`
	Role        Role      `json:"role"`
}

// ErrInvalidEmail is returned by NormalizeEmail for what is not one plain address.
var ErrInvalidEmail = errors.New("not an email address")

// NormalizeEmail trims and lower-cases an address, the form it is stored and looked up in, so
// that a login does not depend on how the user capitalised it.
func NormalizeEmail(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) < 3 || len(s) > limits.EmailLen || strings.ContainsAny(s, " \t\r\n<>\"") {
		return "", ErrInvalidEmail
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return "", ErrInvalidEmail
	}
	return s, nil
}

// EmailKey is what the login throttle counts attempts under: the SHA-256 of the address as
// typed after normalizing what can be, so that an address nobody has is not kept in clear. Each
// kind of key (email, client, device) hashes its own prefix, so no typed text can stand for
// another kind's key.
func EmailKey(typed string) [32]byte {
	return sha256.Sum256([]byte("email\x00" + strings.ToLower(strings.TrimSpace(typed))))
}
