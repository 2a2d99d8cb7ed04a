//! Operations outside the stored resources, answered from the document, and the paths a
//! DELETE there removed.

use super::answer::{self, Prefer};
use super::{ApiMock, Failure, Matched, routes};
use playground_http::Response;

impl ApiMock {
    /// An operation outside the stored resources, answered from the document; a DELETE that
    /// succeeds removes its path, which then answers 404 (paths under it too) until a PUT or
    /// POST to it that succeeds puts it back.
    pub(crate) fn outside_resources(
        &mut self,
        route: &Matched<'_>,
        asks_document: bool,
        prefer: &Prefer,
        accept: Option<&str>,
        seed: u64,
    ) -> Result<Response, Failure> {
        let Matched { spec, path_index, op, path_params } = *route;
        // Most documents never delete outside their resources: the path is made only when needed.
        if !self.store.has_deleted() && op.method != "DELETE" {
            return answer::from_document(spec, op, prefer, accept, seed);
        }
        let template = spec.paths.get(path_index).map_or("", |p| p.template.as_str());
        let path = routes::Template::parse(template).fill(path_params);
        // A PUT or POST to the deleted path itself may put it back; anything else is gone.
        let revives = matches!(op.method, "PUT" | "POST") && self.store.is_deleted(&path);
        if !asks_document
            && !revives
            && let Some(deleted) = self.store.deleted_at(&path)
        {
            return Err(Failure::not_found(format!("{deleted} was deleted.")));
        }
        let response = answer::from_document(spec, op, prefer, accept, seed)?;
        let success = (200..300).contains(&response.status);
        let changed = match op.method {
            "DELETE" if success && !asks_document => self.store.mark_deleted(path),
            "PUT" | "POST" if success && !asks_document => self.store.revive(&path),
            _ => false,
        };
        if changed {
            self.revision += 1;
        }
        Ok(response)
    }
}
