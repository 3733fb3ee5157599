//! What a player may do now: who is to act and every legal action, with the
//! helpers that list moves, splits, musters, summons and acquisitions.

use super::*;

/// What stands where, seen by `player`.
pub(in crate::game) fn occupancy(game: &Game, player: PlayerId) -> Vec<Occupancy> {
    let mut occ = vec![Occupancy::Empty; game.variant.board.land_count()];
    let mut owners: Vec<Option<PlayerId>> = vec![None; occ.len()];
    for l in &game.state.legions {
        let i = l.land.index();
        occ[i] = match (occ[i], owners[i]) {
            (Occupancy::Empty, _) => {
                if l.owner == player {
                    Occupancy::Friendly
                } else {
                    Occupancy::Enemy
                }
            }
            (_, Some(o)) if o != l.owner => Occupancy::Engaged,
            (o, _) => o,
        };
        owners[i] = Some(l.owner);
    }
    occ
}

/// Lands holding legions of two players.
pub(in crate::game) fn engaged_lands(game: &Game) -> Vec<LandId> {
    let mut lands: Vec<LandId> = Vec::new();
    for (i, a) in game.state.legions.iter().enumerate() {
        for b in &game.state.legions[i + 1..] {
            if a.land == b.land && a.owner != b.owner && !lands.contains(&a.land) {
                lands.push(a.land);
            }
        }
    }
    lands.sort_unstable();
    lands
}

pub(super) fn movement_roll_rule(game: &Game) -> bool {
    game.variant.rules.movement.chosen_distance
}

pub(super) fn mulligan_allowed(game: &Game) -> bool {
    let rule = game.variant.rules.start.mulligan;
    match game.option("mulligan") {
        Some(OptionValue::Bool(b)) => *b && rule,
        _ => rule,
    }
}

/// Teleports a legion may make with the current roll.
pub(super) fn teleports(game: &Game, legion: &Legion, occ: &[Occupancy]) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(roll) = game.state.roll else {
        return out;
    };
    let rules = &game.variant.rules.movement;
    if legion.moved || game.state.teleports >= rules.teleports_per_turn {
        return out;
    }
    let vacant = |l: LandId| occ[l.index()] == Occupancy::Empty;
    if let Some(tt) = &rules.tower_teleport
        && roll == tt.roll
        && game.exits.is_tower(legion.land)
        && has_lord(game, legion)
    {
        let mut targets: Vec<LandId> = game
            .variant
            .board
            .lands()
            .filter(|&l| game.exits.is_tower(l) && l != legion.land && vacant(l))
            .collect();
        targets.extend(
            game.exits
                .within(legion.land, tt.range)
                .into_iter()
                .filter(|&l| vacant(l)),
        );
        targets.sort_unstable();
        targets.dedup();
        let mut lords: Vec<CharacterId> = legion
            .characters
            .iter()
            .copied()
            .filter(|&c| game.variant.class(class_of(game, c)).tower_teleport)
            .collect();
        lords.dedup();
        for to in targets {
            for &lord in &lords {
                out.push(Action::Teleport {
                    legion: legion.marker,
                    to,
                    kind: TeleportKind::Tower,
                    lord,
                });
            }
        }
    }
    if let Some(tt) = &rules.titan_teleport {
        let titan = game.variant.rules.titan.character;
        let score = game.state.players[legion.owner.0 as usize].score;
        if roll == tt.roll && score >= tt.min_score && legion.characters.contains(&titan) {
            for l in game.variant.board.lands() {
                if occ[l.index()] == Occupancy::Enemy {
                    out.push(Action::Teleport {
                        legion: legion.marker,
                        to: l,
                        kind: TeleportKind::Titan,
                        lord: titan,
                    });
                }
            }
        }
    }
    out
}

pub(super) fn normal_moves(game: &Game, legion: &Legion, occ: &[Occupancy]) -> Vec<MoveTarget> {
    match game.state.roll {
        Some(roll) if !legion.moved => game.exits.moves(legion.land, roll, occ),
        _ => Vec::new(),
    }
}

pub(super) fn can_move(game: &Game, legion: &Legion, occ: &[Occupancy]) -> bool {
    !normal_moves(game, legion, occ).is_empty() || !teleports(game, legion, occ).is_empty()
}

