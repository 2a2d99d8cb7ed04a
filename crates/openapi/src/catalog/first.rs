//! The first rows of the list of a document whose `paths` is still arriving: which of them
//! are final, so a page can show them before the rest is read.

use std::borrow::Cow;
use std::sync::Arc;

use indexmap::IndexSet;

use super::raw::Listed;
use super::raw::RawRoot;
use super::{Catalog, CatalogError, ItemSource, ItemsRead, Method, OperationSummary, UNTAGGED};
use crate::outline::{self, Row};

/// A tag name no document uses (JSON keys cannot be told from it only by a NUL), standing for
/// a tag that only operations still to come will use.
const NEXT_TAG: &str = "\u{0}a tag not used yet";

impl Catalog {
    /// The list of a document whose `paths` is still arriving, made from the path items read
    /// so far ([`Catalog::partial`] set), and how many of its first rows (as
    /// [`outline::rows`] makes them) are final: the rest of `paths` can only add operations
    /// after them.
    ///
    /// Operations are listed in document order, so the rest can only add to the end of a tag's
    /// operations, or add a tag the list does not show yet at the place its declaration (or
    /// its first use) gives it. The first tag's rows (its headings and its operations so far)
    /// are therefore final when no tag that may still get operations would come before it or
    /// change its headings: the list is made again with one operation for every tag the root
    /// names and every tag used so far, and its first headings must be the same. 0 otherwise.
    ///
    /// One thing the rest can still change: an `x-tagGroups` that comes after `paths` (the
    /// root's fields read so far have none). The list of `paths` as a whole is made before it
    /// too; the page takes the whole document's list in place when it arrives. Of the 835
    /// OpenAPI JSON documents of the corpus, streamed in 16 KB chunks, 81 gave their first 8
    /// rows early; the 6 whose first rows changed all have an `x-tagGroups` after `paths`.
    ///
    /// # Errors
    /// As [`Catalog::from_read`].
    pub fn from_read_first<'a>(
        root: &serde_json::Map<String, serde_json::Value>,
        paths: &ItemsRead,
        resolve: &dyn Fn(&str) -> Option<ItemSource<'a>>,
    ) -> Result<(Self, usize), CatalogError> {
        let raw = RawRoot::read(root)?;
        let listed = paths.listed(resolve)?;

        // Every tag that may get an operation: the ones used so far (in first use order, which
        // places the tags nobody declared), one nobody used yet, then the declared ones, their
        // parents, the ones `x-tagGroups` names, and no tag at all.
        let mut names: IndexSet<&str> = IndexSet::new();
        for op in listed.iter().flat_map(|item| item.iter()) {
            if op.tags.is_empty() {
                names.insert(UNTAGGED);
            }
            names.extend(op.tags.iter().map(String::as_str));
        }
        names.insert(NEXT_TAG);
        for tag in &raw.tags {
            names.insert(&tag.name);
            names.extend(tag.parent.as_deref());
        }
        names.extend(raw.tag_groups.iter().flat_map(|group| group.tags.iter().map(String::as_str)));
        names.insert(UNTAGGED);
        let probe = Arc::new(OperationSummary {
            method: Method::Get,
            path: String::new(),
            operation_id: None,
            summary: None,
            deprecated: false,
            stability: None,
            hide_try_it: false,
            webhook: false,
            security: None,
        });
        let every: Vec<Listed> = names
            .iter()
            .map(|name| Listed {
                summary: Arc::clone(&probe),
                tags: if *name == UNTAGGED { Vec::new() } else { vec![(*name).to_owned()] },
            })
            .collect();
        let probed = Self::from_raw(raw.clone().with(vec![Cow::Owned(every)], Vec::new()))?;

        let mut catalog = Self::from_raw(raw.with(listed, Vec::new()))?;
        catalog.partial = true;
        let settled = settled_rows(&catalog, &probed);
        Ok((catalog, settled))
    }
}

/// How many first rows of `catalog` are final, `probed` being its list with an operation for
/// every tag that may get one: its first tag's rows, when both lists start with the same
/// headings.
fn settled_rows(catalog: &Catalog, probed: &Catalog) -> usize {
    let (Some(first), Some(probed_first)) = (catalog.groups.first(), probed.groups.first()) else { return 0 };
    let (Some(section), Some(probed_section)) = (first.tags.first(), probed_first.tags.first()) else {
        return 0;
    };
    if section.name != probed_section.name {
        return 0;
    }
    let headings = |rows: Vec<Row>| -> Vec<Row> {
        rows.into_iter().take_while(|row| !matches!(row, Row::Operation(_))).collect()
    };
    let ours = headings(outline::rows(std::slice::from_ref(first)));
    if ours != headings(outline::rows(std::slice::from_ref(probed_first))) {
        return 0;
    }
    ours.len() + section.operations.len()
}
