-- +goose Up

-- A user (one address, one password) is a member of one or more companies, with a role in
-- each. The company and role move from users to memberships; a user keeps existing while it
-- has a membership (removing the last one removes the user). accepted_at is when the member
-- first came in (through the invitation's link, or by opening the company after a login): what
-- the company's team page shows, the same for an address new to the service and one known
-- elsewhere.
CREATE TABLE memberships (
    company_id  uuid NOT NULL REFERENCES companies (id),
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        text NOT NULL CHECK (role IN ('owner', 'member')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    accepted_at timestamptz,
    PRIMARY KEY (company_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id, created_at);
INSERT INTO memberships (company_id, user_id, role, created_at, accepted_at)
SELECT company_id, id, role, created_at, CASE WHEN password_hash IS NOT NULL THEN updated_at END FROM users;

-- A one-time link either sets its user's password (the link of a new user) or only brings
-- them to the dashboard (an invitation of an address that has an account already: whoever
-- invited it must not be able to set that account's password). It belongs to the membership
-- it was made for, which its use accepts.
ALTER TABLE password_tokens ADD COLUMN sets_password boolean NOT NULL DEFAULT true,
    ADD COLUMN company_id uuid REFERENCES companies (id) ON DELETE CASCADE;
UPDATE password_tokens t SET company_id = u.company_id FROM users u WHERE u.id = t.user_id;

DROP INDEX users_company;
ALTER TABLE users DROP COLUMN company_id, DROP COLUMN role;

-- Secrets the server keeps for itself (the key that signs device cookies), made once by the
-- first instance that needs one and shared by every instance.
CREATE TABLE server_secrets (
    name       text PRIMARY KEY,
    secret     bytea NOT NULL CHECK (length(secret) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE server_secrets;
DELETE FROM password_tokens WHERE NOT sets_password;
ALTER TABLE password_tokens DROP COLUMN sets_password, DROP COLUMN company_id;
-- Back to one company per user: each user keeps its oldest membership; users without any go.
ALTER TABLE users ADD COLUMN company_id uuid REFERENCES companies (id), ADD COLUMN role text;
UPDATE users u SET company_id = m.company_id, role = m.role
FROM (SELECT DISTINCT ON (user_id) user_id, company_id, role FROM memberships ORDER BY user_id, created_at, company_id) m
WHERE m.user_id = u.id;
DELETE FROM users WHERE company_id IS NULL;
ALTER TABLE users ALTER COLUMN company_id SET NOT NULL, ALTER COLUMN role SET NOT NULL,
    ADD CONSTRAINT users_role_check CHECK (role IN ('owner', 'member'));
CREATE INDEX users_company ON users (company_id, created_at);
DROP TABLE memberships;