/// Every way to divide `pool` into `groups` lists with the same number of
/// each class in each (the starting legions: "three Creatures and one Lord"
/// each). Sorted lists, no duplicates.
pub(super) fn even_splits(
    game: &Game,
    pool: &[CharacterId],
    groups: usize,
) -> Vec<Vec<Vec<CharacterId>>> {
    if groups <= 1 {
        return vec![vec![sorted(pool.to_vec())]];
    }
    let mut per_class: BTreeMap<ClassId, usize> = BTreeMap::new();
    for &c in pool {
        *per_class.entry(class_of(game, c)).or_default() += 1;
    }
    if per_class.values().any(|n| n % groups != 0) {
        return Vec::new();
    }
    let want: BTreeMap<ClassId, usize> = per_class.iter().map(|(&k, &n)| (k, n / groups)).collect();
    let size: usize = want.values().sum();
    let mut firsts = Vec::new();
    sub_multisets(
        &sorted(pool.to_vec()),
        size,
        &mut Vec::new(),
        0,
        &mut firsts,
    );
    let mut out = Vec::new();
    for first in firsts {
        let mut counts: BTreeMap<ClassId, usize> = BTreeMap::new();
        for &c in &first {
            *counts.entry(class_of(game, c)).or_default() += 1;
        }
        if counts != want {
            continue;
        }
        let mut rest = pool.to_vec();
        remove_all(&mut rest, &first);
        for mut tail in even_splits(game, &rest, groups - 1) {
            let mut split = vec![first.clone()];
            split.append(&mut tail);
            let mut key = split.clone();
            key.sort();
            if !out.contains(&key) {
                out.push(key);
            }
        }
    }
    out
}

/// The movement tables of the game's variant, built once per variant and
/// thread (see [`initial_splits`] for the cache).
pub(in crate::game) fn exits_for(variant: &Arc<Variant>) -> Arc<Exits> {
    type Cached = Option<(std::sync::Weak<Variant>, Arc<Exits>)>;
    thread_local! {
        static CACHE: RefCell<Cached> = const { RefCell::new(None) };
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((v, exits)) = &*cache
            && std::ptr::eq(v.as_ptr(), Arc::as_ptr(variant))
        {
            return exits.clone();
        }
        let exits = Arc::new(Exits::new(variant));
        *cache = Some((Arc::downgrade(variant), exits.clone()));
        exits
    })
}

/// The ways to divide the starting characters ([`even_splits`]), listed
/// once per variant and thread: every player's initial split lists them and
/// checks against them. The cache holds a `Weak` of the variant, so its
/// allocation (and address) cannot be reused while the cache names it.
pub(super) fn initial_splits(game: &Game) -> Rc<Vec<Vec<Vec<CharacterId>>>> {
    type Cached = Option<(std::sync::Weak<Variant>, Rc<Vec<Vec<Vec<CharacterId>>>>)>;
    thread_local! {
        static CACHE: RefCell<Cached> = const { RefCell::new(None) };
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((variant, splits)) = &*cache
            && std::ptr::eq(variant.as_ptr(), Arc::as_ptr(&game.variant))
        {
            return splits.clone();
        }
        let groups = game.variant.rules.start.legions as usize;
        let splits = Rc::new(even_splits(game, &starting_characters(game), groups));
        *cache = Some((Arc::downgrade(&game.variant), splits.clone()));
        splits
    })
}

/// Sub-multisets of a sorted list with `size` elements.
pub(super) fn sub_multisets(
    pool: &[CharacterId],
    size: usize,
    current: &mut Vec<CharacterId>,
    from: usize,
    out: &mut Vec<Vec<CharacterId>>,
) {
    if current.len() == size {
        out.push(current.clone());
        return;
    }
    let mut i = from;
    while i < pool.len() {
        current.push(pool[i]);
        sub_multisets(pool, size, current, i + 1, out);
        current.pop();
        // Skip equal characters: multisets, not sequences.
        let c = pool[i];
        while i < pool.len() && pool[i] == c {
            i += 1;
        }
    }
}

