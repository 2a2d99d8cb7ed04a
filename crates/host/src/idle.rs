//! Connections that go quiet are closed: a read or write that makes no progress for the idle
//! time fails, so a client that opens connections and sends nothing (or reads nothing) cannot
//! hold them for ever.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::serve::Listener;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// A connection with an idle limit.
pub(crate) struct Idle<T> {
    inner: T,
    limit: Duration,
    timer: Pin<Box<Sleep>>,
}

impl<T> Idle<T> {
    pub(crate) fn new(inner: T, limit: Duration) -> Idle<T> {
        Idle { inner, limit, timer: Box::pin(tokio::time::sleep(limit)) }
    }

    fn progress(&mut self) {
        let limit = self.limit;
        self.timer.as_mut().reset(Instant::now() + limit);
    }

    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.timer.as_mut().poll(cx).is_ready()
    }
}

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "the connection was idle too long")
}

impl<T: AsyncRead + Unpin> AsyncRead for Idle<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(result) => {
                this.progress();
                Poll::Ready(result)
            }
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Idle<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_write(cx, data) {
            Poll::Ready(result) => {
                this.progress();
                Poll::Ready(result)
            }
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_flush(cx) {
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(timed_out())),
            other => other,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The plain HTTP listener, its connections with the idle limit.
pub(crate) struct IdleListener {
    pub(crate) inner: TcpListener,
    pub(crate) limit: Duration,
}

impl Listener for IdleListener {
    type Io = Idle<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (stream, peer) = Listener::accept(&mut self.inner).await;
        // As the prepared listener's: no 40 ms wait for a delayed ACK between two writes.
        let _ = stream.set_nodelay(true);
        (Idle::new(stream, self.limit), peer)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}
