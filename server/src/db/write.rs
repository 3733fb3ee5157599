//! The writers: the actions and seat heartbeats of many games committed in
//! one transaction (group commit), each answered after that commit.

use sqlx::AnyPool;
use sqlx::Row;

use super::{DbResult, OVER, RUNNING, now_ms};

/// An action to store (see [`super::Db::store_action`]).
#[derive(Debug, Clone)]
pub struct NewAction {
    pub game: String,
    pub idx: usize,
    pub player: u8,
    /// The action as JSON.
    pub action: String,
    /// The person playing the seat: stored only while he still holds it as
    /// a person's seat. None: a computer's action.
    pub user: Option<String>,
    /// Who is to act now (names, comma-separated) and whether the game is
    /// over, for the lobby, when that changed with this action.
    pub progress: Option<(String, bool)>,
}

/// A write queued for a writer.
pub(super) enum Write {
    Action(NewAction),
    Seen { game: String, seat: u8 },
}

/// A write and where its outcome goes: whether it changed a row.
pub(super) type Job = (Write, tokio::sync::oneshot::Sender<Result<bool, String>>);

/// Writes waiting for the writers, at most (per writer): each live game and
/// each watching connection has at most one waiting, so this only bounds
/// a burst.
pub(super) const WRITE_QUEUE: usize = 4096;
/// Writes committed in one transaction, at most.
const WRITE_BATCH: usize = 256;

/// A writer: takes the writes waiting (up to [`WRITE_BATCH`]) and commits
/// them in one transaction, then answers each. When the transaction fails,
/// each write is tried again in its own, so that one bad write fails alone.
///
/// `one_statement` (PostgreSQL): a batch of writes of distinct games is one
/// statement (data-modifying `WITH` clauses), atomic without a transaction
/// of several round trips.
///
/// The writers share one queue: the one free takes every write waiting.
/// A game's actions are in order all the same: its actor waits for each
/// store before the next.
pub(super) async fn write_loop(
    pool: AnyPool,
    rx: std::sync::Arc<tokio::sync::Mutex<tokio::sync::mpsc::Receiver<Job>>>,
    one_statement: bool,
) {
    let mut jobs = Vec::with_capacity(WRITE_BATCH);
    while rx.lock().await.recv_many(&mut jobs, WRITE_BATCH).await > 0 {
        let writes: Vec<&Write> = jobs.iter().map(|(w, _)| w).collect();
        let batch = match one_statement
            .then(|| one_statement_batch(&writes))
            .flatten()
        {
            Some(q) => q.run(&pool).await,
            None => write_batch(&pool, &writes).await,
        };
        match batch {
            Ok(done) => {
                for ((_, reply), changed) in jobs.drain(..).zip(done) {
                    let _ = reply.send(Ok(changed));
                }
            }
            Err(e) => {
                tracing::warn!(writes = jobs.len(), error = %e, "a batch of writes failed; each is tried alone");
                for (write, reply) in jobs.drain(..) {
                    let one = write_batch(&pool, &[&write])
                        .await
                        .map(|done| done.first().copied().unwrap_or(false))
                        .map_err(|e| e.to_string());
                    let _ = reply.send(one);
                }
            }
        }
    }
}

async fn write_batch(pool: &AnyPool, writes: &[&Write]) -> DbResult<Vec<bool>> {
    let mut tx = pool.begin().await?;
    let actions: Vec<&NewAction> = writes
        .iter()
        .filter_map(|w| match w {
            Write::Action(a) => Some(a),
            Write::Seen { .. } => None,
        })
        .collect();
    // Two actions at one index of a game (never from one instance, whose
    // game waits for each store) are stored one by one, the first first.
    let mut indices: Vec<(&str, usize)> =
        actions.iter().map(|a| (a.game.as_str(), a.idx)).collect();
    indices.sort_unstable();
    indices.dedup();
    let stored = if actions.len() > 1 && indices.len() == actions.len() {
        store_many(&mut tx, &actions).await?
    } else {
        let mut stored = Vec::with_capacity(actions.len());
        for a in &actions {
            stored.push(store_one(&mut tx, a).await?);
        }
        stored
    };
    let seen: Vec<(&str, u8)> = writes
        .iter()
        .filter_map(|w| match w {
            Write::Seen { game, seat, .. } => Some((game.as_str(), *seat)),
            Write::Action(_) => None,
        })
        .collect();
    // Seats seen, a few hundred at a time, at the batch's time (their
    // writes waited a moment at most).
    for chunk in seen.chunks(300) {
        let terms: Vec<String> = (0..chunk.len())
            .map(|i| format!("(game_id = ${} AND seat = ${})", 2 * i + 2, 2 * i + 3))
            .collect();
        let q = format!(
            "UPDATE seats SET last_seen = $1 WHERE {}",
            terms.join(" OR ")
        );
        let mut query = sqlx::query(&q).bind(now_ms());
        for (game, seat) in chunk {
            query = query.bind(*game).bind(i64::from(*seat));
        }
        query.execute(&mut *tx).await?;
    }
    tx.commit().await?;
    let mut stored = stored.into_iter();
    Ok(writes
        .iter()
        .map(|w| match w {
            Write::Action(_) => stored.next().unwrap_or(false),
            Write::Seen { .. } => true,
        })
        .collect())
}