/// Sub-multisets of a sorted list with `size` elements, in the order of
/// [`sub_multisets`], each handed to `f` until it returns true (stop).
/// Returns whether it stopped.
fn visit_sub_multisets(
    pool: &[CharacterId],
    size: usize,
    current: &mut Vec<CharacterId>,
    from: usize,
    f: &mut dyn FnMut(&[CharacterId]) -> bool,
) -> bool {
    if current.len() == size {
        return f(current);
    }
    let mut i = from;
    while i < pool.len() {
        current.push(pool[i]);
        let stop = visit_sub_multisets(pool, size, current, i + 1, f);
        current.pop();
        if stop {
            return true;
        }
        let c = pool[i];
        while i < pool.len() && pool[i] == c {
            i += 1;
        }
    }
    false
}

/// What [`visit_splits`] calls with each split: the new legion, the second
/// new legion if any; true stops.
type SplitVisitor<'a> = dyn FnMut(&[CharacterId], Option<&[CharacterId]>) -> bool + 'a;

/// The ways to split a legion (one or two new legions; the rest stays),
/// each handed to `f` until it returns true (stop): listing them need not
/// build them ([`split_count`], [`nth_split`]). Returns whether it stopped.
fn visit_splits(game: &Game, legion: &Legion, markers: usize, f: &mut SplitVisitor<'_>) -> bool {
    let rules = &game.variant.rules.legions;
    let min = rules.min_split_size as usize;
    let n = legion.height();
    if markers == 0 || n < 2 * min {
        return false;
    }
    let three = rules.max_split_parts >= 3 && markers >= 2;
    let mut rest = Vec::with_capacity(n);
    let mut second = Vec::with_capacity(n);
    for size in min..=n - min {
        let stop = visit_sub_multisets(&legion.characters, size, &mut Vec::new(), 0, &mut |part| {
            if f(part, None) {
                return true;
            }
            if !three {
                return false;
            }
            rest.clear();
            rest.extend_from_slice(&legion.characters);
            remove_all(&mut rest, part);
            if rest.len() < 2 * min {
                return false;
            }
            for size2 in min..=rest.len() - min {
                second.clear();
                let stop = visit_sub_multisets(&rest, size2, &mut second, 0, &mut |second| {
                    // Each unordered pair of new legions once.
                    (part.len(), part) <= (second.len(), second) && f(part, Some(second))
                });
                if stop {
                    return true;
                }
            }
            false
        });
        if stop {
            return true;
        }
    }
    false
}

/// The legions `player` may split now (at a Split decision): not split
/// this turn, neither from nor into.
fn splittable<'g>(game: &'g Game, player: PlayerId) -> impl Iterator<Item = &'g Legion> + 'g {
    let s = &game.state;
    s.legions.iter().filter(move |l| {
        l.owner == player
            && l.split_from.is_none()
            && !s.legions.iter().any(|o| o.split_from == Some(l.marker))
    })
}

fn split_action(legion: &Legion, part: &[CharacterId], second: Option<&[CharacterId]>) -> Action {
    let mut parts = vec![part.to_vec()];
    parts.extend(second.map(<[CharacterId]>::to_vec));
    Action::Split {
        legion: legion.marker,
        parts,
    }
}

/// How many `Split` actions [`legal_actions`] lists for `player`.
pub(in crate::game) fn split_count(game: &Game, player: PlayerId) -> usize {
    let markers = game.state.players[player.0 as usize].markers.len();
    let mut n = 0;
    for l in splittable(game, player) {
        visit_splits(game, l, markers, &mut |_, _| {
            n += 1;
            false
        });
    }
    n
}

/// The `k`-th `Split` action [`legal_actions`] lists for `player`.
pub(in crate::game) fn nth_split(game: &Game, player: PlayerId, k: usize) -> Option<Action> {
    let markers = game.state.players[player.0 as usize].markers.len();
    let mut i = 0;
    let mut found = None;
    for l in splittable(game, player) {
        let stop = visit_splits(game, l, markers, &mut |part, second| {
            if i == k {
                found = Some(split_action(l, part, second));
                return true;
            }
            i += 1;
            false
        });
        if stop {
            break;
        }
    }
    found
}

