//! Component schemas compared once: a `$ref` to `#/components/schemas/NAME` on both sides is
//! queued here with who reached it (an operation, or another shared schema), and each
//! (name, direction, leniency) is compared once; its changes name every operation that reaches it,
//! directly or through other schemas.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::{Direction, OperationKey};

/// A shared schema as compared: its name, the direction, and whether breaking changes in it
/// are reported as non-breaking (reached only from an experimental operation, a read-only
/// property in a request, ...).
pub(crate) type Key = (String, Direction, bool);

/// Who reached a shared schema.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum User {
    /// An operation, from its parameters, bodies or responses.
    Operation(OperationKey),
    /// Another shared schema, compared in the same direction.
    Schema(String),
}

/// The shared schemas reached, and the queue of those not compared yet.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    users: BTreeMap<Key, BTreeSet<User>>,
    queue: VecDeque<Key>,
}

impl Shared {
    /// `user` reaches the component schema `name` in `direction`; queued the first time.
    pub(crate) fn reach(&mut self, name: &str, direction: Direction, lenient: bool, user: User) {
        let key = (name.to_owned(), direction, lenient);
        if let Some(users) = self.users.get_mut(&key) {
            users.insert(user);
            return;
        }
        self.users.insert(key.clone(), BTreeSet::from([user]));
        self.queue.push_back(key);
    }

    /// The next schema to compare.
    pub(crate) fn next(&mut self) -> Option<Key> {
        self.queue.pop_front()
    }

    /// Every operation that reaches `name` in `direction` (leniently or not), sorted.
    pub(crate) fn operations(&self, name: &str, direction: Direction, lenient: bool) -> Vec<OperationKey> {
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut operations: BTreeSet<&OperationKey> = BTreeSet::new();
        let mut todo = vec![name];
        while let Some(name) = todo.pop() {
            if !seen.insert(name) {
                continue;
            }
            let Some(users) = self.users.get(&(name.to_owned(), direction, lenient)) else { continue };
            for user in users {
                match user {
                    User::Operation(key) => {
                        operations.insert(key);
                    }
                    User::Schema(other) => todo.push(other),
                }
            }
        }
        operations.into_iter().cloned().collect()
    }
}
