//! Accounts: argon2 password hashes, session tokens, and the checks on
//! names and passwords. Passwords are never logged nor stored.
//!
//! Every network client may be hostile, and a password hash costs argon2's
//! 19 MiB and tens of milliseconds: hashes run on a fixed pool of
//! [`Hasher`] threads, each reusing one argon2 memory block, behind a
//! bounded queue (past it: "busy, retry"); log-in and sign-up attempts are
//! limited per user name and per address ([`Limits`]); a log-in for a name
//! nobody has verifies a dummy hash, so that it costs what a known name
//! does.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rand::RngCore;
use serde_json::{Value, json};

use crate::protocol::{MAX_NAME_BYTES, MAX_PASSWORD_BYTES, MIN_PASSWORD_BYTES};
use crate::{Config, Shared};

/// The answer when every hasher is busy and the queue is full.
pub const BUSY: &str = "the server is busy with other log-ins: retry in a few seconds";

/// The answer to a wrong password, or a name nobody has (the same).
pub const WRONG: &str = "wrong user name or password";

/// The most argon2 memory a stored hash may ask for, in 1 KiB blocks
/// (256 MiB); a hash asking more is not verified.
const MAX_BLOCKS: usize = 256 * 1024;

/// Session tokens kept per account (the newest); older ones are dropped as
/// new ones are made.
pub const MAX_TOKENS_PER_ACCOUNT: i64 = 100;

/// Names or addresses whose attempts are remembered at most; past it, those
/// whose limit has refilled are forgotten, and if none has, attempts are
/// refused until one does.
const MAX_REMEMBERED: usize = 100_000;

/// `n` random bytes as hex, from the thread's cryptographic generator (seeded by the system).
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new session token.
pub fn new_token() -> String {
    random_hex(32)
}

