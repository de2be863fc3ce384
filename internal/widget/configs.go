package widget

import (
	"context"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/cache"
	"github.com/leadchat/leadchat/internal/plan"
)

// SettingsStore loads a company's widget settings (the defaults when it set none).
type SettingsStore interface {
	WidgetSettings(ctx context.Context, companyID uuid.UUID) (Settings, error)
}

// Configs serves widget configs from memory: a page view of a customer site costs no database
// round trip, and a `widget set` in any process reaches every instance through the change feed.
type Configs struct {
	store SettingsStore
	cache *cache.Map[uuid.UUID, Settings]
}

// NewConfigs builds the config cache over a store.
func NewConfigs(store SettingsStore) *Configs {
	return &Configs{store: store, cache: cache.New[uuid.UUID, Settings]("widget")}
}

// Cache is the cache to connect to the change feed.
func (c *Configs) Cache() cache.Follower { return c.cache }

// Settings returns a company's settings.
func (c *Configs) Settings(ctx context.Context, companyID uuid.UUID) (Settings, error) {
	return c.cache.Get(ctx, companyID, func(ctx context.Context) (Settings, error) {
		return c.store.WidgetSettings(ctx, companyID)
	})
}

// Config returns the config a company's widget receives on plan p.
func (c *Configs) Config(ctx context.Context, companyID uuid.UUID, p plan.Plan) (Config, error) {
	s, err := c.Settings(ctx, companyID)
	if err != nil {
		return Config{}, err
	}
	return s.Config(p), nil
}
