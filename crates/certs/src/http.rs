//! The HTTPS client that talks to the ACME CA (and, in tests, to Pebble's management API):
//! the system's roots plus an optional extra root, one crypto provider (ring), a deadline per
//! request and a cap on every body.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use instant_acme::{BodyWrapper, BytesResponse, HttpClient};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

/// How long one request may take, from connecting to the last byte of the body.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// The largest body read from the CA: a certificate chain or a JSON document is a few KB.
pub(crate) const MAX_BODY: usize = 1 << 20;

/// The crypto provider of every TLS configuration in this crate.
pub(crate) fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A client that trusts the system's roots plus `extra_root_pem` (PEM certificates, such as a
/// test CA's own listener certificate). `https_only` refuses plain `http://` URLs.
pub(crate) fn client(
    extra_root_pem: Option<&str>,
    https_only: bool,
) -> Result<Client<HttpsConnector<HttpConnector>, BodyWrapper<Bytes>>, String> {
    let mut extra = Vec::new();
    if let Some(pem) = extra_root_pem {
        for cert in CertificateDer::pem_slice_iter(pem.as_bytes()) {
            extra.push(cert.map_err(|e| format!("the extra root certificate is not valid PEM: {e}"))?);
        }
        if extra.is_empty() {
            return Err("the extra root PEM holds no certificate".to_owned());
        }
    }
    let verifier = rustls_platform_verifier::Verifier::new_with_extra_roots(extra, provider())
        .map_err(|e| format!("cannot load the trusted roots: {e}"))?;
    let config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    let builder = hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(config);
    let connector =
        if https_only { builder.https_only() } else { builder.https_or_http() }.enable_http1().build();
    Ok(Client::builder(TokioExecutor::new()).build(connector))
}

/// Sends `request` and reads the whole answer within [`REQUEST_TIMEOUT`] and [`MAX_BODY`].
pub(crate) async fn exchange(
    client: &Client<HttpsConnector<HttpConnector>, BodyWrapper<Bytes>>,
    request: http::Request<BodyWrapper<Bytes>>,
) -> Result<(http::response::Parts, Bytes), String> {
    let uri = request.uri().to_string();
    let response = client.request(request);
    let read = async move {
        let response = response.await.map_err(|e| format!("{uri}: {}", chain(&e)))?;
        let (parts, body) = response.into_parts();
        let body = Limited::new(body, MAX_BODY)
            .collect()
            .await
            .map_err(|e| format!("{uri}: reading the answer failed (at most {MAX_BODY} bytes): {e}"))?
            .to_bytes();
        Ok((parts, body))
    };
    tokio::time::timeout(REQUEST_TIMEOUT, read)
        .await
        .unwrap_or_else(|_| Err(format!("no answer within {} seconds", REQUEST_TIMEOUT.as_secs())))
}

/// An error and its sources, one after the other (hyper's own message is terse).
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The ACME client's transport: [`exchange`] behind instant-acme's seam.
pub(crate) struct Bounded(pub(crate) Client<HttpsConnector<HttpConnector>, BodyWrapper<Bytes>>);

impl HttpClient for Bounded {
    fn request(
        &self,
        request: http::Request<BodyWrapper<Bytes>>,
    ) -> Pin<Box<dyn Future<Output = Result<BytesResponse, instant_acme::Error>> + Send>> {
        let client = self.0.clone();
        Box::pin(async move {
            let (parts, body) =
                exchange(&client, request).await.map_err(|e| instant_acme::Error::Other(e.into()))?;
            Ok(BytesResponse { parts, body: Box::new(body) })
        })
    }
}
