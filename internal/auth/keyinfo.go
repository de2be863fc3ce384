package auth

import (
	"time"

	"github.com/google/uuid"
)

// KeyInfo is an API key as listings show it: never the key itself, only its prefix.
type KeyInfo struct {
	ID             uuid.UUID  `json:"id"`
	CompanyID      uuid.UUID  `json:"company_id"`
	Kind           Kind       `json:"kind"`
	Prefix         string     `json:"prefix"`
	AllowedDomains []string   `json:"allowed_domains"`
	HostnameCheck  bool       `json:"hostname_check"`
	CreatedAt      time.Time  `json:"created_at"`
	RevokedAt      *time.Time `json:"revoked_at"`
}

// NewKey is what is stored of a freshly generated key: its hash, never the key.
type NewKey struct {
	Kind           Kind
	Prefix         string
	Hash           [32]byte
	AllowedDomains []string
	HostnameCheck  bool
}