/// What the database keeps of a token: its hash, so that a copy of the
/// database does not log anyone in.
pub fn token_hash(token: &str) -> String {
    use blake2::Digest;
    blake2::Blake2b512::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A user name as compared: names differ only in more than their case
/// (`bob` and `BOB` are one name). Names are ASCII ([`check_name`]).
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Makes `blocks` hold at least the memory `params` ask for (kept for the
/// next hash: a hasher allocates it once).
fn blocks_for(blocks: &mut Vec<Block>, params: &Params) -> Result<(), String> {
    let n = params.block_count();
    if n > MAX_BLOCKS {
        return Err(format!("a password hash asks for {n} KiB of memory"));
    }
    if blocks.len() < n {
        blocks.resize(n, Block::new());
    }
    Ok(())
}

/// The password's argon2id hash (PHC string, with a new random salt, the
/// argon2 crate's default costs), computed in `blocks`.
pub fn hash_with(password: &str, blocks: &mut Vec<Block>) -> Result<String, String> {
    let params = Params::default();
    blocks_for(blocks, &params)?;
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone())
        .hash_password_into_with_memory(password.as_bytes(), &salt, &mut out, &mut blocks[..])
        .map_err(|e| e.to_string())?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| e.to_string())?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches the stored argon2 hash `phc` (any argon2
/// variant, version and costs), computed in `blocks`; the comparison takes
/// the same time wherever the outputs differ.
pub fn verify_with(password: &str, phc: &str, blocks: &mut Vec<Block>) -> bool {
    let Ok(h) = PasswordHash::new(phc) else {
        return false;
    };
    let (Ok(algorithm), Some(salt), Some(expected)) =
        (Algorithm::try_from(h.algorithm), h.salt, h.hash)
    else {
        return false;
    };
    let Ok(version) = h.version.map(Version::try_from).transpose() else {
        return false;
    };
    let Ok(params) = Params::try_from(&h) else {
        return false;
    };
    if blocks_for(blocks, &params).is_err() {
        return false;
    }
    let mut salt_bytes = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    Argon2::new(algorithm, version.unwrap_or_default(), params)
        .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, &mut blocks[..])
        .is_ok()
        && Output::new(&out).is_ok_and(|o| o == expected)
}

/// What the hashers did since the server started (for tests and operators).
#[derive(Debug, Default)]
pub struct HashStats {
    /// Hashes being computed now.
    pub in_flight: AtomicUsize,
    /// The most ever computed at once.
    pub peak: AtomicUsize,
    /// Passwords hashed (sign-ups).
    pub hashes: AtomicU64,
    /// Passwords verified (log-ins, a name nobody has included).
    pub verifications: AtomicU64,
    /// Log-ins and sign-ups refused because the queue was full.
    pub busy: AtomicU64,
}

enum Job {
    Hash {
        password: String,
        reply: tokio::sync::oneshot::Sender<Result<String, String>>,
    },
    Verify {
        password: String,
        hash: String,
        reply: tokio::sync::oneshot::Sender<bool>,
    },
}

/// A fixed pool of password hashing threads behind a bounded queue. Each
/// thread allocates argon2's memory once and reuses it, so that a flood of
/// log-ins costs neither threads nor memory beyond the pool's.
pub struct Hasher {
    queue: SyncSender<Job>,
    /// The hash a log-in for a name nobody has is checked against.
    dummy: String,
    pub stats: Arc<HashStats>,
}

impl Hasher {
    /// `workers` threads (at least one) and `queue` requests waiting for
    /// them at most.
    pub fn new(workers: usize, queue: usize) -> Result<Hasher, String> {
        let (tx, rx) = std::sync::mpsc::sync_channel(queue);
        let rx = Arc::new(Mutex::new(rx));
        let stats = Arc::new(HashStats::default());
        let mut first = Vec::new();
        let dummy = hash_with(&random_hex(16), &mut first)?;
        for i in 0..workers.max(1) {
            let blocks = std::mem::take(&mut first);
            let (rx, stats) = (rx.clone(), stats.clone());
            std::thread::Builder::new()
                .name(format!("hasher {i}"))
                .spawn(move || work(&rx, &stats, blocks))
                .map_err(|e| format!("cannot start a password hasher: {e}"))?;
        }
        Ok(Hasher {
            queue: tx,
            dummy,
            stats,
        })
    }

    fn submit(&self, job: Job) -> Result<(), String> {
        match self.queue.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => {
                self.stats.busy.fetch_add(1, Ordering::SeqCst);
                Err(BUSY.into())
            }
            Err(TrySendError::Disconnected(_)) => Err("the password hasher stopped".into()),
        }
    }

    /// The password's hash (see [`hash_with`]), or [`BUSY`].
    pub async fn hash(&self, password: String) -> Result<String, String> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.submit(Job::Hash { password, reply })?;
        answer
            .await
            .map_err(|_| "the password hasher stopped".to_string())?
    }

    /// Whether `password` matches `hash`; with no hash (a name nobody has),
    /// a dummy one is verified, the same work, and the answer is false.
    pub async fn verify(&self, password: String, hash: Option<String>) -> Result<bool, String> {
        let known = hash.is_some();
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.submit(Job::Verify {
            password,
            hash: hash.unwrap_or_else(|| self.dummy.clone()),
            reply,
        })?;
        let ok = answer
            .await
            .map_err(|_| "the password hasher stopped".to_string())?;
        Ok(ok && known)
    }
}

/// A hasher thread: jobs until the [`Hasher`] is dropped.
fn work(rx: &Mutex<Receiver<Job>>, stats: &HashStats, mut blocks: Vec<Block>) {
    loop {
        let job = match rx.lock().unwrap_or_else(|e| e.into_inner()).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        let now = stats.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        stats.peak.fetch_max(now, Ordering::SeqCst);
        match job {
            Job::Hash { password, reply } => {
                stats.hashes.fetch_add(1, Ordering::SeqCst);
                let hash = hash_with(&password, &mut blocks);
                stats.in_flight.fetch_sub(1, Ordering::SeqCst);
                let _ = reply.send(hash);
            }
            Job::Verify {
                password,
                hash,
                reply,
            } => {
                stats.verifications.fetch_add(1, Ordering::SeqCst);
                let ok = verify_with(&password, &hash, &mut blocks);
                stats.in_flight.fetch_sub(1, Ordering::SeqCst);
                let _ = reply.send(ok);
            }
        }
    }
}