/// A batch as one PostgreSQL statement: the guarded insert of the actions
/// (as [`store_many`]), the progress of those stored, and the seats seen.
/// Its text is the same for every batch (the writes are two JSON
/// parameters), so that each connection prepares and plans it once.
struct OneStatement<'a> {
    writes: &'a [&'a Write],
    actions: Vec<&'a NewAction>,
    seen: Vec<(&'a str, u8)>,
}

/// The batch as one statement, when it fits one: at most one action per
/// game (an instance's games wait for each store).
fn one_statement_batch<'a>(writes: &'a [&'a Write]) -> Option<OneStatement<'a>> {
    let mut actions = Vec::new();
    let mut seen = Vec::new();
    for w in writes {
        match w {
            Write::Action(a) => actions.push(a),
            Write::Seen { game, seat } => seen.push((game.as_str(), *seat)),
        }
    }
    let mut games: Vec<&str> = actions.iter().map(|a| a.game.as_str()).collect();
    games.sort_unstable();
    games.dedup();
    (games.len() == actions.len()).then_some(OneStatement {
        writes,
        actions,
        seen,
    })
}

/// The one statement: $1 the time, $2 the actions (a JSON array of
/// objects), $3 the seats seen (likewise).
const ONE_STATEMENT: &str = concat!(
    "WITH v AS (SELECT * FROM json_to_recordset(CAST($2 AS json)) AS x (game_id text, idx bigint, ",
    "player bigint, action text, user_name text, to_act text, over bigint)), ",
    "ins AS (INSERT INTO actions (game_id, idx, player, action) ",
    "SELECT game_id, idx, player, action FROM v ",
    "WHERE (SELECT g.status FROM games g WHERE g.id = v.game_id) = 'running' ",
    "AND (v.user_name IS NULL OR (SELECT s.user_name FROM seats s WHERE s.game_id = v.game_id ",
    "AND s.seat = v.player AND s.kind = 'human') = v.user_name) ",
    "ON CONFLICT DO NOTHING RETURNING game_id, idx), ",
    "prog AS (UPDATE games SET to_act = v.to_act, updated = $1, ",
    "status = CASE WHEN v.over = 1 THEN 'over' ELSE games.status END ",
    "FROM v JOIN ins ON ins.game_id = v.game_id AND ins.idx = v.idx ",
    "WHERE games.id = v.game_id AND v.to_act IS NOT NULL RETURNING 1), ",
    "seen AS (UPDATE seats SET last_seen = $1 ",
    "FROM json_to_recordset(CAST($3 AS json)) AS x (game_id text, seat bigint) ",
    "WHERE seats.game_id = x.game_id AND seats.seat = x.seat RETURNING 1) ",
    "SELECT game_id, idx FROM ins"
);

impl OneStatement<'_> {
    async fn run(&self, pool: &AnyPool) -> DbResult<Vec<bool>> {
        let actions: Vec<serde_json::Value> = self
            .actions
            .iter()
            .map(|a| {
                let (to_act, over) = match &a.progress {
                    Some((t, o)) => (Some(t.as_str()), i64::from(*o)),
                    None => (None, 0),
                };
                serde_json::json!({
                    "game_id": a.game,
                    "idx": a.idx,
                    "player": a.player,
                    "action": a.action,
                    "user_name": a.user,
                    "to_act": to_act,
                    "over": over,
                })
            })
            .collect();
        let seen: Vec<serde_json::Value> = self
            .seen
            .iter()
            .map(|(game, seat)| serde_json::json!({ "game_id": game, "seat": seat }))
            .collect();
        let stored: std::collections::HashSet<(String, i64)> = sqlx::query(ONE_STATEMENT)
            .bind(now_ms())
            .bind(serde_json::Value::Array(actions).to_string())
            .bind(serde_json::Value::Array(seen).to_string())
            .fetch_all(pool)
            .await?
            .iter()
            .map(|row| (row.get::<String, _>(0), row.get::<i64, _>(1)))
            .collect();
        Ok(self
            .writes
            .iter()
            .map(|w| match w {
                Write::Action(a) => stored.contains(&(a.game.clone(), a.idx as i64)),
                Write::Seen { .. } => true,
            })
            .collect())
    }
}

