//! Matching a request path against the document's path templates.
//!
//! A template such as `/users/{userId}/files/{name}.{ext}` is split at `/`; each segment is a
//! literal or a mix of literals and parameters. OpenAPI lets two templates differ only in their
//! parameters' names (`/a/{id}` beside `/a/{name}/b`), which a radix-tree router refuses, so the
//! match is a scan over the templates of the right length, literal segments winning over
//! parameters (`/users/me` before `/users/{id}`), as the specification asks.

use percent_encoding::percent_decode_str;

/// One piece of a segment.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Param(String),
}

/// A compiled path template.
#[derive(Debug, Clone)]
pub(crate) struct Template {
    segments: Vec<Vec<Part>>,
}

impl Template {
    /// Reads a template; `{}` without a name, or an unclosed `{`, reads as literal text.
    pub(crate) fn parse(template: &str) -> Self {
        let segments = split(template)
            .map(|segment| {
                let mut parts = Vec::new();
                let mut rest = segment;
                while let Some(open) = rest.find('{') {
                    let Some(close) = rest[open..].find('}').map(|c| open + c) else { break };
                    let name = &rest[open + 1..close];
                    if name.is_empty() {
                        break;
                    }
                    if open > 0 {
                        parts.push(Part::Literal(rest[..open].to_owned()));
                    }
                    parts.push(Part::Param(name.to_owned()));
                    rest = &rest[close + 1..];
                }
                if !rest.is_empty() {
                    parts.push(Part::Literal(rest.to_owned()));
                }
                parts
            })
            .collect();
        Self { segments }
    }

    /// The parameters' values when `path` matches, with a score: literal characters matched
    /// (more is more specific).
    fn matches(&self, path: &[&str]) -> Option<(usize, Vec<(String, String)>)> {
        match_segments(&self.segments, path)
    }