/// A refilling allowance: `capacity` attempts, refilled at `capacity` per
/// window.
#[derive(Debug)]
struct Allowance {
    left: f64,
    at: Instant,
}

impl Allowance {
    fn level(&self, now: Instant, capacity: f64, per_sec: f64) -> f64 {
        (self.left + now.saturating_duration_since(self.at).as_secs_f64() * per_sec).min(capacity)
    }
}

/// Takes one attempt of `key`'s allowance; when none is left, how long
/// until one is. A capacity of 0 is no limit.
fn take<K: std::hash::Hash + Eq + Clone>(
    map: &Mutex<HashMap<K, Allowance>>,
    key: &K,
    capacity: u32,
    window: Duration,
    now: Instant,
) -> Result<(), Duration> {
    if capacity == 0 {
        return Ok(());
    }
    let capacity = f64::from(capacity);
    let per_sec = capacity / window.as_secs_f64().max(0.001);
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= MAX_REMEMBERED && !map.contains_key(key) {
        map.retain(|_, a| a.level(now, capacity, per_sec) < capacity);
        if map.len() >= MAX_REMEMBERED {
            return Err(window);
        }
    }
    let a = map.entry(key.clone()).or_insert(Allowance {
        left: capacity,
        at: now,
    });
    a.left = a.level(now, capacity, per_sec);
    a.at = now;
    if a.left >= 1.0 {
        a.left -= 1.0;
        Ok(())
    } else {
        Err(Duration::from_secs_f64((1.0 - a.left) / per_sec))
    }
}

/// The address attempts are counted by: an IPv4 address, or an IPv6
/// address's /64 network (what one host is usually given).
fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// Wrong passwords given for one user name, on this instance: past
/// [`crate::Config::login_failures`] in a row, log-ins for the name wait, so
/// that guessing a password from many connections is slow.
#[derive(Debug, Default)]
struct Failures {
    in_a_row: u32,
    until: Option<Instant>,
}

/// The accounts' side of an instance: its password hashers and the limits
/// on log-in and sign-up attempts.
pub struct Accounts {
    pub hasher: Hasher,
    by_name: Mutex<HashMap<String, Allowance>>,
    by_address: Mutex<HashMap<IpAddr, Allowance>>,
    failed: Mutex<HashMap<String, Failures>>,
    /// How many times each account (that ever did) signed out everywhere
    /// on this instance: its connections logged in before are logged out.
    signed_out: Mutex<HashMap<String, u64>>,
}

