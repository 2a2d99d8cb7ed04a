//! How the catalog groups operations: by tag in first-use order, the webhooks apart, then the
//! tags' sections under `x-tagGroups` or `x-parent` groups.

use super::*;

/// Operations by tag, tags in first-use order.
pub(super) type ByTag = IndexMap<String, Vec<Arc<OperationSummary>>>;

/// The operations of `paths` by tag (those with no tag under [`UNTAGGED`]), and how many there
/// are, each counted once.
pub(super) fn operations_by_tag(paths: &[Cow<'_, [Listed]>]) -> (ByTag, usize) {
    let mut by_tag: ByTag = IndexMap::new();
    let mut operation_count = 0;
    for listed in paths.iter().flat_map(|item| item.iter()) {
        operation_count += 1;
        if listed.tags.is_empty() {
            by_tag.entry(UNTAGGED.to_owned()).or_default().push(Arc::clone(&listed.summary));
        }
        for tag in &listed.tags {
            match by_tag.get_mut(tag.as_str()) {
                Some(operations) => operations.push(Arc::clone(&listed.summary)),
                None => {
                    by_tag.insert(tag.clone(), vec![Arc::clone(&listed.summary)]);
                }
            }
        }
    }
    (by_tag, operation_count)
}

/// The group of the webhooks' operations, when there are any, and how many there are. Webhooks
/// are listed last, in a group of their own.
pub(super) fn webhook_group(webhooks: &[Cow<'_, [Listed]>]) -> (Option<Group>, usize) {
    let hooks: Vec<Arc<OperationSummary>> =
        webhooks.iter().flat_map(|item| item.iter()).map(|listed| Arc::clone(&listed.summary)).collect();
    let webhook_count = hooks.len();
    let webhook_group = (!hooks.is_empty()).then(|| Group {
        name: WEBHOOKS.to_owned(),
        title: "Webhooks".to_owned(),
        description: None,
        tags: vec![TagSection {
            name: WEBHOOKS.to_owned(),
            title: "Webhooks".to_owned(),
            description: None,
            operations: hooks,
        }],
        is_tag: false,
    });
    (webhook_group, webhook_count)
}

/// Every tag by name: the declared tags first (document order), then tags only used by
/// operations, then the parents named by `x-parent`.
pub(super) fn all_tags(declared: Vec<RawTag>, by_tag: &ByTag) -> IndexMap<String, RawTag> {
    let mut tags: IndexMap<String, RawTag> = IndexMap::new();
    for tag in declared {
        tags.entry(tag.name.clone()).or_insert(tag);
    }
    for name in by_tag.keys() {
        tags.entry(name.clone()).or_insert_with(|| RawTag::named(name));
    }
    // A parent named by x-parent but never declared becomes a group of its own.
    let parents: Vec<String> = tags.values().filter_map(|t| t.parent.clone()).collect();
    for parent in parents {
        tags.entry(parent.clone()).or_insert_with(|| RawTag::named(&parent));
    }
    tags
}

/// The section of `tag` with its operations taken from `by_tag`, when it has any left.
pub(super) fn section(tag: &RawTag, by_tag: &mut ByTag) -> Option<TagSection> {
    // Taken, not removed: removing from the middle of an index map shifts the rest.
    let operations = by_tag.get_mut(&tag.name).map(std::mem::take).filter(|ops| !ops.is_empty());
    operations.map(|operations| TagSection {
        name: tag.name.clone(),
        title: tag.title(),
        description: tag.description.clone(),
        operations,
    })
}

/// The groups of Redoc's `x-tagGroups`, which replace `x-parent`: each entry is a group of the
/// tags it lists, and the tags in no entry follow, each a group of its own (Redoc hides them;
/// here no operation is out of reach).
pub(super) fn listed_groups(
    tag_groups: &[RawTagGroup],
    tags: &IndexMap<String, RawTag>,
    by_tag: &mut ByTag,
) -> Vec<Group> {
    let mut groups = Vec::new();
    for group in tag_groups {
        let sections: Vec<TagSection> = group
            .tags
            .iter()
            .filter_map(|name| section(tags.get(name).unwrap_or(&RawTag::named(name)), by_tag))
            .collect();
        if !sections.is_empty() {
            groups.push(Group {
                name: group.name.clone(),
                title: group.name.clone(),
                description: None,
                tags: sections,
                is_tag: false,
            });
        }
    }
    groups
}

/// The groups of `x-parent`: each tag with no parent (or itself as parent) is a group of its
/// own section and its children's.
pub(super) fn parent_groups(tags: &IndexMap<String, RawTag>, by_tag: &mut ByTag) -> Vec<Group> {
    // Each parent's children (by position in `tags`), in declaration order.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); tags.len()];
    for (index, child) in tags.values().enumerate() {
        let parent = child.parent.as_deref().filter(|p| *p != child.name);
        if let Some(parent) = parent.and_then(|p| tags.get_index_of(p)) {
            children[parent].push(index);
        }
    }
    let mut groups = Vec::new();
    for (index, tag) in tags.values().enumerate() {
        if tag.parent.as_deref().is_some_and(|p| p != tag.name) {
            continue;
        }
        let mut sections: Vec<TagSection> = section(tag, by_tag).into_iter().collect();
        for child in children[index].iter().filter_map(|&c| tags.get_index(c)) {
            sections.extend(section(child.1, by_tag));
        }
        if !sections.is_empty() {
            groups.push(Group {
                name: tag.name.clone(),
                title: tag.title(),
                description: tag.description.clone(),
                tags: sections,
                is_tag: true,
            });
        }
    }
    groups
}
