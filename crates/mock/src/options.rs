//! How a mock behaves beyond the document: checks on or off, delays and failures, per mock or
//! per operation. The JSON form (camelCase) is what the JavaScript API and `serve --behaviour`
//! read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A delay in milliseconds, fixed (`min == max`) or drawn between `min` and `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Delay {
    /// Shortest delay.
    pub min: u32,
    /// Longest delay.
    pub max: u32,
}

impl Delay {
    /// Reads `250` or `100-500`.
    ///
    /// # Errors
    /// A sentence saying what is wrong with the text.
    pub fn parse(text: &str) -> Result<Self, String> {
        let number =
            |t: &str| t.trim().parse::<u32>().map_err(|_| format!("{t:?} is not a number of milliseconds"));
        let (min, max) = match text.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(text)?;
                (n, n)
            }
        };
        if min > max {
            return Err(format!("the delay {text} runs backwards; write the shorter one first"));
        }
        if max > MAX_DELAY_MS {
            return Err(format!("a delay of at most {MAX_DELAY_MS} ms is allowed"));
        }
        Ok(Self { min, max })
    }
}

/// The longest delay the options allow (one minute).
pub const MAX_DELAY_MS: u32 = 60_000;

/// Failures injected at a rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FailureOptions {
    /// The share of calls that fail, 0 to 1.
    pub rate: f64,
    /// The status to answer; without it, the first server error the operation documents, else
    /// its first client error other than 400 and 404, else 500.
    #[serde(default)]
    pub status: Option<u16>,
    /// Fail as a network error (in the page) or a dropped connection (the server), without an
    /// answer.
    #[serde(default)]
    pub network: bool,
}

/// Options of one operation, by `operationId`; they replace the mock's own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OperationOptions {
    /// Its delay.
    #[serde(default)]
    pub delay: Option<Delay>,
    /// Its failures.
    #[serde(default)]
    pub failure: Option<FailureOptions>,
}

/// The most credentials a mock's options list.
pub const MAX_CREDENTIALS: usize = 100;
/// The longest credential a mock's options list, in bytes.
pub const MAX_CREDENTIAL_BYTES: usize = 4096;

/// A mock's options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct MockOptions {
    /// Check parameters and bodies against the document (on by default; off for demos).
    pub validate: bool,
    /// Answer 401 when the credentials an operation's security asks for are missing, or not
    /// among `credentials` when that is given.
    pub security: bool,
    /// The credentials accepted: API key values, bearer tokens, and `user:password` (or its
    /// base64) for Basic. Empty: any value is accepted, as long as there is one.
    pub credentials: Vec<String>,
    /// The seed of generated data: the same seed gives the same answers.
    pub seed: u64,
    /// A delay before every answer.
    pub delay: Option<Delay>,
    /// Failures at a rate.
    pub failure: Option<FailureOptions>,
    /// Per operation, by `operationId`.
    pub operations: BTreeMap<String, OperationOptions>,
}

impl Default for MockOptions {
    fn default() -> Self {
        Self {
            validate: true,
            security: true,
            credentials: Vec::new(),
            seed: 0,
            delay: None,
            failure: None,
            operations: BTreeMap::new(),
        }
    }
}

impl MockOptions {
    /// Checks the ranges: rates between 0 and 1, delays in order and at most a minute, statuses
    /// from 100 to 599, at most 100 credentials of at most 4 KiB each.
    ///
    /// # Errors
    /// The first value out of range, in words.
    pub fn check(&self) -> Result<(), String> {
        let failure = |f: &FailureOptions, at: &str| {
            if !(0.0..=1.0).contains(&f.rate) {
                return Err(format!("{at}failure rate {} is not between 0 and 1", f.rate));
            }
            if f.status.is_some_and(|s| !(100..=599).contains(&s)) {
                return Err(format!("{at}failure status {} is not an HTTP status", f.status.unwrap_or(0)));
            }
            Ok(())
        };
        let delay = |d: &Delay, at: &str| {
            if d.min > d.max || d.max > MAX_DELAY_MS {
                return Err(format!(
                    "{at}delay {}-{} ms: the shorter first, at most {MAX_DELAY_MS} ms",
                    d.min, d.max
                ));
            }
            Ok(())
        };
        if self.credentials.len() > MAX_CREDENTIALS {
            return Err(format!("{} credentials: at most {MAX_CREDENTIALS}", self.credentials.len()));
        }
        if let Some(long) = self.credentials.iter().find(|c| c.len() > MAX_CREDENTIAL_BYTES) {
            return Err(format!("a credential of {} bytes: at most {MAX_CREDENTIAL_BYTES}", long.len()));
        }
        if self.credentials.iter().any(|c| c.trim().is_empty()) {
            return Err("an empty credential: give a value".to_owned());
        }
        self.failure.as_ref().map_or(Ok(()), |f| failure(f, ""))?;
        self.delay.as_ref().map_or(Ok(()), |d| delay(d, ""))?;
        for (id, op) in &self.operations {
            let at = format!("{id}: ");
            op.failure.as_ref().map_or(Ok(()), |f| failure(f, &at))?;
            op.delay.as_ref().map_or(Ok(()), |d| delay(d, &at))?;
        }
        Ok(())
    }
}