pub(super) fn muster_options(game: &Game, legion: &Legion) -> Vec<MusterOption> {
    let terrain = game.variant.board.land(legion.land).terrain;
    let mut judge = |h: crate::model::HookId, recruit: CharacterId, chars: &[CharacterId]| {
        let name = &game.variant.hooks[h.index()];
        let args: Vec<u16> = std::iter::once(recruit.0)
            .chain(chars.iter().map(|c| c.0))
            .collect();
        let marker = legion.marker.to_string();
        let fields = [
            ("legion", crate::script::F::S(&marker)),
            (
                "land",
                crate::script::F::I(i64::from(game.variant.board.land(legion.land).number)),
            ),
        ];
        call_hook_implicit_ctx::<_, bool>(game, name, &fields, mlua::Variadic::from_iter(args))
            .unwrap_or(false)
    };
    muster::options(&game.variant, terrain, &legion.characters, &mut judge)
        .into_iter()
        .filter(|o| game.state.caretaker[o.recruit.index()] > 0)
        .collect()
}

/// The players who have a decision to make.
pub(in crate::game) fn to_act(game: &Game) -> Vec<PlayerId> {
    let (players, n) = acting(game);
    players[..n].to_vec()
}

/// Is `player` one of [`to_act`]? (Without a list: asked at every action.)
pub(in crate::game) fn is_to_act(game: &Game, player: PlayerId) -> bool {
    let (players, n) = acting(game);
    players[..n].contains(&player)
}

/// [`to_act`] in an array: at most the two engaged players decide at once.
fn acting(game: &Game) -> ([PlayerId; 2], usize) {
    let s = &game.state;
    let none = ([PlayerId(0); 2], 0);
    let one = |p: Option<PlayerId>| match p {
        Some(p) => ([p, p], 1),
        None => none,
    };
    match s.phase {
        Phase::Over => none,
        Phase::InitialSplit => one(Some(s.active)),
        _ => match &s.engagement {
            Some(e) => {
                let owner = |m: Marker| game.legion(m).map(|l| l.owner);
                match &e.step {
                    EngagementStep::DefenderChoice => one(owner(e.defender)),
                    EngagementStep::Battle if game.battle.borrow().is_some() => {
                        // Read from the live battle, without listing.
                        let side = game.battle.borrow().as_ref().map(|b| b.to_act());
                        match side {
                            Some(crate::battle::BattleSide::Attacker) => one(owner(e.attacker)),
                            Some(crate::battle::BattleSide::Defender) => one(owner(e.defender)),
                            None => none,
                        }
                    }
                    EngagementStep::Negotiate { .. } | EngagementStep::Battle => {
                        match (owner(e.attacker), owner(e.defender)) {
                            (Some(a), Some(d)) => ([a, d], 2),
                            (a, d) => one(a.or(d)),
                        }
                    }
                    EngagementStep::After(a) => one(owner(a.winner)),
                }
            }
            None => one(Some(s.active)),
        },
    }
}

