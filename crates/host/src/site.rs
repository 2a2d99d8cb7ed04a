//! A published site's files: the request path mapped inside the site's folder (no way out of
//! it), `index.html` for a folder, the content type from the extension.

use std::path::{Component, Path, PathBuf};

use axum::http::header::{CONTENT_TYPE, VARY, X_CONTENT_TYPE_OPTIONS};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;

/// Largest file served (64 MiB): a site's files are read whole.
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// A short plain-text answer.
pub(crate) fn text(status: StatusCode, body: &'static str) -> Response {
    (status, [(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"))], body).into_response()
}

/// The file of a published site at the request path `path`, or its Markdown twin when the
/// request's `accept` asks for Markdown first and the site has one (see
/// `playground_site::twin`); either answer then says it varies with `Accept`.
pub(crate) async fn serve_page(site: &Path, method: &Method, path: &str, accept: Option<&str>) -> Response {
    let markdown = accept.is_some_and(playground_site::twin::prefers_markdown);
    if markdown {
        let twin = playground_site::twin::markdown_path(path);
        let response = serve(site, method, &twin).await;
        if response.status() == StatusCode::OK {
            return vary_accept(response);
        }
    }
    let response = serve(site, method, path).await;
    let html = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if html { vary_accept(response) } else { response }
}

/// `response` marked as chosen by the request's `Accept`, so a cache keeps a page and its
/// Markdown twin apart.
fn vary_accept(mut response: Response) -> Response {
    response.headers_mut().insert(VARY, HeaderValue::from_static("accept"));
    response
}

/// The file of `site` at the request path `path` (GET and HEAD only).
pub(crate) async fn serve(site: &Path, method: &Method, path: &str) -> Response {
    if method != Method::GET && method != Method::HEAD {
        let mut response = text(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed.\n");
        response.headers_mut().insert("allow", HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let Some(relative) = relative_path(path) else {
        return text(StatusCode::NOT_FOUND, "Not found.\n");
    };
    let Ok(root) = tokio::fs::canonicalize(site).await else {
        return text(StatusCode::NOT_FOUND, "This site is not published yet.\n");
    };
    let real = match find(&root, &relative).await {
        Some(real) => real,
        None => match from_an_earlier_build(site, &root, &relative).await {
            Some(real) => real,
            None => return text(StatusCode::NOT_FOUND, "Not found.\n"),
        },
    };
    let Ok(bytes) = tokio::fs::read(&real).await else {
        return text(StatusCode::NOT_FOUND, "Not found.\n");
    };
    let mut response = if method == Method::HEAD {
        let mut r = StatusCode::OK.into_response();
        r.headers_mut().insert("content-length", HeaderValue::from(bytes.len()));
        r
    } else {
        bytes.into_response()
    };
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(content_type(&real)));
    response.headers_mut().insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// The file at `relative` in the site whose real folder is `root` (a folder's `index.html`), if
/// it is a file there of at most [`MAX_FILE_BYTES`].
async fn find(root: &Path, relative: &Path) -> Option<PathBuf> {
    let mut file = root.join(relative);
    if tokio::fs::metadata(&file).await.is_ok_and(|m| m.is_dir()) {
        file = file.join("index.html");
    }
    // Symbolic links may not lead out of the site either.
    let real = tokio::fs::canonicalize(&file).await.ok()?;
    if !real.starts_with(root) {
        return None;
    }
    match tokio::fs::metadata(&real).await {
        Ok(m) if m.is_file() && m.len() <= MAX_FILE_BYTES => Some(real),
        _ => None,
    }
}

/// Most earlier builds looked in for a file the current one lacks.
const EARLIER_BUILDS: usize = 4;

/// A file the current build lacks, from an earlier build kept beside it, newest first, when the
/// site is a link switched by `playground build --switch` (to `.NAME.builds/ID`): a page loaded
/// before a switch still gets the scripts, styles and images it names (their names change with
/// their content). Never a page (HTML or Markdown): a page the new build removed is gone.
async fn from_an_earlier_build(site: &Path, root: &Path, relative: &Path) -> Option<PathBuf> {
    let is_page = |path: &Path| {
        path.extension().is_none_or(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("md"))
    };
    if is_page(relative) || !tokio::fs::symlink_metadata(site).await.ok()?.file_type().is_symlink() {
        return None;
    }
    let builds = root.parent()?;
    let folder = builds.file_name()?.to_str()?;
    if !(folder.starts_with('.') && folder.ends_with(".builds")) {
        return None;
    }
    let mut earlier = Vec::new();
    let mut entries = tokio::fs::read_dir(builds).await.ok()?;
    while let Ok(Some(entry)) = entries.next_entry().await {
        let path = entry.path();
        if path != root && !entry.file_name().to_string_lossy().starts_with('.') {
            earlier.push(path);
        }
    }
    earlier.sort_unstable_by(|a, b| b.cmp(a));
    for build in earlier.into_iter().take(EARLIER_BUILDS) {
        if let Some(real) = find(&build, relative).await.filter(|real| !is_page(real)) {
            return Some(real);
        }
    }
    None
}

/// The request path as a relative path of plain names: percent-decoded, `.` dropped; `None`
/// for `..`, a NUL, a backslash or anything that is not valid UTF-8.
pub(crate) fn relative_path(path: &str) -> Option<PathBuf> {
    let decoded = percent_decode_str(path).decode_utf8().ok()?;
    if decoded.contains(['\0', '\\']) {
        return None;
    }
    let mut out = PathBuf::new();
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            name => {
                let mut components = Path::new(name).components();
                match (components.next(), components.next()) {
                    (Some(Component::Normal(n)), None) => out.push(n),
                    _ => return None,
                }
            }
        }
    }
    Some(out)
}

fn content_type(path: &Path) -> &'static str {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "md" => "text/markdown; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "yaml" | "yml" => "application/yaml",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "pdf" => "application/pdf",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside() {
        assert_eq!(relative_path("/"), Some(PathBuf::new()));
        assert_eq!(relative_path("/a/./b%20c.html"), Some(PathBuf::from("a/b c.html")));
        for bad in ["/../etc/passwd", "/a/%2e%2e/b", "/a%00", "/a%5c..%5cb", "/%ff"] {
            assert_eq!(relative_path(bad), None, "{bad}");
        }
        assert_eq!(content_type(Path::new("x/app.WASM")), "application/wasm");
    }
}
