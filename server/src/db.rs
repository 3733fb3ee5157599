//! The server's storage: accounts, games (start and action log), seats, chat
//! and leases, in SQLite or PostgreSQL through `sqlx::any`.
//!
//! Queries are written once for both: `$1, $2, ...` placeholders numbered in
//! the order they first appear (SQLite binds them by that order), portable
//! types only, ids made by the server.

use serde::{Deserialize, Serialize};
use sqlx::AnyPool;
use sqlx::Row;
use sqlx::any::AnyPoolOptions;

/// What a storage call failed with.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

pub type DbResult<T> = Result<T, DbError>;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A connection pool to the database, and the writers that store the
/// games' actions (see [`Db::store_action`]).
#[derive(Clone)]
pub struct Db {
    pool: AnyPool,
    writes: tokio::sync::mpsc::Sender<Job>,
}

/// A game as stored (without its log).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub version: String,
    /// The options as JSON.
    pub options: String,
    pub seed: u64,
    pub creator: String,
    pub status: String,
    pub timeout_secs: i64,
    /// Player names, JSON, once the game has started.
    pub players: String,
    /// Names of the seats with a decision to make, comma-separated.
    pub to_act: String,
    /// When the game was created (ms since the Unix epoch; set by
    /// [`Db::add_game`]).
    pub created: i64,
}

/// One seat of a game.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SeatRow {
    pub seat: u8,
    /// "human" or "computer".
    pub kind: String,
    pub level: String,
    pub user: Option<String>,
    pub last_seen: i64,
}

pub const OPEN: &str = "open";
pub const RUNNING: &str = "running";
pub const SUSPENDED: &str = "suspended";
pub const OVER: &str = "over";

mod write;
pub use write::NewAction;
use write::{Job, WRITE_QUEUE, Write, progress_query, write_loop};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The URL the server connects with for the database `given`: a SQLite
/// URL without a `mode` (`sqlite:///path/new.sqlite`, the form sqlx's
/// documentation shows) gets `mode=rwc`, so that a new file is made as the
/// default database is (SQLite itself opens only an existing file unless
/// told so); a plain path (no `scheme://`) is that SQLite file, made if
/// new. A URL naming another `mode` (`ro`, `memory`), an in-memory SQLite
/// database and any other scheme (`postgres://...`) are kept as given.
pub fn database_url(given: &str) -> String {
    if let Some(rest) = given.strip_prefix("sqlite:") {
        let (database, params) = match rest.split_once('?') {
            Some((d, p)) => (d, Some(p)),
            None => (rest, None),
        };
        let has_mode = params.is_some_and(|p| p.split('&').any(|kv| kv.starts_with("mode=")));
        let memory = database.trim_start_matches("//") == ":memory:";
        if has_mode || memory {
            return given.to_string();
        }
        let sep = match params {
            None => "?",
            Some("") => "",
            Some(_) => "&",
        };
        return format!("{given}{sep}mode=rwc");
    }
    if given.contains("://") {
        return given.to_string();
    }
    // A plain path: absolute (a relative first segment would be read as a
    // URL's host), each byte outside a path's plain characters escaped
    // (SQLite decodes them; `?` and `#` would end the path).
    let path = std::path::Path::new(given);
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut url = String::from("sqlite://");
    for b in absolute.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url.push_str("?mode=rwc");
    url
}

/// How long connecting to the database at start may take.
const CONNECT_WAIT: std::time::Duration = std::time::Duration::from_secs(10);
/// How long a request waits for a database connection before it fails.
const ACQUIRE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

impl Db {
    /// Closes the pool: every later query fails as with a database that
    /// cannot be reached (the outage tests).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Whether the database answers, within `wait` (`/health`).
    pub async fn ping(&self, wait: std::time::Duration) -> Result<(), String> {
        match tokio::time::timeout(wait, sqlx::query("SELECT 1").execute(&self.pool)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer in {} ms", wait.as_millis())),
        }
    }

