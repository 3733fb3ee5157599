//! The server's listener: connections counted (in all and per address)
//! and refused past [`crate::Limits::connections`] and
//! [`crate::Limits::connections_per_address`] with a 503 that says why; a
//! connection that has not become a WebSocket within
//! [`crate::Limits::header_timeout`] of opening (a half-sent header, or
//! nothing sent at all) is closed. A connection's count is given back when
//! it closes.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;

use crate::Limits;

/// The open connections: in all and by address.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// The connections open now.
pub(crate) fn open(counts: &Mutex<Counts>) -> usize {
    counts.lock().unwrap_or_else(|e| e.into_inner()).total
}

/// Refusals being written at once, at most; past it a refused connection
/// is closed without a word.
const MAX_REFUSING: usize = 64;

/// One connection's place in the counts, given back when dropped.
struct Slot {
    counts: Arc<Mutex<Counts>>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total = c.total.saturating_sub(1);
        if let Some(n) = c.by_address.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                c.by_address.remove(&self.ip);
            }
        }
    }
}

/// Takes a place for a connection from `ip`, or says why there is none.
fn admit(counts: &Arc<Mutex<Counts>>, limits: &Limits, ip: IpAddr) -> Result<Slot, String> {
    let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
    if c.total >= limits.connections {
        return Err(format!(
            "too many connections to this server ({}): try again later",
            limits.connections
        ));
    }
    let here = c.by_address.get(&ip).copied().unwrap_or(0);
    if here >= limits.connections_per_address {
        return Err(format!(
            "too many connections from your address (at most {})",
            limits.connections_per_address
        ));
    }
    c.total += 1;
    *c.by_address.entry(ip).or_insert(0) += 1;
    Ok(Slot {
        counts: counts.clone(),
        ip,
    })
}

/// The listener handed to axum.
pub(crate) struct Limited {
    listener: TcpListener,
    counts: Arc<Mutex<Counts>>,
    limits: Limits,
    refusing: Arc<AtomicUsize>,
}

impl Limited {
    pub(crate) fn new(listener: TcpListener, counts: Arc<Mutex<Counts>>, limits: Limits) -> Self {
        Limited {
            listener,
            counts,
            limits,
            refusing: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Answers a refused connection with a 503 and its reason, then closes
    /// it (reading what the client sent first, so that the answer is not
    /// lost to a reset); a bounded number at once.
    fn refuse(&self, mut tcp: TcpStream, why: String) {
        if self.refusing.fetch_add(1, Ordering::SeqCst) >= MAX_REFUSING {
            self.refusing.fetch_sub(1, Ordering::SeqCst);
            return;
        }
        let refusing = self.refusing.clone();
        tokio::spawn(async move {
            let answer = format!(
                "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{why}",
                why.len()
            );
            let _ = tokio::time::timeout(Duration::from_secs(2), async {
                let mut buf = [0u8; 2048];
                // The request (or what came of it) first, then the answer.
                let _ = tokio::time::timeout(Duration::from_millis(200), tcp.read(&mut buf)).await;
                tcp.write_all(answer.as_bytes()).await?;
                tcp.shutdown().await?;
                while tcp.read(&mut buf).await? > 0 {}
                Ok::<(), io::Error>(())
            })
            .await;
            refusing.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

impl Listener for Limited {
    type Io = Guarded;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Guarded, SocketAddr) {
        loop {
            let (tcp, addr) = match self.listener.accept().await {
                Ok(a) => a,
                Err(_) => {
                    // Out of file descriptors and the like: wait a little.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            match admit(&self.counts, &self.limits, addr.ip()) {
                Ok(slot) => {
                    // Small messages both ways: no Nagle delay on each push.
                    let _ = tcp.set_nodelay(true);
                    let guarded = Guarded {
                        tcp,
                        _slot: slot,
                        deadline: Some(Box::pin(tokio::time::sleep(self.limits.header_timeout))),
                        info: ConnInfo {
                            upgraded: Arc::new(AtomicBool::new(false)),
                            from: addr,
                        },
                    };
                    return (guarded, addr);
                }
                Err(why) => {
                    let limit = if why.contains("your address") {
                        "connections_per_address"
                    } else {
                        "connections"
                    };
                    crate::logs::limit_hit(limit, None, Some(addr.ip()));
                    self.refuse(tcp, why)
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// What a handler learns of its connection.
#[derive(Debug, Clone)]
pub(crate) struct ConnInfo {
    /// Set when the connection becomes a WebSocket: its header deadline
    /// no longer holds.
    pub(crate) upgraded: Arc<AtomicBool>,
    /// The client's address (the log-in limits per address).
    pub(crate) from: SocketAddr,
}

impl Connected<IncomingStream<'_, Limited>> for ConnInfo {
    fn connect_info(stream: IncomingStream<'_, Limited>) -> Self {
        stream.io().info.clone()
    }
}

/// An accepted connection: its place in the counts and, until it becomes
/// a WebSocket, the time by which it must have.
pub(crate) struct Guarded {
    tcp: TcpStream,
    _slot: Slot,
    deadline: Option<Pin<Box<Sleep>>>,
    info: ConnInfo,
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.info.upgraded.load(Ordering::Relaxed) {
            this.deadline = None;
        }
        if let Some(d) = &mut this.deadline
            && d.as_mut().poll(cx).is_ready()
        {
            // Also how a kept-alive HTTP connection (a health check's) ends:
            // not worth more than a debug line.
            tracing::debug!(address = %this.info.from, limit = "header_timeout", "connection timed out");
            this.deadline = None;
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "no request in time",
            )));
        }
        Pin::new(&mut this.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}