pub(in crate::game) fn legal_actions(game: &Game, player: PlayerId) -> Vec<Action> {
    let s = &game.state;
    // Most lists are short: one allocation, not four growing ones.
    let mut out = Vec::with_capacity(16);
    if s.phase == Phase::Over || !s.players.get(player.0 as usize).is_some_and(|p| p.alive) {
        return out;
    }
    if !is_to_act(game, player) {
        out.push(Action::ConcedeGame);
        return out;
    }
    crate::game::events::script_actions(game, player, &mut out);
    match s.phase {
        Phase::Over => {}
        Phase::InitialSplit => {
            for legions in initial_splits(game).iter() {
                out.push(Action::InitialSplit {
                    legions: legions.clone(),
                });
            }
        }
        Phase::Split => {
            let markers = s.players[player.0 as usize].markers.len();
            for l in splittable(game, player) {
                visit_splits(game, l, markers, &mut |part, second| {
                    out.push(split_action(l, part, second));
                    false
                });
            }
            out.push(Action::DoneSplitting);
        }
        Phase::Move => match s.roll {
            None => {
                if movement_roll_rule(game) {
                    for d in 1..=game.variant.rules.movement.die {
                        out.push(Action::Roll { distance: Some(d) });
                    }
                } else {
                    out.push(Action::Roll { distance: None });
                }
            }
            Some(_) => {
                let occ = occupancy(game, player);
                let mine: Vec<&Legion> = s.legions.iter().filter(|l| l.owner == player).collect();
                if mulligan_available(game) {
                    out.push(Action::Mulligan);
                }
                // Which legions can move, for the DoneMoving check (from the
                // lists just made rather than listing every move again).
                let mut movable = Vec::with_capacity(mine.len());
                for l in &mine {
                    let before = out.len();
                    for t in normal_moves(game, l, &occ) {
                        out.push(Action::Move {
                            legion: l.marker,
                            to: t.land,
                            entered_from: t.entered_from,
                        });
                    }
                    out.extend(teleports(game, l, &occ));
                    movable.push(out.len() > before);
                }
                if done_moving_allowed(&mine, &movable).is_ok() {
                    out.push(Action::DoneMoving);
                }
            }
        },
        Phase::Engage | Phase::Muster => {
            if let Some(e) = &s.engagement {
                engagement_actions(game, player, e, &mut out);
            } else if s.phase == Phase::Engage {
                for land in engaged_lands(game) {
                    out.push(Action::Engage { land });
                }
            } else {
                for l in s.legions.iter().filter(|l| l.owner == player) {
                    if l.moved
                        && !l.mustered
                        && game.variant.legion_size(l.characters.iter().copied())
                            < game.variant.rules.legions.max_size as usize
                    {
                        for o in muster_options(game, l) {
                            out.push(Action::Muster {
                                legion: l.marker,
                                recruit: o.recruit,
                                reveal: o.reveal,
                            });
                        }
                    }
                }
                out.push(Action::EndTurn);
            }
        }
    }
    out.push(Action::ConcedeGame);
    out
}

pub(super) fn engagement_actions(
    game: &Game,
    player: PlayerId,
    e: &Engagement,
    out: &mut Vec<Action>,
) {
    if let EngagementStep::After(a) = &e.step {
        after_actions(game, a, out);
        return;
    }
    let (Some(att), Some(def)) = (game.legion(e.attacker), game.legion(e.defender)) else {
        return;
    };
    match &e.step {
        EngagementStep::DefenderChoice => {
            if may_flee(game, def) {
                out.push(Action::Flee);
            }
            out.push(Action::Stand);
        }
        EngagementStep::Negotiate { proposal } => {
            out.push(Action::Concede);
            out.push(Action::Fight);
            // The simplest agreements: one side gives up its whole legion.
            if proposal.is_none() {
                out.push(Action::Propose {
                    attacker_losses: att.characters.clone(),
                    defender_losses: Vec::new(),
                });
                out.push(Action::Propose {
                    attacker_losses: Vec::new(),
                    defender_losses: def.characters.clone(),
                });
            }
            if let Some(p) = proposal
                && p.by != player
            {
                out.push(Action::Accept);
                out.push(Action::Reject);
            }
        }
        EngagementStep::Battle => {
            let listed = with_battle(game, |battle| {
                // One list kept per thread, as the random player's.
                let mut actions = BATTLE_LIST.take();
                actions.clear();
                battle.legal_actions_into(&mut actions);
                // Reference sheet, Engagement: a player may concede the
                // engagement at any time, his own side only; not while
                // carry-over hits wait (the battle engine refuses it then).
                let side = battle.to_act();
                let concede = !actions.is_empty() && battle.carry().is_none();
                out.reserve(actions.len() + 1);
                for a in actions.drain(..) {
                    out.push(Action::Battle { battle: a });
                }
                BATTLE_LIST.set(actions);
                if concede {
                    out.push(Action::Battle {
                        battle: crate::battle::Action::Concede(side),
                    });
                }
            });
            if listed.is_none() {
                out.push(Action::Concede);
            }
        }
        EngagementStep::After(_) => {}
    }
}

thread_local! {
    /// The list a battle's legal actions are listed into, kept between calls.
    static BATTLE_LIST: std::cell::Cell<Vec<crate::battle::Action>> =
        const { std::cell::Cell::new(Vec::new()) };
}

