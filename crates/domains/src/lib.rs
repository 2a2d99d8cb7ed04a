//! Custom domains (Project settings > Domains): the pure core of the dashboard page and of
//! `playground host`. Host-name validation, the lifecycle state machine, DNS instructions and
//! verification, DNS-over-HTTPS answers, primary and redirects, and the saved dashboard state.
//! Time, IDNA and DNS are injected (`now` in seconds, a [`ToAscii`] function, a [`Resolver`]),
//! so nothing here reads a clock or touches the network, and it builds and tests on the host and
//! on `wasm32-unknown-unknown` alike. The dashboard page, the host and the certificates crate
//! depend on it; the reference page and the mock server carry no DNS code.
//!
//! - Time: every action takes `now`; `Dashboard::tick(now, resolver)` lets time pass (a verified
//!   domain goes live once `settings.certificate_delay_secs` has passed and no CAA record blocks
//!   `settings.certificate_authority`). IDNA: called only for non-ASCII input; the page passes
//!   its URL parser, host tests the `idna` crate (a dev-dependency only). DNS: [`Resolver`]
//!   (`records(name)`); [`SimulatedZone`] serves the demo and the tests, and for real domains the
//!   caller asks the questions of `doh::verification_queries` and `doh::caa_queries` and passes
//!   the answers as a [`RecordSet`].
//! - Files: `name.rs` (host names), `machine.rs` (the lifecycle as a pure [`step`], certificate
//!   status), `dns/` (`record.rs`, `zone.rs`, `caa.rs`, `verification.rs`), `doh.rs`,
//!   `redirects.rs` (the `{"domains": {"primary", "redirects"}}` configuration and its checks),
//!   `settings.rs`, `dashboard.rs` (the whole state, its actions and its versioned JSON, whose
//!   `from_json` checks every invariant), `outcome.rs` (the sentences the page shows),
//!   `troubleshooting.rs`, `hosted` (what the host's API answers, for its page).
//!
//! Decisions where the product's rules are silent:
//!
//! - Remove is allowed from added and verified too (a mistyped domain can be dropped); only
//!   removing a live domain stops traffic, so only that one gets `Dashboard::removal_warning`.
//! - Re-verify works from every attached state. A successful re-verify of a live domain asks for
//!   a fresh certificate and makes it `reverifying`: still serving, still the primary, live again
//!   when the new certificate is issued. A failed re-verify changes nothing; Verify on a verified,
//!   live or re-verifying domain is refused and points to Re-verify.
//! - Apex or subdomain: a name is an apex when it is its own registrable domain by Mozilla's
//!   Public Suffix List (the `psl2` crate; ICANN and private sections, so `example.co.uk` and
//!   `myproject.github.io` are apexes). A public suffix itself is refused at Add. A subdomain's
//!   CNAME name is its labels relative to that zone (`api.docs` for `api.docs.example.com`). An
//!   apex gets ALIAS or ANAME to the CNAME target, with the caveat that not every DNS provider
//!   supports them; an apex whose A/AAAA records equal the target's addresses also passes.
//! - Verification names one cause, in this order: a conflicting record of the same name (for a
//!   CNAME any other record, as RFC 1034 allows it no neighbour; for an apex an A/AAAA record),
//!   then a value that differs (both values shown), then not found (with the 48-hour propagation
//!   note). Records owned by other names (a CNAME chain in a DoH answer) are ignored.
//! - Host names: trimmed, one trailing dot dropped, lower-cased; labels of 1 to 63 letters,
//!   digits and inner hyphens; at most 253 characters; at least two labels; a numeric last label
//!   is refused. Zone record names may also have `_service` labels and a leading `*`; TTLs are 1
//!   to 604,800.
//! - Certificate: 30 minutes after verification without a certificate,
//!   `CertificateStatus::Overdue` carries the troubleshooting steps (still verifies, CAA,
//!   Re-verify, private-connection warnings, cached redirects).
//! - Troubleshooting (`Dashboard::troubleshooting`) always holds its four answers, each saying
//!   where its symptom can apply now, or that none of the domains can show it.
//! - Primary and redirects: only a domain that serves (live or re-verifying) can be primary;
//!   without one, the default address `{project}.{platform domain}` is. Every other serving
//!   domain redirects to it with 301, unless it is set to serve the project too
//!   (`DomainRole::Serve`); a domain waiting for DNS or its first certificate is not listed.
//!   `validate_config` refuses, in order: a primary not attached, a self-redirect, a status other
//!   than 301, a repeated `from`, an unattached `from` or `to`, a redirecting primary, loops, then
//!   chains (browsers cache redirect chains).
//! - A Free plan keeps the domains already attached after a downgrade; only adding is refused.
//!
//! Tests in `tests/`, one file per area, with DoH fixtures in `tests/fixtures/doh/`.
#![deny(missing_docs)]

mod dashboard;
pub mod dns;
pub mod doh;
pub mod hosted;
pub mod machine;
pub mod name;
mod outcome;
pub mod redirects;
mod settings;
mod troubleshooting;

pub use self::dashboard::{Dashboard, Domain, DomainRole, RemovalWarning, STATE_VERSION, StateError};
pub use self::dns::{
    DnsInstruction, DnsRecord, InstructionKind, RecordKind, RecordSet, Resolver, SimulatedZone,
    VerifyFailure, ZoneError, instructions, verify,
};
pub use self::doh::{DohError, parse_answer, query_url};
pub use self::machine::{Action, CertificateStatus, DomainState, Refusal, step};
pub use self::name::{NameError, ToAscii, normalize_host, validate_new_domain};
pub use self::outcome::{Event, Outcome};
pub use self::redirects::{DomainConfig, Redirect, RedirectError, build_config, validate_config};
pub use self::settings::{Plan, Settings};
pub use self::troubleshooting::{Symptom, Trouble};
