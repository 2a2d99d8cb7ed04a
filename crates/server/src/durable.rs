//! Durable answers with `--state`: a change is answered only once its records are committed
//! and synced, and concurrent writers share one commit.
//!
//! Under the mock's lock, every request hands the records it changed to the writer thread, in
//! the order the mock made the changes, and numbers them. The writer takes whatever is waiting,
//! writes it in one transaction, syncs, and publishes the last number committed. An answer
//! waits until the commit covers the last change made before it (its own, or one it may have
//! read), so no client ever sees a state a crash could take back.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use tokio::sync::watch;

use crate::Served;
use crate::state_db::{StateDb, Write};

/// The most changes written in one commit.
const MAX_GROUP: usize = 1024;

/// The writer of one state database.
#[derive(Debug)]
pub struct Durable {
    /// `None` once closed.
    sender: Mutex<Option<Sender<(u64, Write)>>>,
    /// The number of the last change handed over (moved under the mock's lock only).
    queued: AtomicU64,
    committed: watch::Receiver<u64>,
    /// Commits made (each holds one or more changes).
    commits: Arc<AtomicU64>,
    writer: Mutex<Option<JoinHandle<()>>>,
}

impl Durable {
    /// Starts the writer of `db`. A commit that fails stops the process (exit status 1) after
    /// saying why on stderr, so that no change is answered unsaved; `program` starts the
    /// message.
    #[must_use]
    pub fn start(program: &'static str, db: StateDb) -> Self {
        let (sender, receiver) = mpsc::channel();
        let (published, committed) = watch::channel(0);
        let commits = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&commits);
        let writer = std::thread::Builder::new()
            .name("state-writer".to_owned())
            .spawn(move || write_groups(program, db, &receiver, &published, &counted))
            .ok();
        if writer.is_none() {
            eprintln!("{program}: cannot start the state writer; stopping");
            std::process::exit(1);
        }
        Self {
            sender: Mutex::new(Some(sender)),
            queued: AtomicU64::new(0),
            committed,
            commits,
            writer: Mutex::new(writer),
        }
    }

    /// Hands what `mock` changed since the last call to the writer. Call it under the mock's
    /// lock after every request; returns the change number the answer must wait for
    /// ([`Durable::wait`]): the last handed over, whoever made it.
    pub fn after(&self, mock: &mut Served) -> u64 {
        if let Some(write) = mock.take_write() {
            let number = self.queued.load(Ordering::SeqCst) + 1;
            let sender = self.sender.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(sender) = sender.as_ref() {
                // A change the writer no longer takes (the server is stopping) is never
                // committed, so its answer waits for good: the process ends first.
                let _ = sender.send((number, write));
            }
            self.queued.store(number, Ordering::SeqCst);
        }
        self.queued.load(Ordering::SeqCst)
    }

    /// Waits until every change up to `number` is committed; for ever when the writer has
    /// stopped before committing it (an unsaved change is never answered).
    pub async fn wait(&self, number: u64) {
        let mut committed = self.committed.clone();
        if committed.wait_for(|done| *done >= number).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// Commits what is waiting and stops the writer (the database is then closed). Returns
    /// how many changes were written, and in how many commits.
    pub fn close(&self) -> (u64, u64) {
        self.sender.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(writer) = self.writer.lock().unwrap_or_else(PoisonError::into_inner).take() {
            let _ = writer.join();
        }
        (self.queued.load(Ordering::SeqCst), self.commits.load(Ordering::Relaxed))
    }
}

fn write_groups(
    program: &str,
    mut db: StateDb,
    receiver: &Receiver<(u64, Write)>,
    published: &watch::Sender<u64>,
    commits: &AtomicU64,
) {
    while let Ok(first) = receiver.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP
            && let Ok(next) = receiver.try_recv()
        {
            group.push(next);
        }
        let last = group.last().map_or(0, |(number, _)| *number);
        let writes: Vec<Write> = group.into_iter().map(|(_, write)| write).collect();
        if let Err(error) = db.write(&writes) {
            // The changes are in memory only: answering them would tell clients they are kept.
            // Stop instead, as a database does when it cannot sync; the file holds every change
            // answered before.
            eprintln!(
                "{program}: cannot save the state to {}: {error}\n{program}: stopping, so that no \
                 change is answered unsaved",
                db.path().display()
            );
            std::process::exit(1);
        }
        published.send_replace(last);
        commits.fetch_add(1, Ordering::Relaxed);
    }
}
