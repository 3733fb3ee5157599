//! The store's writers: actions waiting together are committed in one
//! transaction, and each is still guarded on its own (docs/online.md,
//! "Several instances" and "Throughput").

mod common;

use common::{postgres, sqlite, unique};
use titan_server::db::{self, Db, GameRow, NewAction, SeatRow};

fn game(id: &str, status: &str) -> GameRow {
    GameRow {
        id: id.into(),
        variant: "titan".into(),
        version: "1".into(),
        options: "{}".into(),
        seed: 1,
        creator: "ann".into(),
        status: status.into(),
        timeout_secs: 0,
        players: "[]".into(),
        to_act: String::new(),
        created: 0,
    }
}

fn seat(seat: u8, kind: &str, user: Option<&str>) -> SeatRow {
    SeatRow {
        seat,
        kind: kind.into(),
        level: String::new(),
        user: user.map(String::from),
        last_seen: 0,
    }
}

fn action(game: &str, idx: usize, player: u8, user: Option<&str>) -> NewAction {
    NewAction {
        game: game.into(),
        idx,
        player,
        action: format!("\"{game} {idx}\""),
        user: user.map(String::from),
        progress: None,
    }
}

/// Five actions sent at once (one batch, on a one-threaded runtime: all are
/// queued before the writer runs): of them, only those of a running game,
/// by the seat's holder (or a computer), at a free index are stored, and
/// the lobby's progress is written for the stored ones alone.
fn batched_actions_are_each_guarded(url: &str) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = Db::connect(url).await.unwrap();
        let [run, paused, other, fourth] = [
            unique("run"),
            unique("paused"),
            unique("other"),
            unique("fourth"),
        ];
        let humans = [seat(0, "human", Some("ann")), seat(1, "human", Some("bob"))];
        store
            .add_game(&game(&run, db::RUNNING), &humans)
            .await
            .unwrap();
        store
            .add_game(&game(&paused, db::SUSPENDED), &humans)
            .await
            .unwrap();
        let mixed = [seat(0, "human", Some("ann")), seat(1, "computer", None)];
        store
            .add_game(&game(&other, db::RUNNING), &mixed)
            .await
            .unwrap();
        store
            .add_game(&game(&fourth, db::RUNNING), &humans)
            .await
            .unwrap();
        assert!(
            store
                .store_action(action(&run, 0, 0, Some("ann")))
                .await
                .unwrap()
        );

        let mut next = action(&run, 1, 1, Some("bob"));
        next.progress = Some(("ann".into(), false));
        let mut last = action(&other, 0, 1, None);
        last.progress = Some((String::new(), true));
        let (next, taken, suspended, impostor, computer) = tokio::join!(
            store.store_action(next),
            store.store_action(action(&run, 0, 0, Some("ann"))),
            store.store_action(action(&paused, 0, 0, Some("ann"))),
            store.store_action(action(&fourth, 0, 0, Some("mallory"))),
            store.store_action(last),
        );
        assert_eq!(next, Ok(true), "the holder's action at the next index");
        assert_eq!(taken, Ok(false), "an index stored already");
        assert_eq!(suspended, Ok(false), "an action in a suspended game");
        assert_eq!(impostor, Ok(false), "an action by one who holds no seat");
        assert_eq!(computer, Ok(true), "a computer's action");

        let log = |id: String| {
            let store = store.clone();
            async move { store.actions(&id, 0).await.unwrap() }
        };
        assert_eq!(
            log(run.clone()).await,
            vec![(0, format!("\"{run} 0\"")), (1, format!("\"{run} 1\""))]
        );
        assert!(log(paused.clone()).await.is_empty());
        assert!(log(fourth).await.is_empty());
        assert_eq!(
            log(other.clone()).await,
            vec![(1, format!("\"{other} 0\""))]
        );
        let row = |id: String| {
            let store = store.clone();
            async move { store.game(&id).await.unwrap().unwrap() }
        };
        assert_eq!(row(run).await.to_act, "ann");
        assert_eq!(row(other).await.status, db::OVER);
        assert_eq!(row(paused).await.status, db::SUSPENDED);
    });
}

#[test]
fn batched_actions_are_each_guarded_on_sqlite() {
    let (_dir, url) = sqlite();
    batched_actions_are_each_guarded(&url);
}

#[test]
fn batched_actions_are_each_guarded_on_postgres() {
    if let Some(url) = postgres("batched_actions_are_each_guarded_on_postgres") {
        batched_actions_are_each_guarded(&url);
    }
}
