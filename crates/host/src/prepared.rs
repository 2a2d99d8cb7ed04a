//! Listeners whose connections are prepared before axum sees them, as an axum [`Listener`]: TCP
//! connections are accepted, then, in tasks of their own, the PROXY protocol header is read
//! (with `[listen] proxy_protocol`, giving the client's address) and the TLS handshake made (on
//! the HTTPS listener). Both are bounded in time together (the idle limit or
//! [`MAX_HANDSHAKE_SECS`], whichever is shorter), so a slow client holds up no one else.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::Listener;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

use crate::config::MAX_HANDSHAKE_SECS;
use crate::idle::Idle;
use crate::proxy_protocol;
use crate::services::{Io, TlsAcceptor};

/// Accepted and prepared connections.
pub(crate) struct PreparedListener {
    ready: mpsc::Receiver<(Idle<Box<dyn Io>>, SocketAddr)>,
    local: SocketAddr,
    _accepting: tokio::task::JoinHandle<()>,
}

impl PreparedListener {
    /// Connections of `listener`, each with its PROXY header read first when `proxy`, then its
    /// TLS handshake made with `tls` when given (plain HTTP otherwise).
    pub(crate) fn new(
        listener: TcpListener,
        tls: Option<Arc<dyn TlsAcceptor>>,
        proxy: bool,
        limit: Duration,
    ) -> io::Result<PreparedListener> {
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
                // Answers go out as written: with Nagle's algorithm a response's second write
                // waits for the client's delayed ACK of the first, 40 ms on Linux.
                let _ = stream.set_nodelay(true);
                let tls = tls.clone();
                let sender = sender.clone();
                tokio::spawn(async move {
                    let prepared = prepare(stream, peer, tls, proxy);
                    if let Ok(Ok((io, client))) = tokio::time::timeout(handshake_time, prepared).await {
                        let _ = sender.send((Idle::new(io, limit), client)).await;
                    }
                });
            }
        });
        Ok(PreparedListener { ready, local, _accepting: accepting })
    }
}

/// The PROXY header read (the client's address) when `proxy`, then the handshake when `tls`.
async fn prepare(
    mut stream: TcpStream,
    peer: SocketAddr,
    tls: Option<Arc<dyn TlsAcceptor>>,
    proxy: bool,
) -> io::Result<(Box<dyn Io>, SocketAddr)> {
    let client = if proxy { proxy_protocol::read(&mut stream, peer).await? } else { peer };
    let io: Box<dyn Io> = match tls {
        Some(tls) => tls.accept(stream).await?,
        None => Box::new(stream),
    };
    Ok((io, client))
}

impl Drop for PreparedListener {
    fn drop(&mut self) {
        self._accepting.abort();
    }
}

impl Listener for PreparedListener {
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
