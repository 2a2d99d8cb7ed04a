//! The schema of both engines, one entry per version each: SQLite's counted by `PRAGMA
//! user_version`, PostgreSQL's by the row of `schema_version`. Add an entry to both lists, never
//! edit an old one; a test keeps them the same length.

/// The SQLite schema, one entry per version: `MIGRATIONS[i]` takes version `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    r"
CREATE TABLE projects (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    plan TEXT NOT NULL,
    site_dir TEXT NOT NULL,
    -- the chosen primary domain (the first live one when NULL)
    primary_domain TEXT
);
CREATE TABLE domains (
    name TEXT PRIMARY KEY,                 -- one project per name, across the host
    project TEXT NOT NULL REFERENCES projects(name),
    position INTEGER NOT NULL,             -- the order they were added
    state TEXT NOT NULL CHECK (state IN ('added', 'verified', 'reverifying', 'live')),
    -- what a live domain that is not the primary does: 'redirect' (301) or 'serve'
    role TEXT NOT NULL CHECK (role IN ('redirect', 'serve')),
    added_at INTEGER NOT NULL,
    verified_at INTEGER,
    live_at INTEGER,
    check_ok INTEGER,                      -- the last (re-)verification: passed?
    check_message TEXT,                    -- its sentence
    checked_at INTEGER,
    blocking_caa TEXT NOT NULL DEFAULT '[]', -- JSON: CAA records that forbid the CA
    issue_error TEXT,                      -- the CA's message of the last failed issuance
    issue_failed_at INTEGER
);
CREATE INDEX domains_by_project ON domains(project, position);
CREATE TABLE certificates (
    name TEXT PRIMARY KEY,
    chain_pem TEXT NOT NULL,
    key_pem TEXT NOT NULL,
    not_after INTEGER NOT NULL,
    issued_at INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,           -- SHA-256 of the cookie's token
    owner TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE TABLE sign_in_attempts (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    ip TEXT NOT NULL,
    at INTEGER NOT NULL,
    ok INTEGER NOT NULL
);
CREATE INDEX attempts_by_email ON sign_in_attempts(email, at);
CREATE INDEX attempts_by_ip ON sign_in_attempts(ip, at);
CREATE TABLE acme_accounts (
    directory_url TEXT PRIMARY KEY,
    credentials TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
",
    r"
-- HTTP-01 answers being served: any host on the same state answers them.
CREATE TABLE challenges (
    token TEXT PRIMARY KEY,
    key_authorization TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
",
    r"
-- Counts the changes written to a project: a write names the revision it read, and is refused
-- when another writer committed in between.
ALTER TABLE projects ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
",
];

/// The PostgreSQL schema, version for version the same tables as [`MIGRATIONS`]: times are
/// `BIGINT` seconds, flags `BOOLEAN`.
pub const POSTGRES_MIGRATIONS: &[&str] = &[
    r"
CREATE TABLE projects (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    plan TEXT NOT NULL,
    site_dir TEXT NOT NULL,
    primary_domain TEXT
);
CREATE TABLE domains (
    name TEXT PRIMARY KEY,
    project TEXT NOT NULL REFERENCES projects(name),
    position BIGINT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('added', 'verified', 'reverifying', 'live')),
    role TEXT NOT NULL CHECK (role IN ('redirect', 'serve')),
    added_at BIGINT NOT NULL,
    verified_at BIGINT,
    live_at BIGINT,
    check_ok BOOLEAN,
    check_message TEXT,
    checked_at BIGINT,
    blocking_caa TEXT NOT NULL DEFAULT '[]',
    issue_error TEXT,
    issue_failed_at BIGINT
);
CREATE INDEX domains_by_project ON domains(project, position);
CREATE TABLE certificates (
    name TEXT PRIMARY KEY,
    chain_pem TEXT NOT NULL,
    key_pem TEXT NOT NULL,
    not_after BIGINT NOT NULL,
    issued_at BIGINT NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE TABLE sign_in_attempts (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email TEXT NOT NULL,
    ip TEXT NOT NULL,
    at BIGINT NOT NULL,
    ok BOOLEAN NOT NULL
);
CREATE INDEX attempts_by_email ON sign_in_attempts(email, at);
CREATE INDEX attempts_by_ip ON sign_in_attempts(ip, at);
CREATE TABLE acme_accounts (
    directory_url TEXT PRIMARY KEY,
    credentials TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
",
    r"
CREATE TABLE challenges (
    token TEXT PRIMARY KEY,
    key_authorization TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
",
    r"
ALTER TABLE projects ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
",
];

/// The schema version this host writes.
#[must_use]
pub fn schema_version() -> u32 {
    u32::try_from(MIGRATIONS.len()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_engines_are_at_the_same_version() {
        assert_eq!(MIGRATIONS.len(), POSTGRES_MIGRATIONS.len());
    }
}