    /// The path with each parameter replaced by its value in `params` (as matched).
    pub(crate) fn fill(&self, params: &[(String, String)]) -> String {
        let mut out = String::new();
        for parts in &self.segments {
            out.push('/');
            for part in parts {
                match part {
                    Part::Literal(text) => out.push_str(text),
                    Part::Param(name) => {
                        out.push_str(params.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v.as_str()));
                    }
                }
            }
        }
        if out.is_empty() { "/".to_owned() } else { out }
    }

    /// The names of the template's parameters, in order.
    pub(crate) fn params(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().flatten().filter_map(|p| match p {
            Part::Param(name) => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }
}

fn match_segments(segments: &[Vec<Part>], path: &[&str]) -> Option<(usize, Vec<(String, String)>)> {
    if path.len() != segments.len() {
        return None;
    }
    let mut score = 0;
    let mut params = Vec::new();
    for (parts, text) in segments.iter().zip(path) {
        score += match_segment(parts, text, &mut params)?;
    }
    Some((score, params))
}

fn split(path: &str) -> impl Iterator<Item = &str> {
    let trimmed = path.trim_matches('/');
    trimmed.split('/').filter(move |_| !trimmed.is_empty())
}

/// Matches one segment; parameters take the shortest text up to the next literal and are
/// never empty.
fn match_segment(parts: &[Part], text: &str, params: &mut Vec<(String, String)>) -> Option<usize> {
    let mut rest = text;
    let mut score = 0;
    let mut i = 0;
    while i < parts.len() {
        match &parts[i] {
            Part::Literal(lit) => {
                rest = rest.strip_prefix(lit.as_str())?;
                score += lit.len() + 1;
            }
            Part::Param(name) => {
                let value = match parts.get(i + 1) {
                    Some(Part::Literal(next)) => {
                        let skip = rest.chars().next()?.len_utf8();
                        let at = rest[skip..].find(next.as_str())? + skip;
                        let (value, after) = rest.split_at(at);
                        rest = after;
                        value
                    }
                    // Two parameters side by side: the first takes one character.
                    Some(Part::Param(_)) => {
                        let at = rest.char_indices().nth(1)?.0;
                        let (value, after) = rest.split_at(at);
                        rest = after;
                        value
                    }
                    None => std::mem::take(&mut rest),
                };
                if value.is_empty() {
                    return None;
                }
                params.push((name.clone(), percent_decode_str(value).decode_utf8_lossy().into_owned()));
            }
        }
        i += 1;
    }
    rest.is_empty().then_some(score)
}

/// A path's parameters, by name, decoded.
pub(crate) type Params = Vec<(String, String)>;

/// Every template of the document, by index.
#[derive(Debug, Clone, Default)]
pub(crate) struct Routes {
    templates: Vec<Template>,
}

impl Routes {
    /// Adds a template; its index is the number of templates added before it.
    pub(crate) fn push(&mut self, template: &str) {
        self.templates.push(Template::parse(template));
    }

    /// The templates a path with a trailing slash fits when the slash ends an empty last
    /// parameter (`/types/` as `/types/{id}` with id ""): asked only when no template the path
    /// matches without it has the method.
    pub(crate) fn empty_last_at(&self, path: &str) -> Vec<(usize, Params)> {
        let segments: Vec<&str> = split(path).collect();
        if !path.ends_with('/') || segments.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (index, template) in self.templates.iter().enumerate() {
            let Some((last, prefix)) = template.segments.split_last() else { continue };
            let [Part::Param(name)] = last.as_slice() else { continue };
            if let Some((_, mut params)) = match_segments(prefix, &segments) {
                params.push((name.clone(), String::new()));
                out.push((index, params));
            }
        }
        out
    }

    /// The best match for a path (without its query): the template's index and its
    /// parameters, decoded.
    #[cfg(test)]
    pub(crate) fn at(&self, path: &str) -> Option<(usize, Params)> {
        self.all_at(path).into_iter().next()
    }

    /// Every template that matches a path (without its query), the most specific first (more
    /// literal text matched; the order of the document among equals), each with its index and
    /// its parameters, decoded.
    pub(crate) fn all_at(&self, path: &str) -> Vec<(usize, Params)> {
        let segments: Vec<&str> = split(path).collect();
        let mut found: Vec<(usize, usize, Params)> = self
            .templates
            .iter()
            .enumerate()
            .filter_map(|(index, template)| {
                template.matches(&segments).map(|(score, params)| (score, index, params))
            })
            .collect();
        // A stable sort keeps the document's order among templates of the same score.
        found.sort_by_key(|(score, _, _)| std::cmp::Reverse(*score));
        found.into_iter().map(|(_, index, params)| (index, params)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routes(templates: &[&str]) -> Routes {
        let mut routes = Routes::default();
        for t in templates {
            routes.push(t);
        }
        routes
    }

    #[test]
    fn literal_segments_win_over_parameters() {
        let r = routes(&["/users/{id}", "/users/me", "/users/{id}/posts"]);
        assert_eq!(r.at("/users/me"), Some((1, vec![])));
        assert_eq!(r.at("/users/42"), Some((0, vec![("id".into(), "42".into())])));
        assert_eq!(r.at("/users/42/posts/"), Some((2, vec![("id".into(), "42".into())])));
        assert_eq!(r.at("/users"), None);
        assert_eq!(r.at("/users/42/comments"), None);
    }

    #[test]
    fn templates_that_differ_only_in_parameter_names_both_work() {
        let r = routes(&["/a/{id}", "/a/{name}/b"]);
        assert_eq!(r.at("/a/x"), Some((0, vec![("id".into(), "x".into())])));
        assert_eq!(r.at("/a/x/b"), Some((1, vec![("name".into(), "x".into())])));
    }

    #[test]
    fn parameters_inside_a_segment_and_decoding() {
        let r = routes(&["/files/{name}.{ext}", "/", "/v{major}/things"]);
        assert_eq!(
            r.at("/files/report.final.pdf"),
            Some((0, vec![("name".into(), "report".into()), ("ext".into(), "final.pdf".into())]))
        );
        assert_eq!(r.at("/files/.pdf"), None, "a parameter is never empty");
        assert_eq!(r.at("/"), Some((1, vec![])));
        assert_eq!(r.at("/v2/things"), Some((2, vec![("major".into(), "2".into())])));
        let decoded = routes(&["/tags/{tag}"]).at("/tags/a%20b%2Fc");
        assert_eq!(decoded, Some((0, vec![("tag".into(), "a b/c".into())])));
    }

    #[test]
    fn all_matches_come_most_specific_first() {
        let r = routes(&["/s/{name}", "/s/{idOrName}", "/s/latest", "/s/{a}/b", "/t/{x}"]);
        let name = |n: &str, v: &str| vec![(n.to_owned(), v.to_owned())];
        assert_eq!(r.all_at("/s/abc"), vec![(0, name("name", "abc")), (1, name("idOrName", "abc"))]);
        assert_eq!(
            r.all_at("/s/latest"),
            vec![(2, vec![]), (0, name("name", "latest")), (1, name("idOrName", "latest"))]
        );
        assert_eq!(r.all_at("/s/latest/b"), vec![(3, name("a", "latest"))]);
        assert!(r.all_at("/u").is_empty());
    }

    #[test]
    fn a_trailing_slash_can_end_in_an_empty_parameter() {
        let r = routes(&["/types/{id}", "/types", "/types/{id}/{part}"]);
        let id = |v: &str| vec![("id".to_owned(), v.to_owned())];
        assert_eq!(r.all_at("/types/"), vec![(1, vec![])]);
        assert_eq!(r.empty_last_at("/types/"), vec![(0, id(""))]);
        assert_eq!(
            r.empty_last_at("/types/7/"),
            vec![(2, vec![("id".into(), "7".into()), ("part".into(), String::new())])]
        );
        assert!(r.empty_last_at("/types").is_empty(), "no slash, no empty parameter");
        assert!(routes(&["/{id}"]).empty_last_at("/").is_empty(), "the root is no empty parameter");
    }

    #[test]
    fn broken_braces_read_as_text() {
        let r = routes(&["/odd/{", "/empty/{}"]);
        assert_eq!(r.at("/odd/{"), Some((0, vec![])));
        assert_eq!(r.at("/empty/{}"), Some((1, vec![])));
    }
}
