//! The HTTPS listener as an axum [`Listener`]: TCP connections are accepted and handed to the
//! [`TlsAcceptor`]; handshakes run in tasks of their own (bounded in time: the idle limit or
//! [`MAX_HANDSHAKE_SECS`], whichever is shorter), so a slow client holds up no one else.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::Listener;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use crate::config::MAX_HANDSHAKE_SECS;
use crate::idle::Idle;
use crate::services::{Io, TlsAcceptor};

/// Accepted and handshaken connections.
pub(crate) struct TlsListener {
    ready: mpsc::Receiver<(Idle<Box<dyn Io>>, SocketAddr)>,
    local: SocketAddr,
    _accepting: tokio::task::JoinHandle<()>,
}

impl TlsListener {
    pub(crate) fn new(
        listener: TcpListener,
        acceptor: Arc<dyn TlsAcceptor>,
        limit: Duration,
    ) -> io::Result<TlsListener> {
        let local = listener.local_addr()?;
        // A silent connection is closed within the idle limit, before and after the handshake.
        let handshake_time = Duration::from_secs(MAX_HANDSHAKE_SECS).min(limit);
        let (sender, ready) = mpsc::channel(64);
        let accepting = tokio::spawn(async move {
            loop {
                let (stream, peer) = match listener.accept().await {
                    Ok(accepted) => accepted,
                    Err(_) => {
                        // Out of descriptors and the like: wait, as axum's own listener does.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let acceptor = Arc::clone(&acceptor);
                let sender = sender.clone();
                tokio::spawn(async move {
                    if let Ok(Ok(io)) = tokio::time::timeout(handshake_time, acceptor.accept(stream)).await {
                        let _ = sender.send((Idle::new(io, limit), peer)).await;
                    }
                });
            }
        });
        Ok(TlsListener { ready, local, _accepting: accepting })
    }
}

impl Drop for TlsListener {
    fn drop(&mut self) {
        self._accepting.abort();
    }
}

impl Listener for TlsListener {
    type Io = Idle<Box<dyn Io>>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(connection) => connection,
            // The accepting task ended (only when dropped): nothing more comes.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        Ok(self.local)
    }
}
