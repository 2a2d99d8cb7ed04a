//! DNS for custom domains: the record the owner must configure, the record model, the
//! `Resolver` seam with its simulated zone, verification with the troubleshooting causes, and
//! the CAA check that can block the certificate.

mod caa;
mod record;
mod verification;
mod zone;

pub use self::caa::{Caa, caa_blocking, caa_blocking_reason};
pub use self::record::{DnsRecord, RecordKind, RecordSet, Resolver, same_name};
pub use self::verification::{
    APEX_CAVEAT, CNAME_TTL, DnsInstruction, InstructionKind, VerifyFailure, instructions, verify,
};
pub use self::zone::{MAX_TTL, SimulatedZone, ZoneError};
