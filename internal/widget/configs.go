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
	// rendered holds each company's config as the one renderer given to Rendered made it, by
	// plan; it empties with the settings.
	rendered *cache.Map[renderedKey, []byte]
}

type renderedKey struct {
	companyID uuid.UUID
	plan      plan.Plan
}

// NewConfigs builds the config cache over a store.
func NewConfigs(store SettingsStore) *Configs {
	return &Configs{store: store, cache: cache.New[uuid.UUID, Settings]("widget"),
		rendered: cache.New[renderedKey, []byte]("widget")}
}

// Cache is the cache to connect to the change feed. The settings come first: a change empties
// them before the renderings, so a rendering made after its own map emptied reads new settings.
func (c *Configs) Cache() cache.Follower { return cache.Group{c.cache, c.rendered} }

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

// Rendered returns render(config), the config a company's widget receives on plan p as its
// caller encodes it, made once per settings and plan: a page view costs no encoding. Every call
// must pass the same render; the result is shared, and the caller must not change it.
func (c *Configs) Rendered(ctx context.Context, companyID uuid.UUID, p plan.Plan, render func(Config) ([]byte, error)) ([]byte, error) {
	return c.rendered.Get(ctx, renderedKey{companyID, p}, func(ctx context.Context) ([]byte, error) {
		cfg, err := c.Config(ctx, companyID, p)
		if err != nil {
			return nil, err
		}
		return render(cfg)
	})
}