fn seconds(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

impl Accounts {
    pub fn new(config: &Config) -> Result<Accounts, String> {
        Ok(Accounts {
            hasher: Hasher::new(config.hash_workers, config.hash_queue)?,
            by_name: Mutex::new(HashMap::new()),
            by_address: Mutex::new(HashMap::new()),
            failed: Mutex::new(HashMap::new()),
            signed_out: Mutex::new(HashMap::new()),
        })
    }

    /// Counts an attempt (log-in or sign-up) for the name `key` from
    /// `from`; refused past the limits, saying when to retry.
    fn attempt(&self, config: &Config, from: IpAddr, key: &str) -> Result<(), String> {
        let now = config.clock.now();
        let window = config.login_attempt_window;
        take(
            &self.by_address,
            &address_key(from),
            config.login_attempts_per_address,
            window,
            now,
        )
        .map_err(|wait| {
            format!(
                "too many log-in attempts from your address: retry in {} s",
                seconds(wait)
            )
        })?;
        take(
            &self.by_name,
            &key.to_string(),
            config.login_attempts_per_name,
            window,
            now,
        )
        .map_err(|wait| {
            format!(
                "too many log-in attempts for this name: retry in {} s",
                seconds(wait)
            )
        })
    }

    /// Refuses a log-in for `key` while its wrong passwords make it wait
    /// (the same for a name nobody has: the answer tells nothing).
    fn may_try(&self, config: &Config, key: &str) -> Result<(), String> {
        let failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        let now = config.clock.now();
        match failed.get(key).and_then(|f| f.until) {
            Some(until) if until > now => Err(format!(
                "too many wrong passwords for this name: try again in {} s",
                until.duration_since(now).as_secs() + 1
            )),
            _ => Ok(()),
        }
    }

    /// Counts a wrong password for `key`; past the limit, its log-ins wait,
    /// twice as long at each further one.
    fn failed(&self, config: &Config, key: &str) {
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if failed.len() >= MAX_REMEMBERED {
            let now = config.clock.now();
            failed.retain(|_, f| f.until.is_some_and(|u| u > now));
        }
        let f = failed.entry(key.to_string()).or_default();
        f.in_a_row += 1;
        if f.in_a_row >= config.login_failures {
            let doublings = (f.in_a_row - config.login_failures).min(12);
            let wait = (config.login_wait * 2u32.pow(doublings)).min(Duration::from_secs(3600));
            f.until = Some(config.clock.now() + wait);
        }
    }

    /// How many times `user` signed out everywhere on this instance: a
    /// connection that logged in at another count is signed out.
    pub fn sessions_of(&self, user: &str) -> u64 {
        self.signed_out
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(user)
            .copied()
            .unwrap_or(0)
    }

    fn succeeded(&self, key: &str) {
        self.failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key);
    }
}

/// A sign-up: the new account's name, or why not.
pub(crate) async fn sign_up(
    shared: &Shared,
    from: IpAddr,
    user: &str,
    password: String,
) -> Result<String, String> {
    check_name(user)?;
    check_password(&password)?;
    let db = &shared.db;
    let taken = || format!("the name {user:?} is taken");
    // Names are public (the lobby shows them): a taken one costs no hash.
    if db
        .user_login(user)
        .await
        .map_err(|e| e.to_string())?
        .is_some()
    {
        return Err(taken());
    }
    shared
        .accounts
        .attempt(&shared.config, from, &name_key(user))?;
    let hash = shared.accounts.hasher.hash(password).await?;
    if !db.add_user(user, &hash).await.map_err(|e| e.to_string())? {
        return Err(taken());
    }
    Ok(user.to_string())
}

/// A log-in: the account's name (as it signed up, whatever the case given),
/// or why not. A name nobody has costs the same work as a known one and
/// gets the same answer as a wrong password.
pub(crate) async fn log_in(
    shared: &Shared,
    from: IpAddr,
    user: &str,
    password: String,
) -> Result<String, String> {
    if check_name(user).is_err() {
        // Nobody has such a name, as everyone knows: nothing to hide.
        return Err(WRONG.into());
    }
    let accounts = &shared.accounts;
    let key = name_key(user);
    accounts.may_try(&shared.config, &key)?;
    accounts.attempt(&shared.config, from, &key)?;
    let stored = shared
        .db
        .user_login(user)
        .await
        .map_err(|e| e.to_string())?;
    let (name, hash) = match stored {
        Some((name, hash)) => (Some(name), Some(hash)),
        None => (None, None),
    };
    let ok = accounts.hasher.verify(password, hash).await?;
    match name {
        Some(name) if ok => {
            accounts.succeeded(&key);
            Ok(name)
        }
        _ => {
            accounts.failed(&shared.config, &key);
            Err(WRONG.into())
        }
    }
}

