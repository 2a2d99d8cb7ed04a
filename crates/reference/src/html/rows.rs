//! The rows of the operation list as HTML ([`playground_openapi::outline`] lays them out).

use playground_openapi::outline::{Row, href, tag_anchor};

use super::escape;

/// One row as HTML, every value from the document escaped. Headings are `role="heading"`
/// (level 2 for groups, 3 for tags); an operation is a link to `#anchor`, marked
/// `aria-current="page"` when its anchor is `current`. The sidebar's virtual list builds its
/// rows from this: no view code per row kind in the app, and the rows of a thousand-operation
/// document are plain strings until they scroll into view.
#[must_use]
pub fn row_html(row: &Row, current: Option<&str>) -> String {
    match row {
        Row::Group { name, tag } => {
            let name = escape(name);
            let text = match tag {
                Some(tag) => format!(
                    r#"<a href="{}" class="heading-link">{name}</a>"#,
                    escape(&href(&tag_anchor(tag)))
                ),
                None => name.clone(),
            };
            format!(
                r#"<div class="list-row group-name" role="heading" aria-level="2" data-testid="group" data-group="{name}">{text}</div>"#
            )
        }
        Row::Tag { name, group, tag } => {
            let (name, group) = (escape(name), escape(group));
            let link = escape(&href(&tag_anchor(tag)));
            format!(
                r#"<div class="list-row tag-name" role="heading" aria-level="3" data-testid="tag" data-tag="{name}" data-in-group="{group}"><a href="{link}" class="heading-link">{name}</a></div>"#
            )
        }
        Row::Operation(op) => {
            let anchor = op.anchor();
            let marked = if current == Some(anchor.as_str()) { r#" aria-current="page""# } else { "" };
            let href = escape(&href(&anchor));
            let anchor = escape(&anchor);
            let method = op.method.as_str();
            let lower = method.to_ascii_lowercase();
            let path = escape(&op.path);
            let deprecated = if op.deprecated { " deprecated" } else { "" };
            let mut badges = String::new();
            if op.deprecated {
                badges.push_str(
                    r#"<span class="badge badge-deprecated" data-testid="badge-deprecated">Deprecated</span>"#,
                );
            }
            if let Some(stability) = op.stability {
                let (value, label) = (stability.as_str(), stability.label());
                badges.push_str(&format!(
                    r#"<span class="badge badge-{value}" data-testid="badge-stability">{label}</span>"#
                ));
            }
            let summary = escape(op.summary.as_deref().unwrap_or_default());
            format!(
                r##"<div class="list-row operation" data-testid="operation" data-operation-id="{anchor}"><a href="{href}" class="operation-link" title="{method} {path}"{marked}><span class="operation-line"><span class="method method-{lower}">{method}</span><code class="path{deprecated}">{path}</code>{badges}</span><span class="summary">{summary}</span></a></div>"##
            )
        }
    }
}
