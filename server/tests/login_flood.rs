//! A flood of simultaneous log-ins (on loopback, no account needed to try:
//! names are public): the server hashes at most its pool's worth of
//! passwords at once, answers each log-in with success or "busy, retry",
//! and its memory stays bounded. Alone in its test binary, so that the
//! process's peak memory is this test's.

mod common;

use std::sync::atomic::Ordering;
use std::sync::{Arc, Barrier};

use common::*;
use titan_server::client::Client;
use titan_server::protocol::Request;

/// A line of /proc/self/status, in KiB.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}

const CLIENTS: usize = 100;
const WORKERS: usize = 2;

#[test]
fn a_hundred_simultaneous_log_ins_hash_two_at_a_time_in_bounded_memory() {
    let (_dir, db) = sqlite();
    let mut config = config(&db);
    config.hash_workers = WORKERS;
    config.hash_queue = 16;
    let server = TestServer::start(config);
    let names: Vec<String> = (0..5).map(|i| unique(&format!("u{i}-"))).collect();
    for name in &names {
        Client::connect(&server.addr)
            .unwrap()
            .sign_in(name, "the-password")
            .unwrap();
    }
    let stats = server
        .server
        .as_ref()
        .unwrap()
        .shared
        .accounts
        .hasher
        .stats
        .clone();
    let before = status_kib("VmHWM:");
    let barrier = Arc::new(Barrier::new(CLIENTS));
    let threads: Vec<_> = (0..CLIENTS)
        .map(|i| {
            let (addr, barrier) = (server.addr.clone(), barrier.clone());
            let user = names[i % names.len()].clone();
            std::thread::spawn(move || {
                // Every thread reaches the barrier, its connection refused
                // or not: one that panicked first would leave the others
                // waiting for good.
                let c = Client::connect(&addr);
                barrier.wait();
                c?.request(&Request::Login {
                    user,
                    password: "the-password".into(),
                })
            })
        })
        .collect();
    let answers: Vec<Result<serde_json::Value, String>> =
        threads.into_iter().map(|t| t.join().unwrap()).collect();
    let after = status_kib("VmHWM:");
    let ok = answers.iter().filter(|a| a.is_ok()).count();
    let busy = answers
        .iter()
        .filter(|a| {
            a.as_ref()
                .is_err_and(|e| e.contains("busy") && e.contains("retry"))
        })
        .count();
    let others: Vec<_> = answers
        .iter()
        .filter_map(|a| a.as_ref().err())
        .filter(|e| !e.contains("busy"))
        .collect();
    let peak = stats.peak.load(Ordering::SeqCst);
    eprintln!(
        "{ok} log-ins, {busy} busy, at most {peak} hashes at once, peak memory {before} -> {after} KiB"
    );
    assert!(others.is_empty(), "only success or busy: {others:?}");
    assert_eq!(ok + busy, CLIENTS);
    assert!(ok >= WORKERS, "some log-ins got through: {ok}");
    assert!(busy > 0, "a flood past the queue is refused as busy");
    assert!(
        (1..=WORKERS).contains(&peak),
        "hashes at once: {peak}, the pool has {WORKERS}"
    );
    assert_eq!(stats.busy.load(Ordering::SeqCst), busy as u64);
    // One argon2 block is 19 MiB: a hash per log-in at once would take
    // GiBs. The hashers' blocks were allocated before (the sign-ups); what
    // remains is the connections'.
    let grew_mib = after.saturating_sub(before) / 1024;
    assert!(
        grew_mib < 150,
        "peak memory grew by {grew_mib} MiB under {CLIENTS} log-ins ({before} KiB before, {after} KiB after)"
    );
    // No thread per log-in: the pool's threads are the hashers.
    let hashers = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
        .filter(|name| name.starts_with("hasher"))
        .count();
    assert_eq!(hashers, WORKERS, "hasher threads");
    // The refused retry and get in.
    for name in &names {
        Client::connect(&server.addr)
            .unwrap()
            .sign_in(name, "the-password")
            .unwrap();
    }
    server.stop();
}