/// A new session token for `user`, stored (hashed).
pub(crate) async fn new_session(shared: &Shared, user: &str) -> Result<String, String> {
    let token = new_token();
    shared
        .db
        .add_token(
            &token,
            user,
            shared.config.clock.unix_ms(),
            MAX_TOKENS_PER_ACCOUNT,
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(token)
}

/// The account a session token logs in, unless it is unknown, revoked or
/// older than [`Config::token_lifetime`].
pub(crate) async fn token_user(shared: &Shared, token: &str) -> Result<String, String> {
    let lifetime = i64::try_from(shared.config.token_lifetime.as_millis()).unwrap_or(i64::MAX);
    let since = shared.config.clock.unix_ms().saturating_sub(lifetime);
    shared
        .db
        .token_user(token, since)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| {
            "the token is not valid (unknown, expired or signed out): log in again".into()
        })
}

/// Signs `user` out everywhere: every token of the account is revoked, its
/// other connections to this instance are logged out (those to other
/// instances cannot log in again with their token); the connection that
/// asked stays logged in, with a new token.
pub(crate) async fn sign_out_everywhere(shared: &Shared, user: &str) -> Result<Value, String> {
    let revoked = shared
        .db
        .revoke_tokens(user)
        .await
        .map_err(|e| e.to_string())?;
    *shared
        .accounts
        .signed_out
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(user.to_string())
        .or_default() += 1;
    let token = new_session(shared, user).await?;
    Ok(json!({ "user": user, "revoked": revoked, "token": token }))
}

/// A user name: 1 to 32 letters, digits, `_`, `-` or `.` (no spaces, so
/// that no user is named like a computer seat).
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_NAME_BYTES {
        return Err(format!("a user name is 1 to {MAX_NAME_BYTES} bytes long"));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
    {
        return Err("a user name holds only letters, digits, '_', '-' and '.'".into());
    }
    Ok(())
}

pub fn check_password(password: &str) -> Result<(), String> {
    if password.len() < MIN_PASSWORD_BYTES || password.len() > MAX_PASSWORD_BYTES {
        return Err(format!(
            "a password is {MIN_PASSWORD_BYTES} to {MAX_PASSWORD_BYTES} bytes long"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_differ() {
        let mut blocks = Vec::new();
        let a = hash_with("secret1", &mut blocks).unwrap();
        let b = hash_with("secret1", &mut blocks).unwrap();
        assert_ne!(a, b, "salted");
        assert!(!a.contains("secret1"));
        assert!(verify_with("secret1", &a, &mut blocks));
        assert!(!verify_with("secret2", &a, &mut blocks));
        assert!(!verify_with("secret1", "not a hash", &mut blocks));
        assert_eq!(
            blocks.len(),
            Params::default().block_count(),
            "one block, reused"
        );
    }

    /// The pool's hashes are the argon2 crate's own: each verifies the
    /// other's (stored hashes from before the pool still log in).
    #[test]
    fn pooled_hashes_are_standard_argon2() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let mut blocks = Vec::new();
        let ours = hash_with("secret1", &mut blocks).unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"secret1", &parsed)
                .is_ok()
        );
        assert!(
            Argon2::default()
                .verify_password(b"secret2", &parsed)
                .is_err()
        );
        let salt = SaltString::encode_b64(b"0123456789abcdef").unwrap();
        let theirs = Argon2::default()
            .hash_password(b"secret1", &salt)
            .unwrap()
            .to_string();
        assert!(verify_with("secret1", &theirs, &mut blocks));
        assert!(!verify_with("secret2", &theirs, &mut blocks));
        // Other costs and variants verify too (the block grows to fit).
        let argon2i = Argon2::new(
            Algorithm::Argon2i,
            Version::V0x10,
            Params::new(32 * 1024, 1, 1, None).unwrap(),
        )
        .hash_password(b"secret1", &salt)
        .unwrap()
        .to_string();
        assert!(verify_with("secret1", &argon2i, &mut blocks));
        assert!(!verify_with("secret2", &argon2i, &mut blocks));
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("ann_1").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name("Computer 2").is_err());
        assert!(check_name(&"x".repeat(33)).is_err());
        assert!(check_password("12345").is_err());
        let t = new_token();
        assert_eq!(t.len(), 64);
        assert_eq!(token_hash(&t), token_hash(&t));
        assert_ne!(token_hash(&t), t);
    }
}
