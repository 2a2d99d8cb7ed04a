//! What several hosts on one PostgreSQL database share beyond the rows, each on a connection of
//! its own: one `LISTEN`s on [`CHANGES_CHANNEL`], which every change that routing or
//! certificates depend on announces with `NOTIFY` in its transaction (sent on commit only), and
//! is opened again when lost; the other holds the issuance lease ([`ISSUANCE_LOCK`], a
//! session-level advisory lock) while this host is the one that issues.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, Config, NoTls};

use super::{Postgres, connect, message};
use crate::store::StoreError;

/// The channel every change that routing or the offered certificates depend on is announced
/// on (`NOTIFY` in the change's transaction, so it is sent on commit and only then).
pub const CHANGES_CHANNEL: &str = "playground_host_changes";
/// The advisory lock whose holder is the one host that asks the certificate authority (any
/// constant of the host's, other than the migrations' lock).
const ISSUANCE_LOCK: i64 = 0x0070_6c61_7969_7373;
/// How long the listener waits before connecting again after its connection was lost.
const LISTEN_RETRY: Duration = Duration::from_secs(1);

/// Announces a change on [`CHANGES_CHANNEL`]; PostgreSQL delivers it when `tx` commits, and
/// folds repeats within one transaction into one.
pub(super) async fn notify(tx: &tokio_postgres::Transaction<'_>) -> Result<(), StoreError> {
    tx.batch_execute(&format!("NOTIFY {CHANGES_CHANNEL}")).await?;
    Ok(())
}

/// One `LISTEN` connection until it is lost: each notification on [`CHANGES_CHANNEL`] is
/// passed to `changes`, and one more right after `LISTEN` took effect (changes committed
/// while no connection listened are read then).
async fn listen_once(
    config: &Config,
    shown: &str,
    changes: &mpsc::UnboundedSender<()>,
    listened: &mut bool,
) -> Result<(), String> {
    let (client, mut connection) = config.connect(NoTls).await.map_err(|e| message(&e))?;
    let forward = changes.clone();
    let mut driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(_))) => {
                    if forward.send(()).is_err() {
                        return Ok(());
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(message(&e)),
                None => return Err("the server closed the connection".to_owned()),
            }
        }
    });
    let listening = async {
        client.batch_execute(&format!("LISTEN {CHANGES_CHANNEL}")).await.map_err(|e| message(&e))?;
        *listened = true;
        let _ = changes.send(());
        // Held open while the driver forwards notifications.
        std::future::pending::<Result<(), String>>().await
    };
    let ended = tokio::select! {
        ended = &mut driver => ended.unwrap_or_else(|e| Err(e.to_string())),
        ended = listening => ended,
        () = changes.closed() => Ok(()),
    };
    driver.abort();
    drop(client);
    ended.map_err(|e| format!("listening to {shown} for changes: {e}"))
}

impl Postgres {
    /// Listens for other writers' changes on a connection of its own, connecting again (and
    /// listening again) whenever it is lost, until the receiver is dropped. Each `()` means
    /// "re-read": a change was committed, or changes may have been missed.
    pub(in crate::store) fn changes(&self) -> mpsc::UnboundedReceiver<()> {
        let (sender, receiver) = mpsc::unbounded_channel();
        let config = self.config.clone();
        let shown = self.shown.clone();
        tokio::spawn(async move {
            // Said once per outage, not at every attempt.
            let mut reported = false;
            while !sender.is_closed() {
                let mut listened = false;
                let ended = listen_once(&config, &shown, &sender, &mut listened).await;
                reported &= !listened;
                match ended {
                    Ok(()) => return,
                    Err(e) if !reported => {
                        eprintln!("playground host: {e}; trying again every second");
                        reported = true;
                    }
                    Err(_) => {}
                }
                tokio::select! {
                    () = tokio::time::sleep(LISTEN_RETRY) => {}
                    () = sender.closed() => return,
                }
            }
        });
        receiver
    }

    /// Whether this host is the one that asks the certificate authority: it holds the
    /// session-level advisory lock [`ISSUANCE_LOCK`] on a connection of its own, or takes it
    /// now if no host holds it. The lock is the lease: PostgreSQL releases it when the holder's
    /// connection ends (the host stopped, was killed, or lost the server), and the next host to
    /// ask takes it over.
    pub(in crate::store) async fn lead_issuance(&self) -> Result<bool, StoreError> {
        let mut issuing = self.issuing.lock().await;
        if issuing.as_ref().is_some_and(|c| !c.is_closed()) {
            return Ok(true);
        }
        *issuing = None;
        let client = connect(&self.config, &self.shown).await?;
        let taken: bool =
            client.query_one("SELECT pg_try_advisory_lock($1)", &[&ISSUANCE_LOCK]).await?.try_get(0)?;
        if taken {
            *issuing = Some(client);
        }
        Ok(taken)
    }

    /// Gives the issuance lease up (its connection closes), for another host to take.
    pub(in crate::store) async fn leave_issuance(&self) {
        *self.issuing.lock().await = None;
    }
}