pub(super) fn after_actions(game: &Game, a: &After, out: &mut Vec<Action>) {
    let Some(winner) = game.legion(a.winner) else {
        out.push(Action::DoneAfter);
        return;
    };
    let room = game.variant.legion_size(winner.characters.iter().copied())
        < game.variant.rules.legions.max_size as usize;
    if room && a.summon {
        for (from, c) in summonable(game, winner) {
            out.push(Action::Summon { from, character: c });
        }
    }
    if room && let Some(&threshold) = a.acquisitions.first() {
        for c in acquirable(game, threshold) {
            out.push(Action::Acquire { character: c });
        }
    }
    if room && a.reinforce && !winner.mustered {
        for o in muster_options(game, winner) {
            out.push(Action::Reinforce {
                recruit: o.recruit,
                reveal: o.reveal,
            });
        }
    }
    out.push(Action::DoneAfter);
}

/// Characters that may be summoned into `winner` from the player's other
/// legions not in an unresolved engagement (reference sheet, "Summon Angel").
pub(super) fn summonable(game: &Game, winner: &Legion) -> Vec<(Marker, CharacterId)> {
    let engaged = engaged_lands(game);
    let mut out = Vec::new();
    if game.state.summoned {
        // "One Angel may be summoned per Engagement Phase."
        return out;
    }
    for l in &game.state.legions {
        if l.owner != winner.owner || l.marker == winner.marker || engaged.contains(&l.land) {
            continue;
        }
        let mut kinds: Vec<CharacterId> = l
            .characters
            .iter()
            .copied()
            .filter(|&c| game.variant.character(c).summonable)
            .collect();
        kinds.dedup();
        for c in kinds {
            out.push((l.marker, c));
        }
    }
    out
}

/// What may be acquired for reaching `threshold`: every acquirable whose step
/// divides it and which the caretaker has (Law of the Battlelands 24.A: an
/// Archangel in the stead of an Angel, or an Angel if none is left).
pub(super) fn acquirable(game: &Game, threshold: u32) -> Vec<CharacterId> {
    game.variant
        .rules
        .scoring
        .acquire
        .iter()
        .filter(|&&(c, every)| {
            threshold.is_multiple_of(every) && game.state.caretaker[c.index()] > 0
        })
        .map(|&(c, _)| c)
        .collect()
}

pub(super) fn starting_characters(game: &Game) -> Vec<CharacterId> {
    let mut pool = Vec::new();
    for &(c, n) in &game.variant.rules.start.characters {
        pool.extend(std::iter::repeat_n(c, n as usize));
    }
    sorted(pool)
}

pub(super) fn mulligan_available(game: &Game) -> bool {
    let s = &game.state;
    s.roll.is_some()
        && !s.mulligan_used
        && s.players[s.active.0 as usize].turns == 1
        && mulligan_allowed(game)
        && !s.legions.iter().any(|l| l.owner == s.active && l.moved)
}

/// May the mover end the movement phase now?
pub(super) fn done_moving_check(game: &Game, player: PlayerId) -> Result<(), RuleError> {
    let s = &game.state;
    if s.roll.is_none() {
        return refuse(MOVEMENT, "roll for movement first");
    }
    let occ = occupancy(game, player);
    let mine: Vec<&Legion> = s.legions.iter().filter(|l| l.owner == player).collect();
    let movable: Vec<bool> = mine.iter().map(|l| can_move(game, l, &occ)).collect();
    done_moving_allowed(&mine, &movable)
}

/// [`done_moving_check`] once the roll is made, given the mover's legions
/// and which of them can still move.
fn done_moving_allowed(mine: &[&Legion], movable: &[bool]) -> Result<(), RuleError> {
    if !mine.iter().any(|l| l.moved) && movable.iter().any(|&m| m) {
        return refuse(MOVEMENT, "you must move at least one legion");
    }
    for (l, &can_move) in mine.iter().zip(movable) {
        let together = mine
            .iter()
            .any(|o| o.marker != l.marker && o.land == l.land);
        if together && !l.moved && can_move {
            return refuse(
                COMMENCEMENT,
                format!(
                    "legion {} shares its land with a legion it split from and can still move: split legions must end in different lands if possible",
                    l.marker
                ),
            );
        }
    }
    Ok(())
}