    /// Connects (creating a SQLite file if needed: see [`database_url`])
    /// and brings the schema up to date.
    pub async fn connect(url: &str) -> DbResult<Db> {
        sqlx::any::install_default_drivers();
        let url = &database_url(url);
        let sqlite = url.starts_with("sqlite:");
        // One connection first, so that a database that cannot be reached
        // says why at once ("connection refused"), rather than the pool's
        // "timed out" after its wait.
        {
            use sqlx::Connection;
            let conn = tokio::time::timeout(CONNECT_WAIT, sqlx::AnyConnection::connect(url))
                .await
                .map_err(|_| {
                    sqlx::Error::Io(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        format!("no answer in {} s", CONNECT_WAIT.as_secs()),
                    ))
                })??;
            conn.close().await?;
        }
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 8 })
            // A request fails with a clear error while the database is
            // down, rather than hanging for the default half minute.
            .acquire_timeout(ACQUIRE_WAIT)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // Writers wait for each other rather than fail.
                        sqlx::query("PRAGMA busy_timeout = 10000")
                            .execute(&mut *conn)
                            .await?;
                        // With WAL, a commit survives the process being
                        // killed; only a power loss may take the last ones.
                        sqlx::query("PRAGMA synchronous = NORMAL")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA foreign_keys = ON")
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await?;
        if sqlite {
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await?;
        }
        MIGRATOR.run(&pool).await?;
        // SQLite has one writer at a time: one writer task, so that writes
        // never wait on each other's locks. PostgreSQL commits several at
        // once (each a flush of its log): two, sharing one queue, so that a
        // write waits only while both are busy (rather than behind the
        // batch of its own writer while another is idle), and a write that
        // arrives during a commit goes out at once on the other connection.
        // More writers make smaller batches: more commits, each a flush and
        // CPU that PostgreSQL's processes take from the server's cores
        // (docs/online.md, "Throughput").
        let writers = if sqlite { 1 } else { 2 };
        let (writes, rx) = tokio::sync::mpsc::channel(WRITE_QUEUE * writers);
        let rx = std::sync::Arc::new(tokio::sync::Mutex::new(rx));
        for _ in 0..writers {
            tokio::spawn(write_loop(pool.clone(), rx.clone(), !sqlite));
        }
        Ok(Db { pool, writes })
    }

    /// Queues a write for the writers and waits for its commit.
    async fn write(&self, write: Write) -> Result<bool, String> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.writes
            .send((write, reply))
            .await
            .map_err(|_| "database: the writer has stopped".to_string())?;
        answer
            .await
            .map_err(|_| "database: the writer has stopped".to_string())?
    }

    /// Stores an action at its index of its game's log, with the game's
    /// progress; false if it was not stored: another writer stored an
    /// action at that index first, the game is no longer running, or the
    /// person no longer holds the seat. Returns once committed: writes
    /// waiting together (from many games) are committed in one
    /// transaction, each answered after that commit.
    pub async fn store_action(&self, action: NewAction) -> Result<bool, String> {
        self.write(Write::Action(action)).await
    }

    // Accounts.

    /// Adds a user; false if the name is taken, in any case (`bob` and
    /// `BOB` are one name).
    pub async fn add_user(&self, name: &str, hash: &str) -> DbResult<bool> {
        let r = sqlx::query(
            "INSERT INTO users (name, name_key, password_hash, created) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        )
        .bind(name)
        .bind(crate::auth::name_key(name))
        .bind(hash)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The password hash of the user named exactly `name`.
    pub async fn password_hash(&self, name: &str) -> DbResult<Option<String>> {
        let row = sqlx::query("SELECT password_hash FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.get::<String, _>(0)))
    }

    /// The account `name` logs in, in any case: its name as signed up and
    /// its password hash. The exact name first (two names differing only in
    /// case, from before names were compared without case, are both kept).
    pub async fn user_login(&self, name: &str) -> DbResult<Option<(String, String)>> {
        let row = sqlx::query(
            "SELECT name, password_hash FROM users WHERE name = $1 OR name_key = $2 \
             ORDER BY CASE WHEN name = $1 THEN 0 ELSE 1 END LIMIT 1",
        )
        .bind(name)
        .bind(crate::auth::name_key(name))
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| (r.get::<String, _>(0), r.get::<String, _>(1))))
    }

    /// Stores a session token (hashed) made at `now` (ms since the epoch);
    /// the user's oldest tokens past the newest `keep` are dropped.
    pub async fn add_token(&self, token: &str, user: &str, now: i64, keep: i64) -> DbResult<()> {
        sqlx::query("INSERT INTO tokens (token, user_name, created) VALUES ($1, $2, $3)")
            .bind(crate::auth::token_hash(token))
            .bind(user)
            .bind(now)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "DELETE FROM tokens WHERE user_name = $1 AND token NOT IN \
             (SELECT token FROM tokens WHERE user_name = $1 ORDER BY created DESC LIMIT $2)",
        )
        .bind(user)
        .bind(keep)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The user a token logs in, if it was made after `since` (ms since the
    /// epoch: older ones have expired) and not revoked.
    pub async fn token_user(&self, token: &str, since: i64) -> DbResult<Option<String>> {
        let row = sqlx::query("SELECT user_name FROM tokens WHERE token = $1 AND created > $2")
            .bind(crate::auth::token_hash(token))
            .bind(since)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.get::<String, _>(0)))
    }

    /// Revokes `token` if it is one of `user`'s; whether it was.
    pub async fn revoke_token(&self, user: &str, token: &str) -> DbResult<bool> {
        let r = sqlx::query("DELETE FROM tokens WHERE token = $1 AND user_name = $2")
            .bind(crate::auth::token_hash(token))
            .bind(user)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() > 0)
    }

    /// Revokes every token of `user`; how many there were.
    pub async fn revoke_tokens(&self, user: &str) -> DbResult<u64> {
        let r = sqlx::query("DELETE FROM tokens WHERE user_name = $1")
            .bind(user)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    // Games.

    pub async fn add_game(&self, game: &GameRow, seats: &[SeatRow]) -> DbResult<()> {
        let mut tx = self.pool.begin().await?;
        let now = now_ms();
        sqlx::query(
            "INSERT INTO games (id, variant, version, options, seed, creator, status, timeout_secs, players, to_act, created, updated, lease_owner, lease_until) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL, 0)",
        )
        .bind(&game.id)
        .bind(&game.variant)
        .bind(&game.version)
        .bind(&game.options)
        .bind(game.seed as i64)
        .bind(&game.creator)
        .bind(&game.status)
        .bind(game.timeout_secs)
        .bind(&game.players)
        .bind(&game.to_act)
        .bind(now)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for s in seats {
            sqlx::query(
                "INSERT INTO seats (game_id, seat, kind, level, user_name, last_seen) VALUES ($1, $2, $3, $4, $5, 0)",
            )
            .bind(&game.id)
            .bind(i64::from(s.seat))
            .bind(&s.kind)
            .bind(&s.level)
            .bind(s.user.clone())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    fn game_row(r: &sqlx::any::AnyRow) -> GameRow {
        GameRow {
            id: r.get("id"),
            variant: r.get("variant"),
            version: r.get("version"),
            options: r.get("options"),
            seed: r.get::<i64, _>("seed") as u64,
            creator: r.get("creator"),
            status: r.get("status"),
            timeout_secs: r.get("timeout_secs"),
            players: r.get("players"),
            to_act: r.get("to_act"),
            created: r.get::<i64, _>("created"),
        }
    }

    const GAME_COLUMNS: &str = "id, variant, version, options, seed, creator, status, timeout_secs, players, to_act, created";

    pub async fn game(&self, id: &str) -> DbResult<Option<GameRow>> {
        let q = format!("SELECT {} FROM games WHERE id = $1", Self::GAME_COLUMNS);
        let row = sqlx::query(&q).bind(id).fetch_optional(&self.pool).await?;
        Ok(row.as_ref().map(Self::game_row))
    }

    /// The lobby of `user`: his own games (created or seated in; those not
    /// over first, then the newest, at most `own`), then the other games
    /// not over, newest first, at most `per_creator` of each creator and
    /// `others` in all, so that one account's many games never push out
    /// another's.
    pub async fn lobby(
        &self,
        user: &str,
        own: i64,
        per_creator: i64,
        others: i64,
    ) -> DbResult<Vec<GameRow>> {
        let q = format!(
            "SELECT {} FROM games WHERE creator = $1 OR id IN (SELECT game_id FROM seats WHERE user_name = $1) \
             ORDER BY CASE WHEN status = $2 THEN 1 ELSE 0 END, updated DESC LIMIT $3",
            Self::GAME_COLUMNS
        );
        let mut rows: Vec<GameRow> = sqlx::query(&q)
            .bind(user)
            .bind(OVER)
            .bind(own)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(Self::game_row)
            .collect();
        let q = format!(
            "SELECT {0} FROM (SELECT {0}, updated, ROW_NUMBER() OVER (PARTITION BY creator ORDER BY updated DESC) AS n \
             FROM games WHERE status <> $1 AND creator <> $2) AS g WHERE n <= $3 ORDER BY updated DESC LIMIT $4",
            Self::GAME_COLUMNS
        );
        let theirs = sqlx::query(&q)
            .bind(OVER)
            .bind(user)
            .bind(per_creator)
            .bind(others)
            .fetch_all(&self.pool)
            .await?;
        for row in theirs.iter().map(Self::game_row) {
            if !rows.iter().any(|r| r.id == row.id) {
                rows.push(row);
            }
        }
        Ok(rows)
    }

    pub async fn seats(&self, game: &str) -> DbResult<Vec<SeatRow>> {
        let rows = sqlx::query(
            "SELECT seat, kind, level, user_name, last_seen FROM seats WHERE game_id = $1 ORDER BY seat",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| SeatRow {
                seat: r.get::<i64, _>(0) as u8,
                kind: r.get(1),
                level: r.get(2),
                user: r.get(3),
                last_seen: r.get(4),
            })
            .collect())
    }

    /// Takes a free human seat (the lowest, or `seat`) of an open game for
    /// `user`; the seat taken, or None.
    pub async fn take_seat(
        &self,
        game: &str,
        user: &str,
        seat: Option<u8>,
    ) -> DbResult<Option<u8>> {
        for s in self.seats(game).await? {
            if s.kind != "human" || s.user.is_some() || seat.is_some_and(|x| x != s.seat) {
                continue;
            }
            // Guarded by `user_name IS NULL`: of two joiners, one gets it.
            let r = sqlx::query(
                "UPDATE seats SET user_name = $1, last_seen = $2 WHERE game_id = $3 AND seat = $4 AND user_name IS NULL",
            )
            .bind(user)
            .bind(now_ms())
            .bind(game)
            .bind(i64::from(s.seat))
            .execute(&self.pool)
            .await?;
            if r.rows_affected() == 1 {
                return Ok(Some(s.seat));
            }
        }
        Ok(None)
    }

    /// Frees `user`'s seat in an open game.
    pub async fn free_seat(&self, game: &str, user: &str) -> DbResult<bool> {
        let r =
            sqlx::query("UPDATE seats SET user_name = NULL WHERE game_id = $1 AND user_name = $2")
                .bind(game)
                .bind(user)
                .execute(&self.pool)
                .await?;
        Ok(r.rows_affected() > 0)
    }

    /// Hands `user`'s seat in a running game to a computer player.
    pub async fn seat_to_computer(&self, game: &str, user: &str) -> DbResult<bool> {
        let r = sqlx::query(
            "UPDATE seats SET kind = 'computer' WHERE game_id = $1 AND user_name = $2 AND kind = 'human'",
        )
        .bind(game)
        .bind(user)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() > 0)
    }

    /// Marks a seat's player as present now (committed with the other
    /// writes waiting).
    pub async fn seen(&self, game: &str, seat: u8) -> Result<(), String> {
        let write = Write::Seen {
            game: game.to_string(),
            seat,
        };
        self.write(write).await.map(|_| ())
    }

    /// Changes a game's status from one of `from` to `to`; false if it was
    /// in none of them.
    pub async fn set_status(&self, game: &str, from: &[&str], to: &str) -> DbResult<bool> {
        for f in from {
            let r = sqlx::query(
                "UPDATE games SET status = $1, updated = $2 WHERE id = $3 AND status = $4",
            )
            .bind(to)
            .bind(now_ms())
            .bind(game)
            .bind(*f)
            .execute(&self.pool)
            .await?;
            if r.rows_affected() == 1 {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Starts an open game: its player names are fixed.
    pub async fn start_game(&self, game: &str, players: &str) -> DbResult<bool> {
        let r = sqlx::query(
            "UPDATE games SET status = $1, players = $2, updated = $3 WHERE id = $4 AND status = $5",
        )
        .bind(RUNNING)
        .bind(players)
        .bind(now_ms())
        .bind(game)
        .bind(OPEN)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Records who is to act and whether the game is over, for the lobby.
    pub async fn set_progress(&self, game: &str, to_act: &str, over: bool) -> DbResult<()> {
        progress_query(over)
            .bind(to_act)
            .bind(now_ms())
            .bind(game)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    // The log.

    /// The actions from the `from`-th on: (player, action JSON).
    pub async fn actions(&self, game: &str, from: usize) -> DbResult<Vec<(u8, String)>> {
        let rows = sqlx::query(
            "SELECT idx, player, action FROM actions WHERE game_id = $1 AND idx >= $2 ORDER BY idx",
        )
        .bind(game)
        .bind(from as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get::<i64, _>(1) as u8, r.get::<String, _>(2)))
            .collect())
    }

    /// Of the games given as (id, actions known, chat lines known), those
    /// that have more stored: one query for many games (a few hundred at
    /// a time), each an index look-up.
    pub async fn games_with_news(&self, known: &[(String, usize, usize)]) -> DbResult<Vec<String>> {
        let mut news = Vec::new();
        for chunk in known.chunks(300) {
            let values: Vec<String> = (0..chunk.len())
                .map(|i| format!("(${}, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3))
                .collect();
            let q = format!(
                "WITH k (id, n, c) AS (VALUES {}) SELECT id FROM k \
                 WHERE EXISTS (SELECT 1 FROM actions WHERE game_id = k.id AND idx >= k.n) \
                 OR EXISTS (SELECT 1 FROM chat WHERE game_id = k.id AND idx >= k.c)",
                values.join(", ")
            );
            let mut query = sqlx::query(&q);
            for (id, n, c) in chunk {
                query = query.bind(id.as_str()).bind(*n as i64).bind(*c as i64);
            }
            let rows = query.fetch_all(&self.pool).await?;
            news.extend(rows.iter().map(|r| r.get::<String, _>(0)));
        }
        Ok(news)
    }

    // Chat.

    pub async fn chat(&self, game: &str, from: usize) -> DbResult<Vec<(String, String)>> {
        let rows = sqlx::query(
            "SELECT idx, user_name, text FROM chat WHERE game_id = $1 AND idx >= $2 ORDER BY idx",
        )
        .bind(game)
        .bind(from as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get::<String, _>(1), r.get::<String, _>(2)))
            .collect())
    }

    pub async fn append_chat(
        &self,
        game: &str,
        idx: usize,
        user: &str,
        text: &str,
    ) -> DbResult<bool> {
        let r = sqlx::query(
            "INSERT INTO chat (game_id, idx, user_name, text, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(game)
        .bind(idx as i64)
        .bind(user)
        .bind(text)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    // Leases.

    /// Takes or renews the lease of a game for `owner` until `until`; true
    /// if `owner` holds it now.
    pub async fn lease(&self, game: &str, owner: &str, until: i64) -> DbResult<bool> {
        let r = sqlx::query(
            "UPDATE games SET lease_owner = $1, lease_until = $2 WHERE id = $3 AND (lease_owner = $1 OR lease_owner IS NULL OR lease_until < $4)",
        )
        .bind(owner)
        .bind(until)
        .bind(game)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Who holds the lease of a game, and until when (ms since the epoch):
    /// None when nobody does (or there is no such game).
    pub async fn lease_holder(&self, game: &str) -> DbResult<Option<(String, i64)>> {
        let row = sqlx::query("SELECT lease_owner, lease_until FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.and_then(|r| {
            let owner: Option<String> = r.get(0);
            owner.map(|o| (o, r.get::<i64, _>(1)))
        }))
    }

    /// Gives a lease up (on a clean shutdown), so another instance need not
    /// wait for it to expire.
    pub async fn release(&self, game: &str, owner: &str) -> DbResult<()> {
        sqlx::query(
            "UPDATE games SET lease_owner = NULL, lease_until = 0 WHERE id = $1 AND lease_owner = $2",
        )
        .bind(game)
        .bind(owner)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    // Limits (docs/online.md, "Limits").

    /// Open games: all of them, or those `creator` made.
    pub async fn open_games(&self, creator: Option<&str>) -> DbResult<i64> {
        let row = match creator {
            Some(c) => {
                sqlx::query("SELECT COUNT(*) FROM games WHERE status = $1 AND creator = $2")
                    .bind(OPEN)
                    .bind(c)
                    .fetch_one(&self.pool)
                    .await?
            }
            None => {
                sqlx::query("SELECT COUNT(*) FROM games WHERE status = $1")
                    .bind(OPEN)
                    .fetch_one(&self.pool)
                    .await?
            }
        };
        Ok(row.get::<i64, _>(0))
    }

    /// Games not over that `user` created or holds a seat in.
    pub async fn games_of(&self, user: &str) -> DbResult<i64> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM games WHERE status <> $1 \
             AND (creator = $2 OR id IN (SELECT game_id FROM seats WHERE user_name = $2))",
        )
        .bind(OVER)
        .bind(user)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.get::<i64, _>(0))
    }

    /// Computer seats in the games not over that `user` created.
    pub async fn computer_seats_of(&self, user: &str) -> DbResult<i64> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM seats WHERE kind = 'computer' AND game_id IN \
             (SELECT id FROM games WHERE creator = $1 AND status <> $2)",
        )
        .bind(user)
        .bind(OVER)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.get::<i64, _>(0))
    }

    /// The last `n` chat lines of a game, and the index of the first.
    pub async fn chat_tail(
        &self,
        game: &str,
        n: usize,
    ) -> DbResult<(usize, Vec<(String, String)>)> {
        let rows = sqlx::query(
            "SELECT idx, user_name, text FROM chat WHERE game_id = $1 ORDER BY idx DESC LIMIT $2",
        )
        .bind(game)
        .bind(n as i64)
        .fetch_all(&self.pool)
        .await?;
        let first = rows
            .last()
            .map_or(0, |r| r.get::<i64, _>(0).max(0) as usize);
        let lines = rows
            .iter()
            .rev()
            .map(|r| (r.get::<String, _>(1), r.get::<String, _>(2)))
            .collect();
        Ok((first, lines))
    }

    /// Whether a game's players have muted its spectators' chat.
    pub async fn spectators_muted(&self, game: &str) -> DbResult<bool> {
        let row = sqlx::query("SELECT spectators_muted FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some_and(|r| r.get::<i64, _>(0) != 0))
    }

    pub async fn set_spectators_muted(&self, game: &str, muted: bool) -> DbResult<()> {
        sqlx::query("UPDATE games SET spectators_muted = $1 WHERE id = $2")
            .bind(i64::from(muted))
            .bind(game)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Running games a computer may have to play in (a computer seat, or a
    /// timeout for absent players) whose lease is free or expired, or held
    /// by `owner`.
    pub async fn games_to_drive(&self, owner: &str) -> DbResult<Vec<String>> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = $1 AND (lease_owner = $2 OR lease_owner IS NULL OR lease_until < $3) \
             AND (timeout_secs > 0 OR id IN (SELECT game_id FROM seats WHERE kind = 'computer'))",
        )
        .bind(RUNNING)
        .bind(owner)
        .bind(now_ms())
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::database_url;

    /// The forms of a SQLite database's name, each opening (and making) a
    /// file; other modes, memory and other databases as given.
    #[test]
    fn database_urls() {
        let cwd = std::env::current_dir().unwrap();
        let cases = [
            (
                "sqlite:///tmp/x/new.sqlite",
                "sqlite:///tmp/x/new.sqlite?mode=rwc".to_string(),
            ),
            (
                "sqlite://relative.sqlite",
                "sqlite://relative.sqlite?mode=rwc".into(),
            ),
            (
                "sqlite:relative.sqlite",
                "sqlite:relative.sqlite?mode=rwc".into(),
            ),
            (
                "sqlite:///a.sqlite?cache=shared",
                "sqlite:///a.sqlite?cache=shared&mode=rwc".into(),
            ),
            ("sqlite:///a.sqlite?", "sqlite:///a.sqlite?mode=rwc".into()),
            (
                "sqlite:///a.sqlite?mode=rwc",
                "sqlite:///a.sqlite?mode=rwc".into(),
            ),
            (
                "sqlite:///a.sqlite?mode=ro",
                "sqlite:///a.sqlite?mode=ro".into(),
            ),
            ("sqlite::memory:", "sqlite::memory:".into()),
            ("sqlite://:memory:", "sqlite://:memory:".into()),
            (
                "postgres://u:p@127.0.0.1/db",
                "postgres://u:p@127.0.0.1/db".into(),
            ),
            (
                "/srv/a b?#%.sqlite",
                "sqlite:///srv/a%20b%3F%23%25.sqlite?mode=rwc".into(),
            ),
            (
                "rel.sqlite",
                format!("sqlite://{}/rel.sqlite?mode=rwc", cwd.display()),
            ),
        ];
        for (given, want) in cases {
            assert_eq!(database_url(given), want, "{given}");
        }
    }
}
