use super::*;

/// The characters a random legion is drawn from: every one the chart
/// counts but the Titan (the tests name none of a variant's).
fn pool(v: &Variant) -> Vec<CharacterId> {
    let titan = v.rules.titan.character;
    (0..v.characters.len())
        .map(|i| CharacterId(i as u16))
        .filter(|&c| c != titan && v.character(c).count > 0)
        .collect()
}

#[test]
fn units_where_visits_the_units_that_qualify_in_order() {
    // More than one mask's worth, so the chunks join up.
    for n in [0usize, 1, 63, 64, 65, 130] {
        let units: Vec<Unit> = (0..n)
            .map(|i| Unit {
                character: CharacterId(0),
                side: if i % 3 == 0 {
                    BattleSide::Attacker
                } else {
                    BattleSide::Defender
                },
                power: 6,
                status: Status::Waiting,
                damage: (i % 7) as u8,
                moved: false,
                locked: false,
                strikes_left: 1,
            })
            .collect();
        let pred = |u: &Unit| (u.side == BattleSide::Defender) & (u.damage < 5);
        let want: Vec<usize> = (0..n).filter(|&i| pred(&units[i])).collect();
        assert_eq!(
            units_where(&units, pred).collect::<Vec<_>>(),
            want,
            "{n} units"
        );
    }
}

#[test]
fn sides_alternate() {
    assert_eq!(BattleSide::Attacker.other(), BattleSide::Defender);
    assert_eq!(BattleSide::Defender.other(), BattleSide::Attacker);
}

#[test]
fn hex_ids_serialise_as_labels() {
    let a = Action::Move {
        unit: 1,
        to: HexId::from_label("D4").unwrap(),
    };
    let text = ron::to_string(&a).unwrap();
    assert!(text.contains("\"D4\""), "{text}");
    assert_eq!(ron::from_str::<Action>(&text).unwrap(), a);
    assert!(ron::from_str::<Action>(r#"Move(unit: 1, to: "Z9")"#).is_err());
}

/// `take_back` puts the battle back as it was before the last action
/// (state and generator), once; a battle held shared plays as one held
/// borrowed.
/// A battle nobody takes back changes its state in place for the
/// actions `pick_action` listed; one whose owner may take back
/// (`keep_undo`, as a game's) copies it: the same battles, and only the
/// copying one can take its last action back. `play_picked`, which
/// makes none of the checks listing made, plays the same battles too.
#[test]
fn actions_changed_in_place_play_as_copied() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    let v = crate::load(&dir, &Default::default()).unwrap();
    let pool = pool(&v);
    let (mut actions, mut changed_in_place) = (0, 0);
    for seed in 0..40u64 {
        let mut draw = GameRng::new(seed);
        let setup = BattleSetup {
            terrain: TerrainId((seed % v.terrains.len() as u64) as u8),
            attacker: Fighter::drawn(&v, &pool, 7, &mut draw),
            defender: Fighter::drawn(&v, &pool, 7, &mut draw),
            attacker_edge: v.rules.battle.attacker_edges[0],
            summonable: vec![],
            reinforcements: vec![],
            teleported: false,
        };
        let mut in_place = Battle::new(&v, setup.clone(), GameRng::new(seed)).unwrap();
        let mut played = Battle::new(&v, setup.clone(), GameRng::new(seed)).unwrap();
        let mut copied = Battle::new(&v, setup, GameRng::new(seed)).unwrap();
        copied.keep_undo();
        let (mut p, mut q) = (GameRng::new(seed ^ 7), GameRng::new(seed ^ 7));
        let mut r = GameRng::new(seed ^ 7);
        let mut events = Vec::new();
        while in_place.result().is_none() {
            let a = crate::game::random::random_battle_action(&in_place, &mut p).unwrap();
            let b = crate::game::random::random_battle_action(&copied, &mut q).unwrap();
            assert_eq!(a, b);
            let (mark, copied_mark) = (in_place.rng_mark(), copied.rng_mark());
            let before = copied.fingerprint();
            let first = copied.apply(b.clone()).unwrap();
            if actions % 9 == 0 {
                // Taken back and carried out again.
                assert!(copied.take_back(copied_mark));
                assert_eq!(copied.fingerprint(), before);
                assert_eq!(copied.apply(b).unwrap(), first);
            }
            assert_eq!(in_place.apply(a.clone()).unwrap(), first);
            assert_eq!(in_place.fingerprint(), copied.fingerprint());
            events.clear();
            let done =
                crate::game::random::play_random_battle_action(&mut played, &mut r, &mut events);
            assert!(matches!(done, Ok(true)), "{done:?}");
            assert_eq!(events, first);
            assert_eq!(played.fingerprint(), copied.fingerprint());
            // Changed in place: nothing kept to take back.
            if !in_place.undoable {
                changed_in_place += 1;
                assert!(!in_place.take_back(mark));
            }
            actions += 1;
        }
    }
    assert!(actions > 1000, "{actions}");
    // All but the moves into a defender's area and the carry-overs.
    assert!(
        changed_in_place > actions * 9 / 10,
        "{changed_in_place} of {actions}"
    );
}

/// A battle begun anew in another's place (`restart`) plays as one
/// begun on its own, whatever the battle before it (another
/// battleland, another line-up, unfinished), and so does one that
/// records no events (`without_events`); a setup the variant cannot
/// fight is refused and leaves the battle as it was.
#[test]
fn a_battle_restarted_plays_as_one_begun_anew() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    let v = crate::load(&dir, &Default::default()).unwrap();
    let pool = pool(&v);
    let setup = |seed: u64| {
        let mut draw = GameRng::new(seed);
        BattleSetup {
            terrain: TerrainId((seed % v.terrains.len() as u64) as u8),
            attacker: Fighter::drawn(&v, &pool, 1 + seed as usize % 7, &mut draw),
            defender: Fighter::drawn(&v, &pool, 7, &mut draw),
            attacker_edge: v.rules.battle.attacker_edges[0],
            summonable: vec![],
            reinforcements: vec![],
            teleported: seed.is_multiple_of(5),
        }
    };
    let rng = Rc::new(RefCell::new(GameRng::new(0)));
    // Recording no events, too: the same battles.
    let mut again = Battle::with_scripts(&v, setup(100), rng.clone(), None)
        .unwrap()
        .without_events();
    for seed in 0..30u64 {
        let mut fresh = Battle::new(&v, setup(seed), GameRng::new(seed)).unwrap();
        *rng.borrow_mut() = GameRng::new(seed);
        again.restart(setup(seed)).unwrap();
        assert_eq!(again.fingerprint(), fresh.fingerprint());
        let (mut p, mut q) = (GameRng::new(seed ^ 3), GameRng::new(seed ^ 3));
        let (mut e, mut f) = (Vec::new(), Vec::new());
        // Every fourth battle is left unfinished.
        let mut left = if seed % 4 == 0 { 20 } else { usize::MAX };
        while left > 0 {
            left -= 1;
            e.clear();
            f.clear();
            let a = crate::game::random::play_random_battle_action(&mut fresh, &mut p, &mut e);
            let b = crate::game::random::play_random_battle_action(&mut again, &mut q, &mut f);
            assert!(matches!((&a, &b), (Ok(x), Ok(y)) if x == y), "{a:?} {b:?}");
            assert!(f.is_empty(), "{f:?}");
            assert_eq!(again.fingerprint(), fresh.fingerprint());
            if a.is_ok_and(|played| !played) {
                break;
            }
        }
        assert_eq!(again.result(), fresh.result());
        assert!(fresh.result().is_some() || seed % 4 == 0, "{seed}");
    }
    let before = again.fingerprint();
    let mut bad = setup(1);
    bad.defender.clear();
    assert!(matches!(again.restart(bad), Err(BattleError::Setup(_))));
    assert_eq!(again.fingerprint(), before);
}

