//! The HTTP-01 answers a plain-HTTP listener serves while an issuance runs (RFC 8555 section
//! 8.3), and where they are published too for other listeners (the host's state database).

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};

/// The path prefix under which HTTP-01 answers are served (RFC 8555 section 8.3).
pub const CHALLENGE_PATH: &str = "/.well-known/acme-challenge/";
/// The longest token served: RFC 8555 tokens are 43 characters of base64url.
const MAX_TOKEN_LEN: usize = 256;

/// Where published answers are copied as well, so that other listeners than this process's
/// answer them (the host keeps them in its state database).
pub trait ChallengeSink: Send + Sync + 'static {
    /// Publishes `key_authorization` for `token`; [`super::Acme::issue`] tells the CA it is ready only
    /// after this succeeded. An error is a sentence.
    fn publish<'a>(
        &'a self,
        token: &'a str,
        key_authorization: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>>;
    /// Withdraws the answers of an issuance that ended (called from a `Drop`: it must not block).
    fn withdraw(&self, tokens: Vec<String>);
}

/// The HTTP-01 answers being served: token -> key authorization. Clones share one map; the
/// host's plain-HTTP listener answers `GET /.well-known/acme-challenge/{token}` with
/// [`Challenges::get`] (or [`Challenges::answer`] for the whole path) while [`super::Acme::issue`]
/// adds and removes entries (and publishes them to the [`ChallengeSink`], if there is one).
#[derive(Clone, Default)]
pub struct Challenges {
    tokens: Arc<RwLock<HashMap<String, String>>>,
    pub(super) sink: Option<Arc<dyn ChallengeSink>>,
}

impl fmt::Debug for Challenges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Challenges").field("tokens", &self.len()).finish()
    }
}

impl Challenges {
    /// An empty map.
    #[must_use]
    pub fn new() -> Challenges {
        Challenges::default()
    }

    /// An empty map whose entries are published to `sink` too.
    #[must_use]
    pub fn with_sink(sink: Arc<dyn ChallengeSink>) -> Challenges {
        Challenges { tokens: Arc::default(), sink: Some(sink) }
    }

    /// The key authorization to answer for `token`, if one is being served.
    #[must_use]
    pub fn get(&self, token: &str) -> Option<String> {
        if token.len() > MAX_TOKEN_LEN {
            return None;
        }
        self.tokens.read().unwrap_or_else(std::sync::PoisonError::into_inner).get(token).cloned()
    }

    /// The answer for a request path such as `/.well-known/acme-challenge/{token}` (the body of a
    /// `200 text/plain` response), or `None` (answer 404).
    #[must_use]
    pub fn answer(&self, path: &str) -> Option<String> {
        let token = path.strip_prefix(CHALLENGE_PATH)?;
        if token.is_empty() || !token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return None;
        }
        self.get(token)
    }

    /// How many tokens are being served.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tokens.read().unwrap_or_else(std::sync::PoisonError::into_inner).len()
    }

    /// Whether no token is being served.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(super) fn insert(&self, token: &str, key_authorization: &str) {
        self.tokens
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(token.to_owned(), key_authorization.to_owned());
    }

    fn remove(&self, token: &str) {
        self.tokens.write().unwrap_or_else(std::sync::PoisonError::into_inner).remove(token);
    }
}

/// Removes the tokens an issuance published, however it ends (success, error, timeout or the
/// future being dropped).
pub(super) struct Published<'a> {
    pub(super) challenges: &'a Challenges,
    pub(super) tokens: Vec<String>,
}

impl Drop for Published<'_> {
    fn drop(&mut self) {
        for token in &self.tokens {
            self.challenges.remove(token);
        }
        if let Some(sink) = &self.challenges.sink
            && !self.tokens.is_empty()
        {
            sink.withdraw(std::mem::take(&mut self.tokens));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_are_shared_between_clones_and_answer_only_their_paths() {
        let challenges = Challenges::new();
        let listener = challenges.clone();
        challenges.insert("tok_en-1", "tok_en-1.thumb");
        assert_eq!(listener.get("tok_en-1").as_deref(), Some("tok_en-1.thumb"));
        assert_eq!(
            listener.answer("/.well-known/acme-challenge/tok_en-1").as_deref(),
            Some("tok_en-1.thumb")
        );
        assert_eq!(listener.answer("/.well-known/acme-challenge/"), None);
        assert_eq!(listener.answer("/.well-known/acme-challenge/../tok_en-1"), None);
        assert_eq!(listener.answer("/tok_en-1"), None);
        assert_eq!(listener.get(&"x".repeat(10_000)), None);
        {
            let _published = Published { challenges: &challenges, tokens: vec!["tok_en-1".to_owned()] };
        }
        assert!(listener.is_empty());
    }

    #[derive(Default)]
    struct Recorder(std::sync::Mutex<Vec<String>>);

    impl ChallengeSink for Recorder {
        fn publish<'a>(
            &'a self,
            token: &'a str,
            key_authorization: &'a str,
        ) -> Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>> {
            Box::pin(async move {
                self.0.lock().unwrap().push(format!("+{token}={key_authorization}"));
                Ok(())
            })
        }
        fn withdraw(&self, tokens: Vec<String>) {
            self.0.lock().unwrap().extend(tokens.into_iter().map(|t| format!("-{t}")));
        }
    }

    #[test]
    fn the_sink_hears_each_withdrawal_once() {
        let recorder = Arc::new(Recorder::default());
        let challenges = Challenges::with_sink(Arc::clone(&recorder) as Arc<dyn ChallengeSink>);
        challenges.insert("a", "a.thumb");
        challenges.insert("b", "b.thumb");
        {
            let _published =
                Published { challenges: &challenges, tokens: vec!["a".to_owned(), "b".to_owned()] };
        }
        {
            let _nothing = Published { challenges: &challenges, tokens: Vec::new() };
        }
        assert!(challenges.is_empty());
        assert_eq!(*recorder.0.lock().unwrap(), ["-a", "-b"]);
    }
}
