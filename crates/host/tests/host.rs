//! The host over real HTTP on 127.0.0.1, with fakes of DNS, the certificate authority and the
//! TLS handshake: sign-in, sessions, CSRF, owners, plans, the domain lifecycle, routing by
//! `Host`, bad input, the state's lock.
#![allow(clippy::unwrap_used)]

mod support;

use playground_domains::RecordKind;
use playground_host::store::StoreError;
use playground_host::{HostError, start};
use support::*;

/// `name::sqlite` and `name::postgres`: the same walk with the state in SQLite (the default)
/// and in a fresh PostgreSQL database (`[database] url`).
macro_rules! on_both_engines {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                super::$name(super::Scratch::new("")).await;
            }
            #[tokio::test]
            async fn postgres() {
                super::$name(super::Scratch::on_postgres().await.0).await;
            }
        }
    )*};
}

on_both_engines!(
    sign_in_sets_a_strict_cookie_and_refuses_a_wrong_password,
    failed_sign_ins_are_rate_limited_per_account_and_per_address,
    add_verify_issue_live_then_redirect_and_remove,
    pending_issuance_resumes_after_a_restart,
    certificates_near_expiry_are_renewed_and_reverify_keeps_serving,
    challenge_answers_in_the_state_are_served,
);

async fn sign_in_sets_a_strict_cookie_and_refuses_a_wrong_password(scratch: Scratch) {
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let good = format!(r#"{{"email":"Ana@Example.com","password":"{PASSWORD}"}}"#);
    let answer = api(host.http, "POST", "/session", &[("Origin", ORIGIN)], good.as_bytes()).await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    let cookie = answer.header("set-cookie").unwrap();
    for flag in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(flag), "{flag} in {cookie}");
    }
    let token = answer.cookie();
    assert_eq!(token.len(), "host_session=".len() + 64, "{token}");
    let me = api(host.http, "GET", "/me", &[("Cookie", &token)], b"").await;
    assert_eq!(me.json()["email"], "ana@example.com");
    assert_eq!(me.json()["projects"], serde_json::json!(["petstore", "freebie"]));

    let bad = br#"{"email":"ana@example.com","password":"wrong"}"#;
    let answer = api(host.http, "POST", "/session", &[("Origin", ORIGIN)], bad).await;
    assert_eq!(answer.status, 401);
    assert_eq!(answer.json()["code"], "bad_credentials");
    assert!(answer.header("set-cookie").is_none());
    let unknown = br#"{"email":"eve@example.com","password":"x"}"#;
    assert_eq!(api(host.http, "POST", "/session", &[("Origin", ORIGIN)], unknown).await.status, 401);

    // Signing out ends the session on the host, not only in the browser.
    let out = api(host.http, "DELETE", "/session", &[("Cookie", &token), ("Origin", ORIGIN)], b"").await;
    assert_eq!(out.status, 204);
    assert!(out.header("set-cookie").unwrap().contains("Max-Age=0"));
    assert_eq!(api(host.http, "GET", "/me", &[("Cookie", &token)], b"").await.status, 401);
    host.stop().await;
}

