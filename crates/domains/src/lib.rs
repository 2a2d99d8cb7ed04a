//! Custom domains (Project settings > Domains): the pure core of the dashboard page. Host-name
//! validation, the lifecycle state machine, DNS instructions and verification, DNS-over-HTTPS
//! answers, primary and redirects, and the saved dashboard state. Time, IDNA and DNS are
//! injected (`now` in seconds, a [`ToAscii`] function, a [`Resolver`]), so nothing here reads a
//! clock or touches the network, and it builds and tests on the host and on
//! `wasm32-unknown-unknown` alike. Only the dashboard depends on it: the reference page and the
//! mock server carry no DNS code.
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
