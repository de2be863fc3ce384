-- +goose Up

-- The widget settings of a company; a missing row means the defaults. Theme fields are kept
-- whatever the plan; the config answer shows only those the plan allows, so an upgrade needs
-- no re-entry.
CREATE TABLE widget_settings (
    company_id          uuid PRIMARY KEY REFERENCES companies (id),
    welcome_message     text,
    quick_buttons       text[],
    contact_prompt_text text,
    require_phone       boolean NOT NULL DEFAULT false,
    gate_quote          boolean NOT NULL DEFAULT false,
    primary_hex         text CHECK (primary_hex ~ '^#[0-9A-Fa-f]{6}$'),
    accent_hex          text CHECK (accent_hex ~ '^#[0-9A-Fa-f]{6}$'),
    header_title        text,
    border_radius_px    integer CHECK (border_radius_px BETWEEN 8 AND 28),
    hide_powered_by     boolean,
    language            text NOT NULL DEFAULT 'hu' CHECK (language IN ('hu', 'en')),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

-- What the assistant may say about the company (description, services, FAQ, hours).
CREATE TABLE assistant_profiles (
    company_id uuid PRIMARY KEY REFERENCES companies (id),
    profile    jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- A chat session belongs to one company: the same session_id under another company is another
-- conversation. Contact details gathered so far live here until (and after) they make a lead.
CREATE TABLE chat_sessions (
    company_id       uuid NOT NULL REFERENCES companies (id),
    session_id       text NOT NULL,
    lead_id          uuid REFERENCES leads (id),
    visitor_messages integer NOT NULL DEFAULT 0,
    first_name       text,
    last_name        text,
    email            text,
    phone            text,
    phone_e164       text,
    referral_data    jsonb,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (company_id, session_id)
);

CREATE TABLE chat_messages (
    id         bigserial PRIMARY KEY,
    company_id uuid NOT NULL,
    session_id text NOT NULL,
    visitor    boolean NOT NULL,
    text       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (company_id, session_id) REFERENCES chat_sessions (company_id, session_id)
);
CREATE INDEX chat_messages_session ON chat_messages (company_id, session_id, id);

-- AI model replies per company and UTC day, for the daily model budget.
CREATE TABLE model_usage (
    company_id uuid NOT NULL REFERENCES companies (id),
    day        date NOT NULL,
    replies    integer NOT NULL,
    PRIMARY KEY (company_id, day)
);

-- +goose Down
DROP TABLE model_usage;
DROP TABLE chat_messages;
DROP TABLE chat_sessions;
DROP TABLE assistant_profiles;
DROP TABLE widget_settings;
