//! The examples of docs/protocol.md are run: each ```session block is a
//! fresh `titan engine` in an empty folder (holding the doc's ```ron file=NAME
//! blocks); each `> request` must be answered by the `< response` after it,
//! compared as JSON values.

mod common;

use std::path::Path;

use serde_json::Value;

/// A session of the doc: its line in the doc, and (request, response) pairs.
struct Session {
    line: usize,
    exchanges: Vec<(String, String)>,
}

struct Doc {
    files: Vec<(String, String)>,
    sessions: Vec<Session>,
}

fn parse(text: &str) -> Doc {
    let mut doc = Doc {
        files: Vec::new(),
        sessions: Vec::new(),
    };
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        if let Some(name) = line.strip_prefix("```ron file=") {
            let body: Vec<&str> = lines
                .by_ref()
                .map(|(_, l)| l)
                .take_while(|l| *l != "```")
                .collect();
            doc.files.push((name.to_string(), body.join("\n") + "\n"));
        } else if line == "```session" {
            let mut session = Session {
                line: n + 1,
                exchanges: Vec::new(),
            };
            let mut request: Option<String> = None;
            for (m, l) in lines.by_ref() {
                if l == "```" {
                    break;
                }
                if let Some(r) = l.strip_prefix("> ") {
                    assert!(request.is_none(), "line {}: a request with no response", m);
                    request = Some(r.to_string());
                } else if let Some(r) = l.strip_prefix("< ") {
                    let q = request
                        .take()
                        .unwrap_or_else(|| panic!("line {}: a response to no request", m + 1));
                    session.exchanges.push((q, r.to_string()));
                } else {
                    assert!(l.trim().is_empty(), "line {}: {l:?} in a session", m + 1);
                }
            }
            assert!(
                request.is_none(),
                "line {}: the last request has no response",
                n + 1
            );
            doc.sessions.push(session);
        }
    }
    doc
}

/// Runs the requests in a fresh engine in `dir`, returning its output lines.
fn run(dir: &Path, requests: &[&str]) -> Vec<String> {
    common::engine_session(dir, Some(dir), requests)
}

#[test]
fn every_example_of_the_protocol_doc_runs() {
    let text = std::fs::read_to_string(common::root().join("docs/protocol.md")).unwrap();
    let doc = parse(&text);
    assert!(doc.sessions.len() >= 10, "{} sessions", doc.sessions.len());
    let mut exchanges = 0;
    for session in &doc.sessions {
        // A fresh folder per session: saves and files do not leak between.
        let dir = tempfile::tempdir().unwrap();
        // The bundled variants only: a user's own under variants/ would
        // change the `variants` answer.
        common::copy_bundled_into(dir.path());
        for (name, body) in &doc.files {
            std::fs::write(dir.path().join(name), body).unwrap();
        }
        let requests: Vec<&str> = session.exchanges.iter().map(|(q, _)| q.as_str()).collect();
        let answers = run(dir.path(), &requests);
        assert_eq!(
            answers.len(),
            requests.len(),
            "session at line {}: one answer per request",
            session.line
        );
        for ((request, expected), got) in session.exchanges.iter().zip(&answers) {
            let want: Value = serde_json::from_str(expected).unwrap_or_else(|e| {
                panic!(
                    "session at line {}: the doc's response is no JSON: {e}",
                    session.line
                )
            });
            let got: Value = serde_json::from_str(got).unwrap();
            assert_eq!(
                got, want,
                "session at line {}: > {request}\nthe engine answers:\n< {got}",
                session.line
            );
            exchanges += 1;
        }
    }
    eprintln!("{} sessions, {exchanges} exchanges", doc.sessions.len());
}

/// Every command the engine knows has its section and an example.
#[test]
fn every_command_is_documented_with_an_example() {
    let text = std::fs::read_to_string(common::root().join("docs/protocol.md")).unwrap();
    let doc = parse(&text);
    let used: Vec<String> = doc
        .sessions
        .iter()
        .flat_map(|s| &s.exchanges)
        .filter_map(|(q, _)| serde_json::from_str::<Value>(q).ok())
        .filter_map(|q| q["cmd"].as_str().map(String::from))
        .collect();
    for cmd in [
        "variants",
        "new_game",
        "load_position",
        "save",
        "load",
        "view",
        "legal_actions",
        "apply",
        "to_act",
        "battle",
        "moves",
        "recruits",
        "strike",
        "los",
        "reach",
    ] {
        let quoted = format!("`{cmd}`");
        assert!(
            text.lines()
                .any(|l| l.starts_with("### ") && l.contains(&quoted)),
            "no section for {cmd}"
        );
        assert!(used.iter().any(|u| u == cmd), "no example of {cmd}");
    }
    // The engine's own list (from an unknown command's error) is the same.
    let answer = run(Path::new(&common::root()), &[r#"{"cmd": "?"}"#]);
    let message: Value = serde_json::from_str(&answer[0]).unwrap();
    let message = message["error"]["message"].as_str().unwrap().to_string();
    let known = message.matches('`').count() / 2 - 1;
    assert_eq!(known, 15, "{message}");
}