#[test]
fn an_action_taken_back_leaves_the_battle_as_before() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    let v = std::sync::Arc::new(crate::load(&dir, &Default::default()).unwrap());
    // Four characters a side drawn from the chart, on the first
    // battleland: core names none of a variant's.
    let pool = pool(&v);
    let mut draw = GameRng::new(3);
    let setup = BattleSetup {
        terrain: TerrainId(0),
        attacker: Fighter::drawn(&v, &pool, 4, &mut draw),
        defender: Fighter::drawn(&v, &pool, 4, &mut draw),
        attacker_edge: v.rules.battle.attacker_edges[0],
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    };
    let mut shared: Battle<'static> =
        Battle::new(v.clone(), setup.clone(), GameRng::new(5)).unwrap();
    let mut borrowed = Battle::new(&*v, setup, GameRng::new(5)).unwrap();
    let mut pick = GameRng::new(9);
    let mut taken = 0;
    while shared.result().is_none() {
        let legal = shared.legal_actions();
        assert_eq!(legal, borrowed.legal_actions());
        let a = legal[pick.int_in(0, legal.len() as i64 - 1) as usize].clone();
        let before = shared.fingerprint();
        let mark = shared.rng_mark();
        let first = shared.apply(a.clone()).unwrap();
        assert!(shared.take_back(mark));
        assert_eq!(shared.fingerprint(), before);
        assert!(!shared.take_back(mark), "only once");
        taken += 1;
        assert_eq!(shared.apply(a.clone()).unwrap(), first);
        assert_eq!(borrowed.apply(a).unwrap(), first);
        // Nothing to take back after a refused action.
        let mark = shared.rng_mark();
        let after = shared.fingerprint();
        assert!(
            shared
                .apply(Action::CarryOver { target: Some(200) })
                .is_err()
        );
        assert!(!shared.take_back(mark));
        assert_eq!(shared.fingerprint(), after);
    }
    assert_eq!(shared.fingerprint(), borrowed.fingerprint());
    assert!(taken > 10, "{taken}");
}
