//! The `[database] url` of the host's configuration: read and checked (the configuration does
//! it when it is loaded, the store when it connects) and said in messages without its password.
//! A leaf: it knows tokio-postgres's `Config`, nothing of the host's.

use std::str::FromStr;
use std::time::Duration;

use tokio_postgres::Config;
use tokio_postgres::config::Host;

/// How long connecting may take when the URL sets no `connect_timeout`.
const CONNECT_TIME: Duration = Duration::from_secs(5);

/// Parses a `postgres://` or `postgresql://` URL; the error says what is wrong with it.
///
/// # Errors
/// Not such a URL, or one tokio-postgres cannot read.
pub fn parse_url(url: &str) -> Result<Config, String> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err("it must start with postgres:// or postgresql://".to_owned());
    }
    let mut config = Config::from_str(url).map_err(|e| e.to_string())?;
    if config.get_hosts().is_empty() {
        return Err("it names no host (postgres://user@host:port/database)".to_owned());
    }
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIME);
    }
    Ok(config)
}

/// The database as said in messages: user, host, port and database, never the password.
#[must_use]
pub fn shown(config: &Config) -> String {
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(name)) => name.clone(),
        Some(Host::Unix(path)) => path.display().to_string(),
        None => String::new(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().map(|u| format!("{u}@")).unwrap_or_default();
    let db = config.get_dbname().unwrap_or_default();
    format!("postgres://{user}{host}:{port}/{db}")
}