/// Inserts many actions (of different games) in one statement, each
/// guarded as in [`store_one`]; then the progress of those stored, in one
/// more. Whether each was stored.
async fn store_many(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    actions: &[&NewAction],
) -> DbResult<Vec<bool>> {
    let mut stored = std::collections::HashSet::new();
    for chunk in actions.chunks(200) {
        let values: Vec<String> = (0..chunk.len())
            .map(|i| {
                let p = 5 * i;
                format!(
                    "(${}, ${}, ${}, ${}, ${})",
                    p + 1,
                    p + 2,
                    p + 3,
                    p + 4,
                    p + 5
                )
            })
            .collect();
        let q = format!(
            "WITH v (game_id, idx, player, action, user_name) AS (VALUES {}) \
             INSERT INTO actions (game_id, idx, player, action) \
             SELECT game_id, idx, player, action FROM v \
             WHERE EXISTS (SELECT 1 FROM games g WHERE g.id = v.game_id AND g.status = '{RUNNING}') \
             AND (v.user_name IS NULL OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = v.game_id \
             AND s.seat = v.player AND s.kind = 'human' AND s.user_name = v.user_name)) \
             ON CONFLICT DO NOTHING RETURNING game_id, idx",
            values.join(", ")
        );
        let mut query = sqlx::query(&q);
        for a in chunk {
            query = query
                .bind(a.game.as_str())
                .bind(a.idx as i64)
                .bind(i64::from(a.player))
                .bind(a.action.as_str())
                .bind(a.user.as_deref());
        }
        for row in query.fetch_all(&mut **tx).await? {
            stored.insert((row.get::<String, _>(0), row.get::<i64, _>(1)));
        }
    }
    let done: Vec<bool> = actions
        .iter()
        .map(|a| stored.contains(&(a.game.clone(), a.idx as i64)))
        .collect();
    let progress: Vec<(&str, &str, bool)> = actions
        .iter()
        .zip(&done)
        .filter(|(_, stored)| **stored)
        .filter_map(|(a, _)| {
            let (to_act, over) = a.progress.as_ref()?;
            Some((a.game.as_str(), to_act.as_str(), *over))
        })
        .collect();
    let now = now_ms();
    for chunk in progress.chunks(300) {
        let values: Vec<String> = (0..chunk.len())
            .map(|i| format!("(${}, ${}, ${})", 3 * i + 2, 3 * i + 3, 3 * i + 4))
            .collect();
        let q = format!(
            "WITH v (id, to_act, over) AS (VALUES {}) UPDATE games SET \
             to_act = (SELECT v.to_act FROM v WHERE v.id = games.id), updated = $1, \
             status = CASE WHEN (SELECT v.over FROM v WHERE v.id = games.id) = 1 THEN '{OVER}' ELSE status END \
             WHERE id IN (SELECT v.id FROM v)",
            values.join(", ")
        );
        let mut query = sqlx::query(&q).bind(now);
        for (game, to_act, over) in chunk {
            query = query.bind(*game).bind(*to_act).bind(i64::from(*over));
        }
        query.execute(&mut **tx).await?;
    }
    Ok(done)
}

/// Inserts an action, guarded in the same statement by the game's status
/// and (a person's action) the seat's holder, so that a suspend or a leave
/// through another instance is never overtaken; the primary key (game,
/// index) lets one writer only store each index. Then the progress.
async fn store_one(tx: &mut sqlx::Transaction<'_, sqlx::Any>, a: &NewAction) -> DbResult<bool> {
    let inserted = match &a.user {
        Some(user) => sqlx::query(
            "INSERT INTO actions (game_id, idx, player, action) SELECT $1, $2, $3, $4 \
             WHERE EXISTS (SELECT 1 FROM games WHERE id = $1 AND status = $5) \
             AND EXISTS (SELECT 1 FROM seats WHERE game_id = $1 AND seat = $3 AND kind = 'human' AND user_name = $6) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&a.game)
        .bind(a.idx as i64)
        .bind(i64::from(a.player))
        .bind(&a.action)
        .bind(RUNNING)
        .bind(user),
        None => sqlx::query(
            "INSERT INTO actions (game_id, idx, player, action) SELECT $1, $2, $3, $4 \
             WHERE EXISTS (SELECT 1 FROM games WHERE id = $1 AND status = $5) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&a.game)
        .bind(a.idx as i64)
        .bind(i64::from(a.player))
        .bind(&a.action)
        .bind(RUNNING),
    }
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1;
    if inserted && let Some((to_act, over)) = &a.progress {
        progress_query(*over)
            .bind(to_act)
            .bind(now_ms())
            .bind(&a.game)
            .execute(&mut **tx)
            .await?;
    }
    Ok(inserted)
}

pub(super) fn progress_query<'q>(
    over: bool,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    sqlx::query(if over {
        "UPDATE games SET to_act = $1, updated = $2, status = 'over' WHERE id = $3"
    } else {
        "UPDATE games SET to_act = $1, updated = $2 WHERE id = $3"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statement spells the statuses out (`concat!` takes literals
    /// only): they are the store's.
    #[test]
    fn the_one_statement_names_the_stores_statuses() {
        assert!(ONE_STATEMENT.contains(&format!("= '{RUNNING}'")));
        assert!(ONE_STATEMENT.contains(&format!("THEN '{OVER}'")));
    }
}