async fn failed_sign_ins_are_rate_limited_per_account_and_per_address(scratch: Scratch) {
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let bad = br#"{"email":"ana@example.com","password":"wrong"}"#;
    for _ in 0..5 {
        assert_eq!(api(host.http, "POST", "/session", &[("Origin", ORIGIN)], bad).await.status, 401);
    }
    let answer = api(host.http, "POST", "/session", &[("Origin", ORIGIN)], bad).await;
    assert_eq!(answer.status, 429, "{}", answer.text());
    assert_eq!(answer.json()["code"], "too_many_attempts");
    let wait: u64 = answer.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    // Even the right password waits: the limit is checked before the password.
    let good = format!(r#"{{"email":"ana@example.com","password":"{PASSWORD}"}}"#);
    assert_eq!(api(host.http, "POST", "/session", &[("Origin", ORIGIN)], good.as_bytes()).await.status, 429);
    // The same address trying another account is limited too (5 failures from 127.0.0.1).
    let other = format!(r#"{{"email":"bo@example.com","password":"{PASSWORD}"}}"#);
    assert_eq!(api(host.http, "POST", "/session", &[("Origin", ORIGIN)], other.as_bytes()).await.status, 429);
    host.stop().await;
}

/// A PROXY protocol v2 header for TCP over IPv4 from `client` (port 50000) to 10.0.0.11:80.
fn proxy_header(client: [u8; 4]) -> Vec<u8> {
    let mut bytes = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    bytes.extend([0x21, 0x11, 0, 12]);
    bytes.extend(client);
    bytes.extend([10, 0, 0, 11, 0xc3, 0x50, 0, 80]);
    bytes
}

/// Behind a balancer that passes TCP through, every client comes from the balancer's address:
/// with `proxy_protocol`, the header names the client, so five failures from one client do not
/// lock another one out; a connection without the header is closed unanswered.
#[tokio::test]
async fn with_proxy_protocol_sign_in_limits_count_the_client_the_header_names() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let mut config = scratch.config();
    config.proxy_protocol = true;
    let host = start(config, fakes.services()).await.unwrap();
    let sign_in = |client: [u8; 4], email: &'static str, password: &'static str| async move {
        let body = format!(r#"{{"email":"{email}","password":"{password}"}}"#);
        let header = proxy_header(client);
        send_after(
            host.http,
            &header,
            "POST",
            ADMIN,
            "/_host/api/session",
            &[("Origin", ORIGIN), ("Content-Type", "application/json")],
            body.as_bytes(),
        )
        .await
        .expect("an answer")
        .status
    };
    for _ in 0..5 {
        assert_eq!(sign_in([203, 0, 113, 7], "ana@example.com", "wrong").await, 401);
    }
    // That client is limited, whatever the account...
    assert_eq!(sign_in([203, 0, 113, 7], "bo@example.com", PASSWORD).await, 429);
    // ...and another client, through the same balancer, is not.
    assert_eq!(sign_in([203, 0, 113, 8], "bo@example.com", PASSWORD).await, 200);
    // No header: closed, unanswered.
    let bare = send_after(host.http, b"", "GET", ADMIN, "/_host/api/me", &[], b"").await;
    assert!(bare.is_none(), "{bare:?}");
    host.stop().await;
}

#[tokio::test]
async fn changes_without_the_admin_origin_are_refused() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    let body = br#"{"name":"docs.example.com"}"#;
    for origin in [
        None,
        Some("https://evil.example"),
        Some("https://admin.docs-host.localhost.evil.example"),
        Some("null"),
    ] {
        let mut headers = vec![("Cookie", client.cookie.as_str())];
        if let Some(o) = origin {
            headers.push(("Origin", o));
        }
        let answer = api(host.http, "POST", "/projects/petstore/domains", &headers, body).await;
        assert_eq!(answer.status, 403, "{origin:?}: {}", answer.text());
        assert_eq!(answer.json()["code"], "csrf_refused");
    }
    // Sign-in too (login CSRF).
    let good = format!(r#"{{"email":"ana@example.com","password":"{PASSWORD}"}}"#);
    assert_eq!(api(host.http, "POST", "/session", &[], good.as_bytes()).await.status, 403);
    // Reads need no Origin.
    assert_eq!(api(host.http, "GET", "/projects", &[("Cookie", &client.cookie)], b"").await.status, 200);
    // Nothing was added.
    assert_eq!(client.get("/projects/petstore/domains").await.json()["domains"], serde_json::json!([]));
    host.stop().await;
}

#[tokio::test]
async fn one_owner_cannot_read_or_touch_anothers_project() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let ana = Client::sign_in(host.http, "ana@example.com").await;
    let bo = Client::sign_in(host.http, "bo@example.com").await;
    assert_eq!(ana.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await.status, 201);
    let projects = bo.get("/projects").await.json();
    assert_eq!(projects.as_array().unwrap().len(), 1);
    assert_eq!(projects[0]["name"], "bostore");
    for (method, path, body) in [
        ("GET", "/projects/petstore/domains", None),
        ("GET", "/projects/petstore/domains/docs.example.com", None),
        ("GET", "/projects/petstore/config", None),
        ("POST", "/projects/petstore/domains", Some(r#"{"name":"b.example.com"}"#)),
        ("POST", "/projects/petstore/domains/docs.example.com/verify", None),
        ("DELETE", "/projects/petstore/domains/docs.example.com", None),
        (
            "PUT",
            "/projects/petstore/config",
            Some(r#"{"domains":{"primary":"docs.example.com","redirects":[]}}"#),
        ),
    ] {
        let answer = bo.call(method, path, body).await;
        assert_eq!(answer.status, 404, "{method} {path}: {}", answer.text());
        assert_eq!(answer.json()["code"], "not_found");
    }
    // A name attached to one project cannot be attached to another.
    let answer = bo.post("/projects/bostore/domains", r#"{"name":"DOCS.example.com"}"#).await;
    assert_eq!(answer.status, 409, "{}", answer.text());
    assert_eq!(answer.json()["code"], "attached_elsewhere");
    let again = ana.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await;
    assert_eq!(again.status, 409, "{}", again.text());
    assert_eq!(again.json()["code"], "already_added");
    assert_eq!(ana.get("/projects/petstore/domains").await.json()["domains"].as_array().unwrap().len(), 1);
    host.stop().await;
}

#[tokio::test]
async fn an_expired_session_is_401() {
    let scratch = Scratch::new("session_ttl_secs = 2");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    assert_eq!(client.get("/me").await.status, 200);
    tokio::time::sleep(std::time::Duration::from_millis(3100)).await;
    let answer = client.get("/me").await;
    assert_eq!(answer.status, 401);
    assert_eq!(answer.json()["code"], "session_expired");
    let answer = client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await;
    assert_eq!(answer.status, 401);
    // No cookie at all, or a made-up one.
    assert_eq!(api(host.http, "GET", "/projects", &[], b"").await.json()["code"], "unauthenticated");
    let forged = format!("host_session={}", "ab".repeat(32));
    assert_eq!(api(host.http, "GET", "/projects", &[("Cookie", &forged)], b"").await.status, 401);
    host.stop().await;
}

#[tokio::test]
async fn the_free_plan_gets_no_custom_domain() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    let answer = client.post("/projects/freebie/domains", r#"{"name":"docs.example.org"}"#).await;
    assert_eq!(answer.status, 403, "{}", answer.text());
    assert_eq!(answer.json()["code"], "plan_required");
    assert!(answer.json()["message"].as_str().unwrap().contains("Free plan"), "{}", answer.text());
    host.stop().await;
}

#[tokio::test]
async fn checks_come_in_order_path_origin_session_project_plan_body() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let ana = Client::sign_in(host.http, "ana@example.com").await;
    let bo = Client::sign_in(host.http, "bo@example.com").await;
    let code = |answer: Answer, status: u16| {
        assert_eq!(answer.status, status, "{}", answer.text());
        answer.json()["code"].as_str().unwrap().to_owned()
    };
    // A bad path comes before the session.
    let answer = api(host.http, "GET", "/projects/petstore/domains/%ff", &[], b"").await;
    assert_eq!(code(answer, 400), "bad_request");
    // A change's Origin comes before the session.
    let verify = "/projects/petstore/domains/docs.example.com/verify";
    assert_eq!(code(api(host.http, "POST", verify, &[], b"").await, 403), "csrf_refused");
    assert_eq!(code(api(host.http, "DELETE", "/session", &[], b"").await, 403), "csrf_refused");
    let answer = api(host.http, "DELETE", "/session", &[("Origin", ORIGIN)], b"").await;
    assert_eq!(code(answer, 401), "unauthenticated");
    // Another owner's project is not found before its plan is read.
    assert_eq!(code(bo.post("/projects/freebie/domains", "{not json").await, 404), "not_found");
    // The plan comes before the body.
    assert_eq!(
        code(ana.call("PUT", "/projects/freebie/config", Some("{not json")).await, 403),
        "plan_required"
    );
    // Reads and removal need no plan.
    assert_eq!(ana.get("/projects/freebie/domains").await.status, 200);
    assert_eq!(ana.get("/projects/freebie/config").await.status, 200);
    let answer = ana.call("DELETE", "/projects/freebie/domains/docs.example.org", None).await;
    assert!(answer.json()["message"].as_str().unwrap().contains("docs.example.org"), "{}", answer.text());
    assert_eq!(code(answer, 404), "not_found");
    host.stop().await;
}

async fn add_verify_issue_live_then_redirect_and_remove(scratch: Scratch) {
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let https = host.https.unwrap();
    let client = Client::sign_in(host.http, "ana@example.com").await;

    // Added: the CNAME to create, nothing served, no certificate.
    let answer = client.post("/projects/petstore/domains", r#"{"name":"Docs.Example.com."}"#).await;
    assert_eq!(answer.status, 201, "{}", answer.text());
    let domain = &answer.json()["project"]["domains"][0];
    assert_eq!(domain["name"], "docs.example.com");
    assert_eq!(domain["state"], "added");
    assert_eq!(domain["instruction"]["kind"], "Cname");
    assert_eq!(domain["instruction"]["name"], "docs");
    assert_eq!(domain["instruction"]["value"], TARGET);
    assert_eq!(send(host.http, "GET", "docs.example.com", "/", &[], b"").await.status, 404);
    assert_eq!(send(https, "GET", "docs.example.com", "/", &[], b"").await.status, 404);

    // Verify before the record exists: refused with the cause, kept for troubleshooting.
    let answer = client.post("/projects/petstore/domains/docs.example.com/verify", "").await;
    assert_eq!(answer.status, 422, "{}", answer.text());
    assert_eq!(answer.json()["code"], "verification_failed");
    let view = client.get("/projects/petstore/domains").await.json();
    let lines = view["troubleshooting"][0]["appliesTo"].to_string();
    assert!(lines.contains("No CNAME record was found"), "{lines}");

    // The record, then Verify: verified, the certificate issued in the background, live.
    fakes.dns.cname("docs.example.com", "cname.docs-host.test.");
    let answer = client.post("/projects/petstore/domains/docs.example.com/verify", "").await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    let view = wait_for_state(&client, "petstore", "docs.example.com", "live").await;
    assert_eq!(view["certificate"]["status"], "issued");
    assert!(view["certificate"]["notAfter"].as_u64().is_some());
    assert!(offered(&fakes).contains("docs.example.com"));

    // The primary: HTTPS serves the site, plain HTTP moves to HTTPS with path and query.
    let site = send(https, "GET", "docs.example.com", "/", &[], b"").await;
    assert_eq!((site.status, site.text().as_str()), (200, "<h1>petstore</h1>"));
    let plain = send(host.http, "GET", "docs.example.com", "/guide/?q=1&x=%20", &[], b"").await;
    assert_eq!(plain.status, 301);
    // The HTTPS listener's port is in the address (the tests' is not 443).
    let port = https.port();
    assert_eq!(
        plain.header("location"),
        Some(format!("https://docs.example.com:{port}/guide/?q=1&x=%20").as_str())
    );

    // The default address now points at the primary.
    let default = send(host.http, "GET", "petstore.docs-host.test", "/guide/", &[], b"").await;
    assert_eq!(default.status, 301);
    assert_eq!(default.header("location"), Some(format!("https://docs.example.com:{port}/guide/").as_str()));

    // A second domain, live, redirects to the primary with path and query.
    assert_eq!(client.post("/projects/petstore/domains", r#"{"name":"old.example.com"}"#).await.status, 201);
    // Added only: nothing served yet.
    assert_eq!(send(https, "GET", "old.example.com", "/", &[], b"").await.status, 404);
    fakes.dns.cname("old.example.com", TARGET);
    assert_eq!(client.post("/projects/petstore/domains/old.example.com/verify", "").await.status, 200);
    wait_for_state(&client, "petstore", "old.example.com", "live").await;
    for address in [host.http, https] {
        let answer = send(address, "GET", "old.example.com", "/pets?page=2", &[], b"").await;
        assert_eq!(answer.status, 301);
        assert_eq!(
            answer.header("location"),
            Some(format!("https://docs.example.com:{port}/pets?page=2").as_str())
        );
    }
    let config = client.get("/projects/petstore/config").await.json();
    assert_eq!(
        config,
        serde_json::json!({"domains": {"primary": "docs.example.com", "redirects": [
            {"from": "old.example.com", "to": "docs.example.com", "status": 301}
        ]}})
    );

    // Make the second the primary: the roles swap.
    let answer = client.post("/projects/petstore/domains/old.example.com/primary", "").await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    let moved = send(https, "GET", "docs.example.com", "/a?b", &[], b"").await;
    assert_eq!(moved.header("location"), Some(format!("https://old.example.com:{port}/a?b").as_str()));

    // Remove stops it at once: nothing served, no certificate offered.
    let answer = client.call("DELETE", "/projects/petstore/domains/old.example.com", None).await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert!(answer.json()["message"].as_str().unwrap().contains("no longer serves"), "{}", answer.text());
    assert_eq!(send(https, "GET", "old.example.com", "/", &[], b"").await.status, 404);
    assert_eq!(send(host.http, "GET", "old.example.com", "/", &[], b"").await.status, 404);
    assert!(!offered(&fakes).contains("old.example.com"));
    // The remaining domain is the primary again.
    assert_eq!(send(https, "GET", "docs.example.com", "/", &[], b"").await.status, 200);
    host.stop().await;
}

#[tokio::test]
async fn redirects_and_roles_are_set_through_the_configuration() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let https = host.https.unwrap();
    let client = Client::sign_in(host.http, "ana@example.com").await;
    for name in ["a.example.com", "b.example.com"] {
        client.post("/projects/petstore/domains", &format!(r#"{{"name":"{name}"}}"#)).await;
        fakes.dns.cname(name, TARGET);
        client.post(&format!("/projects/petstore/domains/{name}/verify"), "").await;
        wait_for_state(&client, "petstore", name, "live").await;
    }
    // b serves the project itself instead of redirecting.
    let body = r#"{"domains":{"primary":"a.example.com","redirects":[]}}"#;
    let answer = client.call("PUT", "/projects/petstore/config", Some(body)).await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(send(https, "GET", "b.example.com", "/", &[], b"").await.status, 200);
    // And back to a redirect, by its role.
    let answer = client
        .call("PUT", "/projects/petstore/domains/b.example.com/role", Some(r#"{"role":"redirect"}"#))
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(send(https, "GET", "b.example.com", "/", &[], b"").await.status, 301);
    // A loop, a stranger, a wrong status: refused by the core's rules.
    for body in [
        r#"{"domains":{"primary":"a.example.com","redirects":[{"from":"a.example.com","to":"a.example.com","status":301}]}}"#,
        r#"{"domains":{"primary":"a.example.com","redirects":[{"from":"x.example.com","to":"a.example.com","status":301}]}}"#,
        r#"{"domains":{"primary":"a.example.com","redirects":[{"from":"b.example.com","to":"a.example.com","status":302}]}}"#,
        r#"{"domains":{"primary":"nowhere.example.com","redirects":[]}}"#,
    ] {
        let answer = client.call("PUT", "/projects/petstore/config", Some(body)).await;
        assert_eq!(answer.status, 422, "{body}: {}", answer.text());
        assert_eq!(answer.json()["code"], "invalid_config");
    }
    host.stop().await;
}

#[tokio::test]
async fn without_a_chosen_primary_the_earliest_added_live_domain_is_the_primary() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    let published =
        || async { client.get("/projects/petstore/domains").await.json()["publishedAddress"].clone() };
    let live = |name: &'static str| {
        let client = &client;
        let fakes = &fakes;
        async move {
            fakes.dns.cname(name, TARGET);
            client.post(&format!("/projects/petstore/domains/{name}/verify"), "").await;
            wait_for_state(client, "petstore", name, "live").await;
        }
    };
    for name in ["a.example.com", "b.example.com", "c.example.com"] {
        client.post("/projects/petstore/domains", &format!(r#"{{"name":"{name}"}}"#)).await;
    }
    // The first to go live is the primary by itself; a later one does not take over...
    live("b.example.com").await;
    assert_eq!(published().await, "b.example.com");
    live("c.example.com").await;
    assert_eq!(published().await, "b.example.com");
    // ...unless it was added earlier: the order added decides while none is chosen.
    live("a.example.com").await;
    assert_eq!(published().await, "a.example.com");
    // Removing the chosen primary promotes the earliest-added live domain left.
    assert_eq!(client.post("/projects/petstore/domains/c.example.com/primary", "").await.status, 200);
    assert_eq!(published().await, "c.example.com");
    let answer = client.call("DELETE", "/projects/petstore/domains/c.example.com", None).await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.json()["project"]["publishedAddress"], "a.example.com");
    let answer = client.call("DELETE", "/projects/petstore/domains/a.example.com", None).await;
    assert_eq!(answer.json()["project"]["publishedAddress"], "b.example.com");
    host.stop().await;
}

#[tokio::test]
async fn an_apex_verifies_with_the_platform_addresses() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    let answer = client.post("/projects/petstore/domains", r#"{"name":"example.net"}"#).await;
    assert_eq!(answer.json()["project"]["domains"][0]["instruction"]["kind"], "AliasOrAname");
    fakes.dns.add("example.net", RecordKind::A, "198.51.100.7");
    let answer = client.post("/projects/petstore/domains/example.net/verify", "").await;
    assert_eq!(answer.status, 422, "{}", answer.text());
    fakes.dns.records.lock().unwrap().clear();
    fakes.dns.add("example.net", RecordKind::A, "192.0.2.10");
    fakes.dns.add("example.net", RecordKind::Aaaa, "2001:db8::10");
    let answer = client.post("/projects/petstore/domains/example.net/verify", "").await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    host.stop().await;
}

#[tokio::test]
async fn caa_and_authority_errors_reach_troubleshooting() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await;
    fakes.dns.cname("docs.example.com", TARGET);
    fakes.dns.add("example.com", RecordKind::Caa, "0 issue \"other-ca.example\"");
    // Verified, and the answer says at once that no certificate comes: where the record is,
    // the authority it allows and the one the host uses.
    let answer = client.post("/projects/petstore/domains/docs.example.com/verify", "").await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    let message = answer.json()["message"].as_str().unwrap().to_owned();
    assert_eq!(
        message,
        "docs.example.com is verified: its DNS record matches. But its SSL certificate cannot be issued: \
         the CAA records at example.com allow only other-ca.example to issue certificates, not \
         letsencrypt.org, the certificate authority used here. Add the CAA record 0 issue \
         \"letsencrypt.org\" at example.com (or remove the records there that name other \
         authorities), then select Re-verify."
    );
    let view = client.get("/projects/petstore/domains/docs.example.com").await.json();
    assert_eq!(view["state"], "verified");
    assert_eq!(view["lastCheck"]["message"], message.as_str());
    assert_eq!(view["certificate"]["status"], "blocked_by_caa");
    assert_eq!(view["certificate"]["records"][0]["name"], "example.com", "{view}");
    let project = client.get("/projects/petstore/domains").await.json();
    let applies = project["troubleshooting"][1]["appliesTo"].to_string();
    assert!(
        applies.contains(
            "docs.example.com: the CAA records at example.com allow only other-ca.example to issue certificates, not letsencrypt.org"
        ),
        "{applies}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(fakes.ca.asked.lock().unwrap().is_empty(), "no request while CAA forbids it");

    // The CAA record fixed, the authority fails: its message is kept and shown.
    fakes.dns.records.lock().unwrap().retain(|r| r.kind != RecordKind::Caa);
    *fakes.ca.fail.lock().unwrap() =
        Some("urn:ietf:params:acme:error:rateLimited: too many certificates".to_owned());
    assert_eq!(client.post("/projects/petstore/domains/docs.example.com/reverify", "").await.status, 200);
    let mut view = serde_json::Value::Null;
    for _ in 0..100 {
        view = client.get("/projects/petstore/domains/docs.example.com").await.json();
        if !view["issueError"].is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(view["issueError"]["message"].as_str().unwrap().contains("rateLimited"), "{view}");
    let project = client.get("/projects/petstore/domains").await.json();
    assert!(project["troubleshooting"][1]["appliesTo"].to_string().contains("rateLimited"));
    assert_eq!(send(host.https.unwrap(), "GET", "docs.example.com", "/", &[], b"").await.status, 404);
    host.stop().await;
}

#[tokio::test]
async fn default_addresses_serve_their_sites_and_nothing_else() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    fakes.challenges.0.lock().unwrap().insert("tok_EN-1".to_owned(), "tok_EN-1.thumb".to_owned());
    let host = scratch.start(&fakes).await;
    let at = |host_name: &'static str, path: &'static str| send(host.http, "GET", host_name, path, &[], b"");
    let index = at("petstore.docs-host.test", "/").await;
    assert_eq!((index.status, index.text().as_str()), (200, "<h1>petstore</h1>"));
    assert_eq!(index.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(at("PETSTORE.docs-host.test:8080", "/guide/").await.text(), "guide");
    assert_eq!(at("petstore.docs-host.test", "/guide").await.text(), "guide");
    assert_eq!(at("bostore.docs-host.test", "/").await.text(), "<h1>bostore</h1>");
    assert_eq!(
        at("petstore.docs-host.test", "/app.js").await.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(
        at("petstore.docs-host.test", "/app.wasm").await.header("content-type"),
        Some("application/wasm")
    );
    for path in
        ["/../secret.txt", "/%2e%2e/secret.txt", "/guide/../../secret.txt", "/..%2fsecret.txt", "/missing"]
    {
        let answer = at("petstore.docs-host.test", path).await;
        assert_eq!(answer.status, 404, "{path}");
        assert!(!answer.text().contains("outside"), "{path}");
    }
    assert_eq!(at("unknown.docs-host.test", "/").await.status, 404);
    assert_eq!(at("elsewhere.example", "/").await.status, 404);
    // The API is not reachable from a site's address.
    assert_eq!(at("petstore.docs-host.test", "/_host/api/projects").await.status, 404);
    // HTTP-01 answers, on plain HTTP only.
    let challenge = at("docs.example.com", "/.well-known/acme-challenge/tok_EN-1").await;
    assert_eq!((challenge.status, challenge.text().as_str()), (200, "tok_EN-1.thumb"));
    assert_eq!(at("docs.example.com", "/.well-known/acme-challenge/nope").await.status, 404);
    let over_tls = send(
        host.https.unwrap(),
        "GET",
        "docs.example.com",
        "/.well-known/acme-challenge/tok_EN-1",
        &[],
        b"",
    )
    .await;
    assert_eq!(over_tls.status, 404);
    // Sites are read-only.
    assert_eq!(send(host.http, "POST", "petstore.docs-host.test", "/", &[], b"x").await.status, 405);
    host.stop().await;
}

#[tokio::test]
async fn a_client_asking_for_markdown_gets_the_pages_twin() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let address = host.http;
    let at = |path: &'static str, accept: &'static str| async move {
        send(address, "GET", "petstore.docs-host.test", path, &[("accept", accept)], b"").await
    };
    let twin = at("/", "text/markdown, text/html;q=0.9").await;
    assert_eq!((twin.status, twin.text().as_str()), (200, "# petstore"));
    assert_eq!(twin.header("content-type"), Some("text/markdown; charset=utf-8"));
    assert_eq!(twin.header("vary"), Some("accept"));
    let page = at("/", "text/html,application/xhtml+xml,*/*;q=0.8").await;
    assert_eq!(page.text(), "<h1>petstore</h1>");
    assert_eq!(page.header("vary"), Some("accept"));
    assert_eq!(at("/index.html", "text/markdown").await.text(), "# petstore");
    assert_eq!(at("/operations/listPets", "text/markdown").await.text(), "# List pets");
    // Asked for by name, a twin is Markdown whatever the Accept; llms.txt is plain text.
    let named = at("/operations/listPets.md", "*/*").await;
    assert_eq!(named.header("content-type"), Some("text/markdown; charset=utf-8"));
    assert_eq!(at("/llms.txt", "*/*").await.header("content-type"), Some("text/plain; charset=utf-8"));
    // A page without a twin is the page; nothing outside the site is reached by asking.
    assert_eq!(at("/guide/", "text/markdown").await.text(), "guide");
    assert_eq!(
        at("/app.js", "text/markdown").await.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(at("/../secret", "text/markdown").await.status, 404);
    assert_eq!(at("/missing", "text/markdown").await.status, 404);
    host.stop().await;
}

#[tokio::test]
async fn a_versioned_site_is_served_as_built() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let address = host.http;
    let at = |path: &'static str, accept: &'static str| async move {
        send(address, "GET", "petstore.docs-host.test", path, &[("accept", accept)], b"").await
    };
    let older = at("/v/1.0/", "text/html").await;
    assert_eq!((older.status, older.text().as_str()), (200, "<h1>petstore 1.0</h1>"));
    assert_eq!(
        at("/v/1.0/", "text/markdown").await.text(),
        "# petstore 1.0",
        "an earlier version has its twins"
    );
    assert_eq!(at("/v/1.0/app.js", "*/*").await.text(), "console.log(1.0)", "and its own copy of the app");
    assert_eq!(at("/changes/", "text/html").await.text(), "<h1>Changes in 2.0</h1>");
    assert_eq!(at("/changes/", "text/markdown").await.text(), "## Changes in 2.0");
    let listing = at("/versions.json", "*/*").await;
    assert_eq!(listing.header("content-type"), Some("application/json"));
    assert!(listing.text().contains("v/1.0/"), "{}", listing.text());
    assert_eq!(at("/v/2.0/", "text/html").await.status, 404, "no version is made up");
    host.stop().await;
}

#[tokio::test]
async fn bad_input_to_every_route_gets_a_json_error() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await;
    let big = format!(r#"{{"name":"{}"}}"#, "a".repeat(20_000));
    // Routes that read a body: every bad body is a 4xx JSON error.
    let with_body: [(&str, &str); 4] = [
        ("POST", "/session"),
        ("POST", "/projects/petstore/domains"),
        ("PUT", "/projects/petstore/domains/docs.example.com/role"),
        ("PUT", "/projects/petstore/config"),
    ];
    // Routes that read none: a body is ignored, and never costs a 5xx.
    let without_body: [(&str, &str); 8] = [
        ("GET", "/me"),
        ("GET", "/projects"),
        ("GET", "/projects/petstore/domains"),
        ("GET", "/projects/petstore/domains/docs.example.com"),
        ("DELETE", "/projects/petstore/domains/nothere.example.com"),
        ("POST", "/projects/petstore/domains/docs.example.com/verify"),
        ("POST", "/projects/petstore/domains/docs.example.com/primary"),
        ("DELETE", "/session"),
    ];
    let bodies: [(&str, &[u8], &str); 6] = [
        ("malformed", b"{not json", "application/json"),
        ("oversize", big.as_bytes(), "application/json"),
        ("wrong type", br#"{"name":"x"}"#, "text/plain"),
        (
            "unknown field",
            br#"{"name":"x.example.com","admin":true,"role":"serve","email":"a","password":"b"}"#,
            "application/json",
        ),
        ("wrong shape", br#"[1,2,3]"#, "application/json"),
        ("binary", b"\xff\xfe\x00\x01", "application/json"),
    ];
    for (strict, routes) in [(true, &with_body[..]), (false, &without_body[..])] {
        for (method, path) in routes {
            for (what, body, content_type) in bodies {
                let headers =
                    [("Cookie", client.cookie.as_str()), ("Origin", ORIGIN), ("Content-Type", content_type)];
                let answer = api(host.http, method, path, &headers, body).await;
                let context = format!("{method} {path} {what}: {} {}", answer.status, answer.text());
                assert!(answer.status < 500, "{context}");
                if strict {
                    assert!((400..500).contains(&answer.status), "{context}");
                }
                if answer.status >= 400 {
                    let json = answer.json();
                    assert!(json["code"].is_string() && json["message"].is_string(), "{context}");
                }
            }
        }
    }
    let client = Client::sign_in(host.http, "ana@example.com").await;
    // Bad names, each refused with the part at fault.
    for name in [
        "",
        "https://docs.example.com",
        "docs.example.com/x",
        "192.0.2.1",
        "localhost",
        "co.uk",
        "petstore.docs-host.test",
        "a..b.com",
        &format!("{}.com", "a".repeat(64)),
        "bad_name.example.com",
    ] {
        let answer =
            client.post("/projects/petstore/domains", &serde_json::json!({"name": name}).to_string()).await;
        assert_eq!(answer.status, 422, "{name}: {}", answer.text());
        assert_eq!(answer.json()["code"], "invalid_name", "{name}");
    }
    // Unknown routes and methods.
    assert_eq!(client.get("/nope").await.json()["code"], "not_found");
    assert_eq!(client.call("PATCH", "/projects", Some("{}")).await.json()["code"], "method_not_allowed");
    // Odd path segments.
    for path in [
        "/projects/%ff/domains",
        "/projects/x%00y/domains",
        &format!("/projects/{}/domains", "p".repeat(5000)),
    ] {
        let answer = client.get(path).await;
        assert!((400..500).contains(&answer.status), "{path}: {}", answer.status);
    }
    host.stop().await;
}

#[tokio::test]
async fn a_second_host_on_the_same_data_dir_is_refused() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let error = start(scratch.config(), fakes.services()).await.unwrap_err();
    assert!(matches!(error, HostError::Store(StoreError::Locked { .. })), "{error}");
    assert!(error.to_string().contains("another playground host is using the data directory"), "{error}");
    host.stop().await;
}

#[tokio::test]
async fn a_database_from_a_newer_host_is_refused() {
    let scratch = Scratch::new("");
    let fakes = Fakes::new(false);
    scratch.start(&fakes).await.stop().await;
    let db = playground_host::store::database_path(&path_of(&scratch, "data"));
    let conn = rusqlite_version_bump(&db);
    drop(conn);
    let error = start(scratch.config(), fakes.services()).await.unwrap_err();
    assert!(error.to_string().contains("newer playground host"), "{error}");
}

fn rusqlite_version_bump(db: &std::path::Path) -> rusqlite::Connection {
    // As a newer host would have left it.
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.pragma_update(None, "user_version", playground_host::store::schema_version() + 1).unwrap();
    conn
}

async fn pending_issuance_resumes_after_a_restart(scratch: Scratch) {
    // The authority never answers in the first run.
    let held = Fakes::new(true);
    let host = scratch.start(&held).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await;
    held.dns.cname("docs.example.com", TARGET);
    assert_eq!(client.post("/projects/petstore/domains/docs.example.com/verify", "").await.status, 200);
    host.stop().await;

    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client { address: host.http, cookie: client.cookie };
    wait_for_state(&client, "petstore", "docs.example.com", "live").await;
    assert!(offered(&fakes).contains("docs.example.com"));
    host.stop().await;
}

async fn certificates_near_expiry_are_renewed_and_reverify_keeps_serving(scratch: Scratch) {
    let fakes = Fakes::new(false);
    // Ten days: inside the 30 days before expiry, so due for renewal at every look (1 s here).
    *fakes.ca.validity.lock().unwrap() = 10 * 86_400;
    let host = scratch.start(&fakes).await;
    let https = host.https.unwrap();
    let client = Client::sign_in(host.http, "ana@example.com").await;
    client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await;
    fakes.dns.cname("docs.example.com", TARGET);
    client.post("/projects/petstore/domains/docs.example.com/verify", "").await;
    wait_for_state(&client, "petstore", "docs.example.com", "live").await;
    let first = fakes.certs.offered.lock().unwrap()["docs.example.com"].clone();
    let mut renewed = false;
    for _ in 0..200 {
        if fakes.certs.offered.lock().unwrap()["docs.example.com"] != first {
            renewed = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(renewed, "renewed, and the new certificate offered");
    assert_eq!(client.get("/projects/petstore/domains/docs.example.com").await.json()["state"], "live");

    // Re-verify on the live primary: it keeps serving while the new certificate comes.
    *fakes.ca.validity.lock().unwrap() = 90 * 86_400;
    let answer = client.post("/projects/petstore/domains/docs.example.com/reverify", "").await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(send(https, "GET", "docs.example.com", "/", &[], b"").await.status, 200);
    wait_for_state(&client, "petstore", "docs.example.com", "live").await;
    host.stop().await;
}

#[tokio::test]
async fn quiet_connections_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let scratch = Scratch::new("idle_timeout_secs = 1");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    for address in [host.http, host.https.unwrap()] {
        // Nothing sent, and half a request: both closed after the idle time.
        for start in [&b""[..], b"GET / HTTP/1.1\r\nHost: petstore.docs-host.test\r\n"] {
            let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
            stream.write_all(start).await.unwrap();
            let began = std::time::Instant::now();
            let mut buffer = Vec::new();
            let read =
                tokio::time::timeout(std::time::Duration::from_secs(10), stream.read_to_end(&mut buffer))
                    .await;
            assert!(read.is_ok(), "closed by the host");
            assert!(began.elapsed() >= std::time::Duration::from_millis(900), "{:?}", began.elapsed());
        }
    }
    // A normal request still works.
    assert_eq!(send(host.http, "GET", "petstore.docs-host.test", "/", &[], b"").await.status, 200);
    host.stop().await;
}

/// A TLS handshake that never ends: the client sends nothing, or stops half-way.
struct StalledHandshake;

impl playground_host::services::TlsAcceptor for StalledHandshake {
    fn accept(
        &self,
        stream: tokio::net::TcpStream,
    ) -> playground_host::services::BoxFuture<'static, std::io::Result<Box<dyn playground_host::services::Io>>>
    {
        Box::pin(async move {
            let _held = stream;
            std::future::pending().await
        })
    }
}

#[tokio::test]
async fn a_stalled_tls_handshake_is_closed_after_the_idle_time() {
    use tokio::io::AsyncReadExt;
    let scratch = Scratch::new("idle_timeout_secs = 1");
    let fakes = Fakes::new(false);
    let mut services = fakes.services();
    services.tls = Some(std::sync::Arc::new(StalledHandshake));
    let host = start(scratch.config(), services).await.unwrap();
    let mut stream = tokio::net::TcpStream::connect(host.https.unwrap()).await.unwrap();
    let began = std::time::Instant::now();
    let mut buffer = Vec::new();
    // The handshake's own bound is 10 s: an idle time of 1 s closes it well before.
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), stream.read_to_end(&mut buffer)).await;
    assert!(read.is_ok(), "not closed within 5 s");
    assert!(began.elapsed() >= std::time::Duration::from_millis(900), "{:?}", began.elapsed());
    host.stop().await;
}

#[tokio::test]
async fn the_admin_host_gets_a_certificate_and_moves_to_https() {
    let scratch = Scratch::with_admin("", "admin.docs-host.test");
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let https = host.https.unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !offered(&fakes).contains("admin.docs-host.test") {
        assert!(std::time::Instant::now() < deadline, "no certificate for the admin host");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // Plain HTTP moves to HTTPS, path and query kept; HTTPS answers.
    let plain = send(host.http, "GET", "admin.docs-host.test", "/_host/api/me?x=1", &[], b"").await;
    assert_eq!(plain.status, 301);
    let location = format!("https://admin.docs-host.test:{}/_host/api/me?x=1", https.port());
    assert_eq!(plain.header("location"), Some(location.as_str()));
    let me = send(https, "GET", "admin.docs-host.test", "/_host/api/me", &[], b"").await;
    assert_eq!(me.status, 401, "{}", me.text());
    // The authority's HTTP-01 challenge for the admin host is still answered on plain HTTP.
    let challenge =
        send(host.http, "GET", "admin.docs-host.test", "/.well-known/acme-challenge/abc", &[], b"").await;
    assert_eq!(challenge.status, 404);
    assert!(challenge.text().contains("No such challenge"), "{}", challenge.text());
    assert_eq!(*fakes.ca.asked.lock().unwrap(), ["admin.docs-host.test"]);
    host.stop().await;

    // After a restart the stored certificate is offered: the authority is not asked again.
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !offered(&fakes).contains("admin.docs-host.test") {
        assert!(std::time::Instant::now() < deadline, "the stored certificate is not offered");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(fakes.ca.asked.lock().unwrap().is_empty(), "{:?}", fakes.ca.asked.lock().unwrap());
    host.stop().await;
}

#[tokio::test]
async fn an_unreachable_database_is_a_clear_error_at_start() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let scratch =
        Scratch::new(&format!("[database]\nurl = \"postgres://host:secret@127.0.0.1:{port}/host\"\n"));
    let error = start(scratch.config(), Fakes::new(false).services()).await.unwrap_err();
    assert!(matches!(error, HostError::Store(StoreError::Unreachable { .. })), "{error}");
    let text = error.to_string();
    assert!(
        text.contains(&format!(
            "cannot connect to the PostgreSQL database postgres://host@127.0.0.1:{port}/host"
        )),
        "{text}"
    );
    assert!(text.contains("[database] url"), "{text}");
    assert!(!text.contains("secret"), "{text}");
}

#[tokio::test]
async fn with_postgresql_a_second_host_is_not_refused_by_a_lock_file() {
    let (scratch, url) = Scratch::on_postgres().await;
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await;
    // A second host on the same database opens, and reads what the first committed.
    let second = scratch.start(&fakes).await;
    let other = Client { address: second.http, cookie: client.cookie.clone() };
    let listed = other.get("/projects/petstore/domains").await;
    assert_eq!(listed.status, 200, "{}", listed.text());
    assert!(listed.text().contains("docs.example.com"), "{}", listed.text());
    assert!(!path_of(&scratch, "data").join("host.lock").exists(), "no lock file with PostgreSQL");
    // An answer published by one host's issuer is answered by the other's listener.
    let writer = playground_host::store::Store::connect(&url).await.unwrap();
    let now = playground_host::now();
    writer.put_challenge("tok_SHARED", "tok_SHARED.thumb", now + 600, now).await.unwrap();
    let answer =
        send(second.http, "GET", "docs.example.com", "/.well-known/acme-challenge/tok_SHARED", &[], b"")
            .await;
    assert_eq!((answer.status, answer.text().as_str()), (200, "tok_SHARED.thumb"));
    second.stop().await;
    host.stop().await;
}

/// A PostgreSQL crash under a running host: the API answers 503 with `Retry-After` meanwhile,
/// sites are still served, and after the restart the same session works again.
#[tokio::test]
async fn a_postgresql_restart_is_survived_with_503s_meanwhile() {
    // Its own cluster: the shared one is not stopped under the other tests.
    let own = support::postgres::Cluster::start();
    let url = own.database().await;
    let scratch = Scratch::new(&format!("[database]\nurl = \"{url}\"\n"));
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    assert_eq!(client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await.status, 201);
    own.stop();
    let answer = client.get("/projects/petstore/domains").await;
    assert_eq!(answer.status, 503, "{}", answer.text());
    assert_eq!(answer.json()["code"], "state_unavailable");
    assert_eq!(answer.header("retry-after"), Some("2"));
    let answer = client.post("/projects/petstore/domains", r#"{"name":"two.example.com"}"#).await;
    assert_eq!(answer.status, 503, "{}", answer.text());
    let site = send(host.http, "GET", "petstore.docs-host.test", "/", &[], b"").await;
    assert_eq!(site.status, 200, "sites are served from memory");
    own.start_again();
    let answer = client.get("/projects/petstore/domains").await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    let listed = answer.json();
    let names: Vec<&str> =
        listed["domains"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["docs.example.com"], "the acknowledged add is there, the refused one is not");
    host.stop().await;
}

/// The HTTP-01 answers an issuer published in the state are answered by the plain listener,
/// as long as they are there.
async fn challenge_answers_in_the_state_are_served(scratch: Scratch) {
    let fakes = Fakes::new(false);
    let host = playground_host::Host::open(scratch.config()).await.unwrap();
    let store = std::sync::Arc::clone(host.store());
    let now = playground_host::now();
    store.put_challenge("tok_STORED-1", "tok_STORED-1.thumb", now + 600, now).await.unwrap();
    store
        .put_challenge("tok_OLD", "tok_OLD.thumb", now.saturating_sub(1), now.saturating_sub(100))
        .await
        .unwrap();
    let host = host.serve(fakes.services()).await.unwrap();
    let at = |path: &'static str| send(host.http, "GET", "docs.example.com", path, &[], b"");
    let answer = at("/.well-known/acme-challenge/tok_STORED-1").await;
    assert_eq!((answer.status, answer.text().as_str()), (200, "tok_STORED-1.thumb"));
    assert_eq!(at("/.well-known/acme-challenge/tok_OLD").await.status, 404, "expired");
    store.delete_challenge("tok_STORED-1").await.unwrap();
    assert_eq!(at("/.well-known/acme-challenge/tok_STORED-1").await.status, 404, "withdrawn");
    host.stop().await;
}

/// Another host's change committed while this one's waited for the project's row lock: the
/// change is read and made again on what the other committed, and nothing of either is lost.
#[tokio::test]
async fn with_postgresql_a_change_overtaken_by_another_writer_is_made_again_on_its_state() {
    let (scratch, url) = Scratch::on_postgres().await;
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    // Another writer holds petstore's row, adds a domain and counts its change.
    let mut other = support::postgres::client(&url).await;
    let tx = other.transaction().await.unwrap();
    tx.batch_execute(
        "UPDATE projects SET revision = revision + 1 WHERE name = 'petstore';
         INSERT INTO domains (name, project, position, state, role, added_at)
         VALUES ('other.example.com', 'petstore', 0, 'added', 'redirect', 1)",
    )
    .await
    .unwrap();
    let (answer, ()) =
        tokio::join!(client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#), async {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            tx.commit().await.unwrap();
        });
    assert_eq!(answer.status, 201, "{}", answer.text());
    let listed = client.get("/projects/petstore/domains").await.json();
    let names: Vec<&str> =
        listed["domains"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["other.example.com", "docs.example.com"], "both changes are kept");
    let revision: i64 =
        other.query_one("SELECT revision FROM projects WHERE name = 'petstore'", &[]).await.unwrap().get(0);
    assert_eq!(revision, 2, "the other's change and this one, once");
    host.stop().await;
}

/// The same for a verification: what DNS said is recorded on the state the other committed.
#[tokio::test]
async fn with_postgresql_a_verification_overtaken_by_another_writer_is_recorded_again() {
    let (scratch, url) = Scratch::on_postgres().await;
    let fakes = Fakes::new(true);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    assert_eq!(client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await.status, 201);
    fakes.dns.cname("docs.example.com", TARGET);
    let mut other = support::postgres::client(&url).await;
    let tx = other.transaction().await.unwrap();
    tx.batch_execute(
        "UPDATE projects SET revision = revision + 1 WHERE name = 'petstore';
         INSERT INTO domains (name, project, position, state, role, added_at)
         VALUES ('other.example.com', 'petstore', 1, 'added', 'redirect', 1)",
    )
    .await
    .unwrap();
    let (answer, ()) =
        tokio::join!(client.post("/projects/petstore/domains/docs.example.com/verify", ""), async {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            tx.commit().await.unwrap();
        });
    assert_eq!(answer.status, 200, "{}", answer.text());
    let listed = client.get("/projects/petstore/domains").await.json();
    let states: Vec<(&str, &str)> = listed["domains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["name"].as_str().unwrap(), d["state"].as_str().unwrap()))
        .collect();
    assert_eq!(
        states,
        [("docs.example.com", "verified"), ("other.example.com", "added")],
        "both changes are kept"
    );
    host.stop().await;
}

/// Waits (at most 2 s) until `holds` says yes; how long it took.
async fn within_2s<F, Fut>(what: &str, mut holds: F) -> std::time::Duration
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_secs(2) {
        if holds().await {
            return started.elapsed();
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("{what}: not within 2 s");
}

/// Two hosts on one PostgreSQL database, each with its own TLS side: a domain made live through
/// host A is routed and offered by SNI on host B within 2 s, and its removal through A stops
/// B's routing and withdraws B's certificate within 2 s.
#[tokio::test]
async fn with_postgresql_another_hosts_changes_reach_routing_and_sni_within_2s() {
    let (scratch, _) = Scratch::on_postgres().await;
    let (fakes_a, fakes_b) = (Fakes::new(false), Fakes::new(false));
    let a = scratch.start(&fakes_a).await;
    let b = scratch.start(&fakes_b).await;
    let b_https = b.https.unwrap();
    let client = Client::sign_in(a.http, "ana@example.com").await;
    assert_eq!(client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await.status, 201);
    fakes_a.dns.cname("docs.example.com", TARGET);
    assert_eq!(client.post("/projects/petstore/domains/docs.example.com/verify", "").await.status, 200);
    wait_for_state(&client, "petstore", "docs.example.com", "live").await;

    // Live through A: B offers the certificate, serves the site and points the default
    // address at the new primary.
    let took = within_2s("B serves docs.example.com", || async {
        offered(&fakes_b).contains("docs.example.com")
            && send(b_https, "GET", "docs.example.com", "/", &[], b"").await.status == 200
            && send(b.http, "GET", "petstore.docs-host.test", "/", &[], b"").await.status == 301
    })
    .await;
    eprintln!("live on host B after {took:?}");

    // Removed through A: B stops routing it and withdraws its certificate.
    let answer = client.call("DELETE", "/projects/petstore/domains/docs.example.com", None).await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    let took = within_2s("B stops docs.example.com", || async {
        !offered(&fakes_b).contains("docs.example.com")
            && send(b_https, "GET", "docs.example.com", "/", &[], b"").await.status == 404
            && send(b.http, "GET", "petstore.docs-host.test", "/", &[], b"").await.status == 200
    })
    .await;
    eprintln!("removed on host B after {took:?}");
    b.stop().await;
    a.stop().await;
}

/// Host B's listening connection is cut (as by a PostgreSQL restart or a network fault): it
/// connects and listens again, and a change through A still reaches B within 2 s.
#[tokio::test]
async fn with_postgresql_a_lost_listening_connection_listens_again() {
    let (scratch, url) = Scratch::on_postgres().await;
    let (fakes_a, fakes_b) = (Fakes::new(false), Fakes::new(false));
    let a = scratch.start(&fakes_a).await;
    let b = scratch.start(&fakes_b).await;
    let b_https = b.https.unwrap();
    let admin = support::postgres::client(&url).await;
    let listeners = async || -> Vec<i32> {
        let rows = admin
            .query(
                "SELECT pid FROM pg_stat_activity
                 WHERE datname = current_database() AND query = 'LISTEN playground_host_changes'",
                &[],
            )
            .await
            .unwrap();
        rows.iter().map(|r| r.get(0)).collect()
    };
    // Both hosts' listeners are there, then cut (waiting until they are gone).
    let mut old = Vec::new();
    for _ in 0..250 {
        old = listeners().await;
        if old.len() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(old.len(), 2, "one listening connection per host");
    for pid in &old {
        let gone: bool =
            admin.query_one("SELECT pg_terminate_backend($1, 5000)", &[pid]).await.unwrap().get(0);
        assert!(gone);
    }
    // Listening again (after about a second), on new connections: the change below is made
    // after that, so only a notification can bring it to B within 2 s.
    let mut new = Vec::new();
    for _ in 0..250 {
        new = listeners().await;
        if new.len() == 2 && !new.iter().any(|p| old.contains(p)) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        new.len() == 2 && !new.iter().any(|p| old.contains(p)),
        "both hosts listen again: {old:?} {new:?}"
    );
    let client = Client::sign_in(a.http, "ana@example.com").await;
    assert_eq!(client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await.status, 201);
    fakes_a.dns.cname("docs.example.com", TARGET);
    assert_eq!(client.post("/projects/petstore/domains/docs.example.com/verify", "").await.status, 200);
    wait_for_state(&client, "petstore", "docs.example.com", "live").await;
    within_2s("B serves docs.example.com after listening again", || async {
        offered(&fakes_b).contains("docs.example.com")
            && send(b_https, "GET", "docs.example.com", "/", &[], b"").await.status == 200
    })
    .await;
    b.stop().await;
    a.stop().await;
}

/// Sign-in limits are counted in the database: five failures on host A, and the sixth try on
/// host B is refused, even with the right password.
#[tokio::test]
async fn with_postgresql_sign_in_limits_hold_across_hosts() {
    let (scratch, _) = Scratch::on_postgres().await;
    let fakes = Fakes::new(false);
    let a = scratch.start(&fakes).await;
    let b = scratch.start(&fakes).await;
    let bad = br#"{"email":"ana@example.com","password":"wrong"}"#;
    for _ in 0..5 {
        assert_eq!(api(a.http, "POST", "/session", &[("Origin", ORIGIN)], bad).await.status, 401);
    }
    let good = format!(r#"{{"email":"ana@example.com","password":"{PASSWORD}"}}"#);
    let answer = api(b.http, "POST", "/session", &[("Origin", ORIGIN)], good.as_bytes()).await;
    assert_eq!(answer.status, 429, "{}", answer.text());
    assert_eq!(answer.json()["code"], "too_many_attempts");
    b.stop().await;
    a.stop().await;
}

/// Two owners add the same names at the same moment through two hosts on one PostgreSQL
/// database (each host having found the name free): each name goes to one project, whose add
/// alone is acknowledged; the other is answered 409 `attached_elsewhere`.
#[tokio::test]
async fn with_postgresql_one_name_added_to_two_projects_at_once_goes_to_one() {
    let (scratch, _) = Scratch::on_postgres().await;
    let fakes = Fakes::new(false);
    let (a, b) = (scratch.start(&fakes).await, scratch.start(&fakes).await);
    let ana = Client::sign_in(a.http, "ana@example.com").await;
    let bo = Client::sign_in(b.http, "bo@example.com").await;
    let mut refused = 0;
    for i in 0..20 {
        let body = format!(r#"{{"name":"race{i}.example.com"}}"#);
        let (to_petstore, to_bostore) = tokio::join!(
            ana.post("/projects/petstore/domains", &body),
            bo.post("/projects/bostore/domains", &body)
        );
        let statuses = [to_petstore.status, to_bostore.status];
        assert!(statuses.contains(&201) && statuses.contains(&409), "race{i}: {statuses:?}");
        let loser = if to_petstore.status == 409 { &to_petstore } else { &to_bostore };
        assert_eq!(loser.json()["code"], "attached_elsewhere", "{}", loser.text());
        let owner = if to_petstore.status == 201 { "petstore" } else { "bostore" };
        for (client, project) in [(&ana, "petstore"), (&bo, "bostore")] {
            let names =
                client.get(&format!("/projects/{project}/domains")).await.json()["domains"].to_string();
            assert_eq!(
                names.contains(&format!("race{i}.example.com")),
                project == owner,
                "race{i}: {project}"
            );
        }
        refused += usize::from(loser.text().contains("already attached"));
    }
    assert_eq!(refused, 20);
    b.stop().await;
    a.stop().await;
}

/// Two hosts on one PostgreSQL database: only the holder of the issuance lease asks the
/// authority, whichever host the owner verified through; when the holder stops, the other takes
/// the lease over and issues the next certificate.
#[tokio::test]
async fn with_postgresql_issuance_runs_on_one_host_and_is_taken_over() {
    let (scratch, _) = Scratch::on_postgres().await;
    let (fakes_a, fakes_b) = (Fakes::new(false), Fakes::new(false));
    let a = scratch.start(&fakes_a).await;
    let b = scratch.start(&fakes_b).await;
    let asked = |fakes: &Fakes| fakes.ca.asked.lock().unwrap().clone();
    for (host, fakes, name) in [(&a, &fakes_a, "one.example.com"), (&b, &fakes_b, "two.example.com")] {
        let client = Client::sign_in(host.http, "ana@example.com").await;
        let add = client.post("/projects/petstore/domains", &format!(r#"{{"name":"{name}"}}"#)).await;
        assert_eq!(add.status, 201, "{}", add.text());
        fakes.dns.cname(name, TARGET);
        let verify = client.post(&format!("/projects/petstore/domains/{name}/verify"), "").await;
        assert_eq!(verify.status, 200, "{}", verify.text());
        wait_for_state(&client, "petstore", name, "live").await;
    }
    let (by_a, by_b) = (asked(&fakes_a), asked(&fakes_b));
    assert_eq!(by_a.len() + by_b.len(), 2, "each name asked for once: {by_a:?} {by_b:?}");
    assert!(by_a.is_empty() || by_b.is_empty(), "one host asks: {by_a:?} {by_b:?}");
    let (leader, follower, follower_fakes) =
        if by_a.is_empty() { (b, a, &fakes_a) } else { (a, b, &fakes_b) };

    // The holder stops: the other takes the lease over and issues the next one.
    leader.stop().await;
    let client = Client::sign_in(follower.http, "ana@example.com").await;
    assert_eq!(
        client.post("/projects/petstore/domains", r#"{"name":"three.example.com"}"#).await.status,
        201
    );
    follower_fakes.dns.cname("three.example.com", TARGET);
    assert_eq!(client.post("/projects/petstore/domains/three.example.com/verify", "").await.status, 200);
    wait_for_state(&client, "petstore", "three.example.com", "live").await;
    assert_eq!(asked(follower_fakes), ["three.example.com"]);
    follower.stop().await;
}

/// The lease's holder dies without giving it up (here: another process's state whose connection
/// simply ends, as a `kill -9` ends it): until then the host does not ask the authority, after
/// that it takes the lease over and issues what was verified meanwhile.
#[tokio::test]
async fn with_postgresql_the_issuance_lease_of_a_dead_holder_is_taken_over() {
    let url = support::postgres::cluster().database().await;
    let holder = playground_host::store::Store::connect(&url).await.unwrap();
    assert!(holder.lead_issuance().await.unwrap());
    let scratch = Scratch::new(&format!("[database]\nurl = \"{url}\"\n"));
    let fakes = Fakes::new(false);
    let host = scratch.start(&fakes).await;
    let client = Client::sign_in(host.http, "ana@example.com").await;
    assert_eq!(client.post("/projects/petstore/domains", r#"{"name":"docs.example.com"}"#).await.status, 201);
    fakes.dns.cname("docs.example.com", TARGET);
    assert_eq!(client.post("/projects/petstore/domains/docs.example.com/verify", "").await.status, 200);
    // Several of the host's looks (renew_check_secs = 1) while the lease is held elsewhere.
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    assert!(fakes.ca.asked.lock().unwrap().is_empty(), "not asked while another holds the lease");
    assert_eq!(client.get("/projects/petstore/domains/docs.example.com").await.json()["state"], "verified");
    drop(holder);
    wait_for_state(&client, "petstore", "docs.example.com", "live").await;
    assert_eq!(*fakes.ca.asked.lock().unwrap(), ["docs.example.com"]);
    host.stop().await;
}
