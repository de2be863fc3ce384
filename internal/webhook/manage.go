package webhook

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
)

// Endpoints stores a company's webhook endpoints: what adding one and rotating its secret need.
type Endpoints interface {
	CreateEndpoint(ctx context.Context, companyID uuid.UUID, url string, events []event.Type, secret string) (event.Endpoint, error)
	RotateSecret(ctx context.Context, companyID, endpointID uuid.UUID, secret string, grace time.Duration) (event.Endpoint, error)
}

// ErrBadURL is wrapped by the refusal of an endpoint's address.
var ErrBadURL = errors.New("bad webhook URL")

// RotationGrace is how long, by default, a rotated-out secret keeps signing beside the new one,
// so a receiver has time to take the new secret without refusing a message meanwhile.
const RotationGrace = 24 * time.Hour

// MaxRotationGrace bounds the grace period a rotation may ask for.
const MaxRotationGrace = 7 * 24 * time.Hour

// Add checks an endpoint's address and event type names (none means every type), makes its
// signing secret and stores it for the company. The secret is returned this once: the admin
// command and the dashboard show it, and nothing shows it again. An address refused wraps
// ErrBadURL, a type name refused wraps event.ErrUnknownType.
func Add(ctx context.Context, s Endpoints, companyID uuid.UUID, url string, typeNames []string, allowPrivate bool) (event.Endpoint, string, error) {
	if err := CheckURL(url, allowPrivate); err != nil {
		return event.Endpoint{}, "", err
	}
	types := []event.Type{}
	for _, name := range typeNames {
		t, err := event.ParseType(name)
		if err != nil {
			return event.Endpoint{}, "", err
		}
		types = append(types, t)
	}
	secret, err := NewSecret()
	if err != nil {
		return event.Endpoint{}, "", err
	}
	ep, err := s.CreateEndpoint(ctx, companyID, url, types, secret)
	if err != nil {
		return event.Endpoint{}, "", err
	}
	return ep, secret, nil
}

// Rotate gives a company's endpoint a new secret, returned this once; the old one keeps
// signing beside it (two signatures on each message) for grace, at most MaxRotationGrace.
func Rotate(ctx context.Context, s Endpoints, companyID, endpointID uuid.UUID, grace time.Duration) (event.Endpoint, string, error) {
	if grace < 0 || grace > MaxRotationGrace {
		return event.Endpoint{}, "", fmt.Errorf("grace %v: want 0 to %v", grace, MaxRotationGrace)
	}
	secret, err := NewSecret()
	if err != nil {
		return event.Endpoint{}, "", err
	}
	ep, err := s.RotateSecret(ctx, companyID, endpointID, secret, grace)
	if err != nil {
		return event.Endpoint{}, "", err
	}
	return ep, secret, nil
}
