-- +goose Up

-- The people who log in to the dashboard. A user belongs to one company; the email is the login
-- name, so it is unique across companies (stored lower-cased). password_hash is an argon2id PHC
-- string, NULL until the user sets a password through a one-time link.
CREATE TABLE users (
    id            uuid PRIMARY KEY,
    company_id    uuid NOT NULL REFERENCES companies (id),
    email         text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
    role          text NOT NULL CHECK (role IN ('owner', 'member')),
    password_hash text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_company ON users (company_id, created_at);

-- One-time links that set a user's password: only the SHA-256 of the token is kept, and a use
-- deletes the row in the same transaction that stores the password.
CREATE TABLE password_tokens (
    hash       bytea PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_tokens_user ON password_tokens (user_id);

-- Login attempts per email (its SHA-256, so a mistyped address is not kept in clear) that have
-- not succeeded: an attempt is written before the password is checked, so parallel guesses are
-- counted too, and removed again when it succeeds.
CREATE TABLE login_attempts (
    id         bigserial PRIMARY KEY,
    email_hash bytea NOT NULL,
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_email ON login_attempts (email_hash, at);
CREATE INDEX login_attempts_at ON login_attempts (at);

-- Dashboard sessions, in the shape scs's postgresstore reads and writes (token is a SHA-256
-- of the cookie's value).
CREATE TABLE sessions (
    token  text PRIMARY KEY,
    data   bytea NOT NULL,
    expiry timestamptz NOT NULL
);
CREATE INDEX sessions_expiry_idx ON sessions (expiry);

-- How many months a company keeps its leads and chats; NULL keeps them.
ALTER TABLE companies ADD COLUMN retention_months integer CHECK (retention_months BETWEEN 1 AND 1200);

-- A public key is public by design (every page that embeds the widget shows it), so it is kept
-- in full for the dashboard's ready-to-paste snippet; a private key never is.
ALTER TABLE api_keys ADD COLUMN public_key text CHECK (public_key IS NULL OR kind = 'public');

-- +goose Down
ALTER TABLE api_keys DROP COLUMN public_key;
ALTER TABLE companies DROP COLUMN retention_months;
DROP TABLE sessions;
DROP TABLE login_attempts;
DROP TABLE password_tokens;
DROP TABLE users;
