//! The PROXY protocol (version 2, HAProxy's `send-proxy-v2`) in front of every connection when
//! `[listen] proxy_protocol` is on: a balancer that passes TCP through names the client's
//! address in a header before the client's first byte, so the host counts sign-in attempts per
//! client, not one count for every client behind the balancer. The header is read to its last
//! byte and no further (the TLS handshake or the request follows it), parsed by `ppp`, and
//! bounded in size; a connection without one is closed.

use std::io;
use std::net::SocketAddr;

use ppp::v2::{Addresses, Command, Header, PROTOCOL_PREFIX};
use tokio::io::{AsyncRead, AsyncReadExt};

/// The fixed part: the 12-byte signature, version and command, family, and the length of the
/// rest.
const FIXED: usize = 16;
/// Longest rest read: the addresses (216 bytes at most, for unix sockets) and room for a
/// balancer's TLVs.
pub(crate) const MAX_REST: usize = 1024;

/// Reads the header at the start of `stream`: the client's address it names, `peer` (the
/// connection's own) for a LOCAL header (the balancer's health checks) or an address that is
/// not IP.
///
/// # Errors
/// The stream ended first, or did not start with a version 2 header, or the header is
/// malformed or longer than [`MAX_REST`].
pub(crate) async fn read<S: AsyncRead + Unpin>(stream: &mut S, peer: SocketAddr) -> io::Result<SocketAddr> {
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidData, why);
    let mut buffer = vec![0_u8; FIXED];
    stream.read_exact(&mut buffer).await?;
    if !buffer.starts_with(PROTOCOL_PREFIX) {
        return Err(invalid("the connection did not start with a PROXY protocol v2 header".to_owned()));
    }
    let rest = usize::from(u16::from_be_bytes([buffer[14], buffer[15]]));
    if rest > MAX_REST {
        return Err(invalid(format!("a PROXY protocol header of {rest} bytes (at most {MAX_REST})")));
    }
    buffer.resize(FIXED + rest, 0);
    stream.read_exact(&mut buffer[FIXED..]).await?;
    let header = Header::try_from(buffer.as_slice())
        .map_err(|e| invalid(format!("a bad PROXY protocol header: {e}")))?;
    Ok(match (header.command, header.addresses) {
        (Command::Proxy, Addresses::IPv4(a)) => SocketAddr::from((a.source_address, a.source_port)),
        (Command::Proxy, Addresses::IPv6(a)) => SocketAddr::from((a.source_address, a.source_port)),
        _ => peer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer() -> SocketAddr {
        "127.0.0.1:40000".parse().unwrap()
    }

    /// A version 2 PROXY header for TCP over IPv4 from `source`, then `after`.
    fn header(command: u8, source: [u8; 4], port: u16, after: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::from(PROTOCOL_PREFIX);
        bytes.extend([command, 0x11, 0, 12]);
        bytes.extend(source);
        bytes.extend([10, 0, 0, 11]);
        bytes.extend(port.to_be_bytes());
        bytes.extend(443_u16.to_be_bytes());
        bytes.extend(after);
        bytes
    }

    #[tokio::test]
    async fn the_client_is_the_one_the_header_names_and_nothing_after_it_is_read() {
        let bytes = header(0x21, [203, 0, 113, 7], 51_000, b"\x16\x03\x01 the client hello");
        let mut stream = bytes.as_slice();
        let client = read(&mut stream, peer()).await.unwrap();
        assert_eq!(client, "203.0.113.7:51000".parse::<SocketAddr>().unwrap());
        assert_eq!(stream, b"\x16\x03\x01 the client hello", "the client's bytes are left");

        let mut v6 = Vec::from(PROTOCOL_PREFIX);
        v6.extend([0x21, 0x21, 0, 36]);
        v6.extend([0x20, 0x01, 0x0d, 0xb8].iter().chain(&[0; 11]).chain(&[9]));
        v6.extend([0; 16]);
        v6.extend([0x1f, 0x90, 1, 187]);
        assert_eq!(read(&mut v6.as_slice(), peer()).await.unwrap(), "[2001:db8::9]:8080".parse().unwrap());
    }

    #[tokio::test]
    async fn a_health_check_is_the_balancer_itself() {
        let bytes = header(0x20, [203, 0, 113, 7], 51_000, b"");
        assert_eq!(read(&mut bytes.as_slice(), peer()).await.unwrap(), peer());
    }

    #[tokio::test]
    async fn anything_else_is_refused() {
        for (bad, says) in [
            (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(), "did not start with"),
            (b"PROXY TCP4 203.0.113.7 10.0.0.11 51000 80\r\n".to_vec(), "did not start with"),
            (header(0x21, [203, 0, 113, 7], 51_000, b"")[..20].to_vec(), "early eof"),
            (header(0x31, [203, 0, 113, 7], 51_000, b""), "bad PROXY protocol header"),
        ] {
            let error = read(&mut bad.as_slice(), peer()).await.unwrap_err().to_string();
            assert!(error.contains(says), "{error}");
        }
        let mut long = Vec::from(PROTOCOL_PREFIX);
        long.extend([0x21, 0x11, 0xff, 0xff]);
        let error = read(&mut long.as_slice(), peer()).await.unwrap_err().to_string();
        assert!(error.contains("65535 bytes"), "{error}");
    }
}
