-- +goose Up

-- Every change to who is in a company, to a user's address or to a company's name tells the
-- instances (NOTIFY leadchat_cache 'team', sent at commit), which then forget the lists they
-- keep of them: a company's users (the lead page's assignee select) and a user's companies
-- (the company switcher). Row triggers with WHEN for users and companies, whose other columns
-- change often (passwords, plans) and are in neither list; memberships, which change rarely,
-- by statement. A user's or company's deletion reaches memberships too, but is told here
-- itself so as not to depend on how the rows go.
-- +goose StatementBegin
CREATE FUNCTION notify_team_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('leadchat_cache', 'team');
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER memberships_team AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON memberships
    FOR EACH STATEMENT EXECUTE FUNCTION notify_team_changed();
CREATE TRIGGER users_team_email AFTER UPDATE OF email ON users
    FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION notify_team_changed();
CREATE TRIGGER users_team_gone AFTER DELETE OR TRUNCATE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION notify_team_changed();
CREATE TRIGGER companies_team_name AFTER UPDATE OF name ON companies
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION notify_team_changed();
CREATE TRIGGER companies_team_gone AFTER DELETE OR TRUNCATE ON companies
    FOR EACH STATEMENT EXECUTE FUNCTION notify_team_changed();

-- +goose Down

DROP TRIGGER companies_team_gone ON companies;
DROP TRIGGER companies_team_name ON companies;
DROP TRIGGER users_team_gone ON users;
DROP TRIGGER users_team_email ON users;
DROP TRIGGER memberships_team ON memberships;
DROP FUNCTION notify_team_changed();
