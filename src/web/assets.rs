//! The page's files, compiled into the binary: nothing is read from disk
//! at run time, so no request can reach a file the page does not own.
//! They are plain HTML, CSS and ES modules, written by hand: the browser
//! runs them as they are, so building widerow needs no Node.js and the
//! code served is the code in the repository.

/// Every asset by path, with its content type.
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_bytes!("assets/index.html"),
    ),
    (
        "/app.css",
        "text/css; charset=utf-8",
        include_bytes!("assets/app.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/app.js"),
    ),
    (
        "/views.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/views.js"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_bytes!("assets/favicon.svg"),
    ),
];

/// The asset at `path` (`/index.html` is `/`), with its content type.
pub fn find(path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, content_type, body)| (*content_type, *body))
}
