//! What a player may do now: who is to act and every legal action, with the
//! helpers that list moves, splits, musters, summons and acquisitions.

use super::*;

/// Lists the rules reuse between calls, kept by the game ([`super::Kept`]):
/// listing and checking moves at every action would otherwise allocate them
/// each time.
#[derive(Default)]
pub(in crate::game) struct Scratch {
    /// What stands where ([`occupancy_into`]), and who (its helper).
    pub(in crate::game) occ: Vec<Occupancy>,
    /// By land, the seat (plus one) of the last legion seen there.
    owners: Vec<u16>,
    /// A legion's moves.
    pub(in crate::game) moves: Vec<MoveTarget>,
    /// Which legions (by index in the state) can still move.
    movable: Vec<bool>,
    /// A legion's ways to muster.
    ways: Vec<muster::Way>,
}

/// Calls `f` with the game's [`Scratch`] (a fresh one if a caller up the
/// stack holds it).
pub(in crate::game) fn with_scratch<R>(game: &Game, f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut scratch = game.kept.scratch.take();
    let r = f(&mut scratch);
    game.kept.scratch.set(scratch);
    r
}

/// Calls `f` with what stands where, seen by `player` (indexed by land),
/// and a list for moves, both kept between calls.
pub(in crate::game) fn with_occupancy<R>(
    game: &Game,
    player: PlayerId,
    f: impl FnOnce(&[Occupancy], &mut Vec<MoveTarget>) -> R,
) -> R {
    with_scratch(game, |sc| {
        occupancy_into(game, player, sc);
        f(&sc.occ, &mut sc.moves)
    })
}

/// What stands where, seen by `player`, into `sc.occ`.
fn occupancy_into(game: &Game, player: PlayerId, sc: &mut Scratch) {
    // Under a treaty other players' legions are passed and stood beside.
    let peace = game.variant.at_peace(game.state.turn);
    crate::model::movement::occupancy_into(
        game.state
            .legions
            .iter()
            .filter(|l| !peace || l.owner == player)
            .map(|l| (l.land, l.owner)),
        player,
        game.variant.board.land_count(),
        &mut sc.occ,
        &mut sc.owners,
    );
}

/// Lands holding a legion of the mover and one of another player, engaged:
/// none under a treaty (`rules.movement.treaty_turns`; legions left
/// standing together when it ends engage when one of them is the mover's),
/// nor a shared land, where the mover may challenge instead
/// ([`challenges`]).
pub(in crate::game) fn engaged_lands(game: &Game) -> Vec<LandId> {
    let mut lands: Vec<LandId> = Vec::new();
    visit_engaged(game, &mut |land| {
        if !lands.contains(&land) {
            lands.push(land);
        }
        false
    });
    lands.sort_unstable();
    lands
}

/// Whether [`engaged_lands`] lists any, without listing.
pub(in crate::game) fn any_engaged(game: &Game) -> bool {
    visit_engaged(game, &mut |_| true)
}

/// Hands the land of each engaged pair of legions to `f` until it returns
/// true (stop); returns whether it stopped.
fn visit_engaged(game: &Game, f: &mut dyn FnMut(LandId) -> bool) -> bool {
    if game.variant.at_peace(game.state.turn) {
        return false;
    }
    let legions = &game.state.legions;
    let active = game.state.active;
    legions.iter().enumerate().any(|(i, a)| {
        legions[i + 1..].iter().any(|b| {
            a.land == b.land
                && a.owner != b.owner
                && (a.owner == active || b.owner == active)
                && may_engage(game, a, b)
                && !game.variant.is_shared(a.land)
                && f(a.land)
        })
    })
}

/// The engagements the mover may choose on shared lands (Gods of Titan
/// 10.2: "the Mover may choose whether to engage the enemy Legion ... Only
/// one Engagement per Legion may be executed in each Engagement Phase"):
/// each of his legions there that has not challenged this phase, with each
/// other player's legion there. None under a treaty.
pub(in crate::game) fn challenges(game: &Game) -> Vec<(Marker, Marker)> {
    let s = &game.state;
    let mut out = Vec::new();
    if game.variant.at_peace(s.turn) {
        return out;
    }
    for a in s.legions.iter().filter(|l| {
        l.owner == s.active && game.variant.is_shared(l.land) && !s.challenged.contains(&l.marker)
    }) {
        for d in s
            .legions
            .iter()
            .filter(|d| d.land == a.land && d.owner != a.owner && may_engage(game, a, d))
        {
            out.push((a.marker, d.marker));
        }
    }
    out
}

pub(super) fn movement_roll_rule(game: &Game) -> bool {
    game.variant.rules.movement.chosen_distance
}

/// Each legion moves a distance of its own (`rules.movement.per_legion`).
pub(super) fn per_legion_distance(game: &Game) -> bool {
    game.variant.rules.movement.per_legion
}

/// The distances a legion may move now: every one, where each legion moves
/// its own; else the turn's roll (none before it).
pub(super) fn distances(game: &Game) -> std::ops::RangeInclusive<u8> {
    match (per_legion_distance(game), game.state.roll) {
        (true, _) => 1..=game.variant.rules.movement.die,
        (false, Some(roll)) => roll..=roll,
        #[allow(clippy::reversed_empty_ranges)]
        (false, None) => 1..=0,
    }
}

pub(super) fn mulligan_allowed(game: &Game) -> bool {
    let rule = game.variant.rules.start.mulligan;
    match game.option("mulligan") {
        Some(OptionValue::Bool(b)) => *b && rule,
        _ => rule,
    }
}

/// A full legion that the variant keeps from moving
/// (`rules.legions.full_legions_move: false`).
pub(super) fn held_full(game: &Game, legion: &Legion) -> bool {
    let rules = &game.variant.rules.legions;
    legion.stationed
        || !rules.full_legions_move
            && game.variant.legion_size(legion.characters.iter().copied())
                >= rules.max_size as usize
}

/// Hands the teleports a legion may make with the current roll to `f`
/// until it returns true (stop); returns whether it stopped.
pub(super) fn visit_teleports(
    game: &Game,
    legion: &Legion,
    occ: &[Occupancy],
    f: &mut dyn FnMut(Action) -> bool,
) -> bool {
    let ds = distances(game);
    if ds.start() == ds.end() {
        return visit_teleports_on(game, legion, occ, *ds.start(), f);
    }
    // Several distances (each legion its own): each teleport once.
    let mut seen: Vec<Action> = Vec::new();
    ds.into_iter().any(|d| {
        visit_teleports_on(game, legion, occ, d, &mut |a| {
            if seen.contains(&a) {
                return false;
            }
            seen.push(a.clone());
            f(a)
        })
    })
}

/// [`visit_teleports`] on this roll.
fn visit_teleports_on(
    game: &Game,
    legion: &Legion,
    occ: &[Occupancy],
    roll: u8,
    f: &mut dyn FnMut(Action) -> bool,
) -> bool {
    let rules = &game.variant.rules.movement;
    if legion.moved || game.state.teleports >= rules.teleports_per_turn || held_full(game, legion) {
        return false;
    }
    let occ = &*legion_occ(game, legion, occ);
    let vacant = |l: LandId| occ[l.index()] == Occupancy::Empty;
    if let Some(tt) = &rules.tower_teleport
        && roll == tt.roll
        && game.exits.is_tower(legion.land)
        && has_lord(game, legion)
    {
        let lord = |c: CharacterId| game.variant.class(class_of(game, c)).tower_teleport;
        for &to in game.exits.tower_targets(legion.land) {
            if !vacant(to) {
                continue;
            }
            // Each kind of lord once (the characters are sorted).
            let mut last = None;
            for &c in &legion.characters {
                if last == Some(c) || !lord(c) {
                    continue;
                }
                last = Some(c);
                let a = Action::Teleport {
                    legion: legion.marker,
                    to,
                    kind: TeleportKind::Tower,
                    lord: c,
                };
                if f(a) {
                    return true;
                }
            }
        }
    }
    if let Some(tt) = &rules.titan_teleport {
        let titan = game.variant.rules.titan.character;
        let score = game.state.players[legion.owner.0 as usize].score;
        if roll == tt.roll && score >= tt.min_score && legion.characters.contains(&titan) {
            for l in game.variant.board.lands() {
                if occ[l.index()] == Occupancy::Enemy {
                    let a = Action::Teleport {
                        legion: legion.marker,
                        to: l,
                        kind: TeleportKind::Titan,
                        lord: titan,
                    };
                    if f(a) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// `occ` as `legion` moves: the lands `rules.movement.keep_out` keeps it
/// out of closed.
pub(super) fn legion_occ<'a>(
    game: &Game,
    legion: &Legion,
    occ: &'a [Occupancy],
) -> std::borrow::Cow<'a, [Occupancy]> {
    let mut out = match game.exits.close_for(&legion.characters, occ) {
        Some(closed) => std::borrow::Cow::Owned(closed),
        None => std::borrow::Cow::Borrowed(occ),
    };
    // Under the truce, other players' legions also under it are passed and
    // stood beside (`rules.movement.truce`).
    if game.exits.in_truce(&legion.characters) {
        let legions = &game.state.legions;
        let open: Vec<LandId> = legions
            .iter()
            .filter(|o| {
                o.owner != legion.owner
                    && out.get(o.land.index()) == Some(&Occupancy::Enemy)
                    && legions
                        .iter()
                        .filter(|x| x.land == o.land && x.owner != legion.owner)
                        .all(|x| game.exits.in_truce(&x.characters))
            })
            .map(|o| o.land)
            .collect();
        for land in open {
            out.to_mut()[land.index()] = Occupancy::Empty;
        }
    }
    out
}

/// Whether two legions of different players on one land engage: not under
/// the truce (`rules.movement.truce`), both of them.
pub(in crate::game) fn may_engage(game: &Game, a: &Legion, b: &Legion) -> bool {
    !(game.exits.in_truce(&a.characters) && game.exits.in_truce(&b.characters))
}

/// A legion's normal moves with the current roll, into `out`.
pub(super) fn normal_moves_into(
    game: &Game,
    legion: &Legion,
    occ: &[Occupancy],
    out: &mut Vec<MoveTarget>,
) {
    let occ = &*legion_occ(game, legion, occ);
    if per_legion_distance(game) {
        // Each legion its own distance: the moves of every distance, each
        // land and entry once.
        out.clear();
        if legion.moved || held_full(game, legion) {
            return;
        }
        let mut at = Vec::new();
        for d in 1..=game.variant.rules.movement.die {
            game.exits.moves_into(legion.land, d, occ, &mut at);
            for t in &at {
                if !out.contains(t) {
                    out.push(*t);
                }
            }
        }
        return;
    }
    match game.state.roll {
        Some(roll) if !legion.moved && !held_full(game, legion) => {
            game.exits.moves_into(legion.land, roll, occ, out)
        }
        _ => out.clear(),
    }
}

/// The distance a legion moving on its own distance
/// (`rules.movement.per_legion`) is recorded to have moved to reach
/// `target`: one it may muster after if any reaches it
/// (`muster_distances`), else the longest; None when none reaches it.
pub(super) fn distance_to(
    game: &Game,
    legion: &Legion,
    occ: &[Occupancy],
    target: MoveTarget,
) -> Option<u8> {
    let m = &game.variant.rules.movement;
    let occ = &*legion_occ(game, legion, occ);
    let reaches = |d: u8| game.exits.reaches(legion.land, d, occ, target);
    m.muster_distances
        .iter()
        .copied()
        .find(|&d| reaches(d))
        .or_else(|| (1..=m.die).rev().find(|&d| reaches(d)))
}

/// Whether `legion` can move or teleport by a distance it may move now.
pub(super) fn can_move(game: &Game, legion: &Legion, occ: &[Occupancy]) -> bool {
    if legion.moved || held_full(game, legion) {
        return false;
    }
    let occ = &*legion_occ(game, legion, occ);
    distances(game).any(|d| {
        game.exits.can_move(legion.land, d, occ)
            || visit_teleports_on(game, legion, occ, d, &mut |_| true)
    })
}

/// Whether the mover's `legion` need not move where every legion must
/// (`rules.movement.must_move`): on his own starting tower, or on a land
/// of a terrain exempted.
fn exempt_from_moving(game: &Game, legion: &Legion) -> bool {
    let Some(rule) = &game.variant.rules.movement.must_move else {
        return true;
    };
    if legion.stationed {
        return true;
    }
    let own_tower = game.state.players[legion.owner.0 as usize].tower == Some(legion.land);
    let terrain = game.variant.board.land(legion.land).terrain;
    rule.exempts(&game.variant.terrains[terrain.index()].name, own_tower)
}

/// Whether the player whose turn it is may muster one more `recruit` this
/// turn (`rules.legions.muster_per_turn`).
pub(super) fn muster_limit_allows(game: &Game, recruit: CharacterId) -> bool {
    let limits = &game.variant.rules.legions.muster_per_turn;
    if limits.is_empty() {
        return true;
    }
    let name = |c: CharacterId| game.variant.character(c).name.as_str();
    limits.iter().all(|limit| {
        let of = |c: CharacterId| limit.characters.iter().any(|n| n == name(c));
        !of(recruit)
            || game.state.mustered.iter().filter(|&&c| of(c)).count() < usize::from(limit.count)
    })
}

/// Whether `legion` may muster from its land's table after its move this
/// turn (`rules.movement.muster_distances`).
pub(super) fn moved_to_muster(game: &Game, legion: &Legion) -> bool {
    legion.moved && game.variant.rules.movement.musters_after(legion.distance)
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

/// Every division of `pool` into `groups` legions of at least
/// `legions.min_split_size` and at most `max_size` characters each, with the
/// characters of `start.apart` in different legions (Gods of Titan 5.7);
/// each sorted, as [`even_splits`] gives them.
pub(super) fn free_splits(
    game: &Game,
    pool: &[CharacterId],
    groups: usize,
) -> Vec<Vec<Vec<CharacterId>>> {
    let v = &game.variant;
    let min = usize::from(v.rules.legions.min_split_size).max(1);
    let max = usize::from(v.rules.legions.max_size);
    let apart = &v.rules.start.apart;
    let fits = |part: &[CharacterId]| {
        part.len() >= min
            && v.legion_size(part.iter().copied()) <= max
            && part.iter().filter(|c| apart.contains(c)).count() <= 1
    };
    let mut out: Vec<Vec<Vec<CharacterId>>> = Vec::new();
    if groups <= 1 {
        let all = sorted(pool.to_vec());
        if fits(&all) {
            out.push(vec![all]);
        }
        return out;
    }
    let pool = sorted(pool.to_vec());
    for size in min..=pool.len().saturating_sub(min * (groups - 1)) {
        let mut firsts = Vec::new();
        sub_multisets(&pool, size, &mut Vec::new(), 0, &mut firsts);
        for first in firsts.into_iter().filter(|f| fits(f)) {
            let mut rest = pool.clone();
            remove_all(&mut rest, &first);
            for mut tail in free_splits(game, &rest, groups - 1) {
                let mut split = vec![first.clone()];
                split.append(&mut tail);
                split.sort();
                if !out.contains(&split) {
                    out.push(split);
                }
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
        let start = &game.variant.rules.start;
        let groups = start.legions as usize;
        let pool = starting_characters(game);
        let splits = Rc::new(if start.even_classes {
            even_splits(game, &pool, groups)
        } else {
            free_splits(game, &pool, groups)
        });
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
    let mut current = Vec::with_capacity(n);
    for size in min..=n - min {
        current.clear();
        let stop = visit_sub_multisets(&legion.characters, size, &mut current, 0, &mut |part| {
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
            && !l.stationed
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
    splittable(game, player)
        .map(|l| legion_split_count(game, l, markers))
        .sum()
}

/// How many splits [`visit_splits`] visits for `legion`. The count depends
/// only on the legion's characters and the split rules, so it is counted
/// once per game for each (in the game's cache, emptied when full; a legion
/// too tall for the cache's key is counted each time).
fn legion_split_count(game: &Game, legion: &Legion, markers: usize) -> usize {
    let rules = &game.variant.rules.legions;
    let min = rules.min_split_size;
    if markers == 0 || legion.height() < 2 * min as usize {
        return 0;
    }
    let three = rules.max_split_parts >= 3 && markers >= 2;
    let count = || {
        let mut n = 0;
        visit_splits(game, legion, markers, &mut |_, _| {
            n += 1;
            false
        });
        n
    };
    // The key: each character's id (plus one) in 17 bits, seven to a word,
    // then the rules.
    if legion.height() > 14 {
        return count();
    }
    let word = |cs: &[CharacterId]| {
        cs.iter()
            .fold(0u128, |k, c| (k << 17) | (u128::from(c.0) + 1))
    };
    let (low, high) = legion.characters.split_at(legion.height().min(7));
    let key = (
        word(low),
        word(high) | (u128::from(three) << 119) | (u128::from(min) << 120),
    );
    if let Some(&n) = game.kept.split_counts.borrow().get(&key) {
        return n;
    }
    let n = count();
    let mut counts = game.kept.split_counts.borrow_mut();
    if counts.len() >= 4096 {
        counts.clear();
    }
    counts.insert(key, n);
    n
}

/// The `k`-th `Split` action [`legal_actions`] lists for `player`.
pub(in crate::game) fn nth_split(game: &Game, player: PlayerId, mut k: usize) -> Option<Action> {
    let markers = game.state.players[player.0 as usize].markers.len();
    for l in splittable(game, player) {
        // Only the legion the split is of is gone through.
        let n = legion_split_count(game, l, markers);
        if k >= n {
            k -= n;
            continue;
        }
        let mut i = 0;
        let mut found = None;
        visit_splits(game, l, markers, &mut |part, second| {
            if i == k {
                found = Some(split_action(l, part, second));
                return true;
            }
            i += 1;
            false
        });
        return found;
    }
    None
}

pub(super) fn muster_options(game: &Game, legion: &Legion) -> Vec<MusterOption> {
    let mut out = muster_options_all(game, legion);
    // A character's `per_legion` limit (Gods of Titan 4.3).
    out.retain(|o| game.variant.room_for(&legion.characters, o.recruit));
    out
}

/// [`muster_options`] before the limits per legion.
fn muster_options_all(game: &Game, legion: &Legion) -> Vec<MusterOption> {
    let terrain = game.variant.board.land(legion.land).terrain;
    let options = muster::options(
        &game.variant,
        terrain,
        &legion.characters,
        &mut muster_judge(game, legion),
    )
    .into_iter();
    if !smaller_allowed(game, terrain) {
        return options
            .filter(|o| game.state.caretaker[o.recruit.index()] > 0)
            .collect();
    }
    let mut out = std::collections::BTreeSet::new();
    for o in options {
        if game.state.caretaker[o.recruit.index()] > 0 {
            out.insert(o);
        } else {
            smaller_instead(game, legion, o.recruit, |recruit| {
                out.insert(MusterOption {
                    recruit,
                    reveal: o.reveal.clone(),
                });
            });
        }
    }
    out.into_iter().collect()
}

/// Whether `terrain`'s table offers smaller characters for an exhausted
/// one (`WhenExhausted::Smaller`).
fn smaller_allowed(game: &Game, terrain: crate::ids::TerrainId) -> bool {
    game.variant.mustering[terrain.index()].when_exhausted == crate::format::WhenExhausted::Smaller
}

/// The characters a legion may muster instead of `exhausted`, which the
/// caretaker has run out of: those of the lower rows of the land's table
/// that the legion does not contain and the caretaker has (Law of Titan
/// 1980, 17.E: "a smaller Creature which it does not already contain, but
/// only from a Terrain in which the larger Creature is found").
fn smaller_instead(
    game: &Game,
    legion: &Legion,
    exhausted: CharacterId,
    mut f: impl FnMut(CharacterId),
) {
    let terrain = game.variant.board.land(legion.land).terrain;
    if !smaller_allowed(game, terrain) {
        return;
    }
    let rows = &game.variant.mustering[terrain.index()].rows;
    let Some(at) = rows.iter().position(|r| r.character == exhausted) else {
        return;
    };
    for r in &rows[..at] {
        let c = r.character;
        if !legion.characters.contains(&c) && game.state.caretaker[c.index()] > 0 {
            f(c);
        }
    }
}

/// [`muster_options`] as [`muster::Way`]s handed to `f` in its order,
/// listed in a kept list.
pub(super) fn muster_ways(game: &Game, legion: &Legion, mut emit: impl FnMut(muster::Way)) {
    // A character's `per_legion` limit (Gods of Titan 4.3).
    let mut f = |w: muster::Way| {
        if game.variant.room_for(&legion.characters, w.recruit) {
            emit(w)
        }
    };
    let terrain = game.variant.board.land(legion.land).terrain;
    with_scratch(game, |sc| {
        let judge = &mut muster_judge(game, legion);
        muster::ways_into(
            &game.variant,
            terrain,
            &legion.characters,
            judge,
            &mut sc.ways,
        );
        if !smaller_allowed(game, terrain) {
            for &w in &sc.ways {
                if game.state.caretaker[w.recruit.index()] > 0 {
                    f(w);
                }
            }
            return;
        }
        // An exhausted stack's smaller characters where the table allows
        // them, in the order of the rest (as `muster_options` lists them).
        let mut all = Vec::with_capacity(sc.ways.len());
        for &w in &sc.ways {
            if game.state.caretaker[w.recruit.index()] > 0 {
                all.push(w);
            } else {
                smaller_instead(game, legion, w.recruit, |recruit| {
                    all.push(muster::Way { recruit, ..w })
                });
            }
        }
        all.sort();
        all.dedup();
        all.into_iter().for_each(f);
    });
}

/// Whether [`muster_options`] lists `option`, without listing.
pub(super) fn may_muster(game: &Game, legion: &Legion, option: &MusterOption) -> bool {
    let mut found = false;
    muster_ways(game, legion, |w| found |= w.is(option));
    found
}

/// Decides a mustering table's `Hook` needs for `legion` by its script.
fn muster_judge<'g>(
    game: &'g Game,
    legion: &'g Legion,
) -> impl FnMut(crate::model::HookId, CharacterId, &[CharacterId]) -> bool + 'g {
    move |h, recruit, chars| {
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
    }
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
pub(in crate::game) fn acting(game: &Game) -> ([PlayerId; 2], usize) {
    let s = &game.state;
    let none = ([PlayerId(0); 2], 0);
    let one = |p: Option<PlayerId>| match p {
        Some(p) => ([p, p], 1),
        None => none,
    };
    if s.showdown.is_some() && s.phase != Phase::Over {
        return one(showdown::acting(game));
    }
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
    // Most lists are short: one allocation, not four growing ones.
    let mut out = Vec::with_capacity(16);
    legal_actions_into(game, player, &mut out);
    out
}

/// [`legal_actions`] appended to `out` (a caller that lists at every
/// action keeps one list).
pub(in crate::game) fn legal_actions_into(game: &Game, player: PlayerId, out: &mut Vec<Action>) {
    let s = &game.state;
    if s.phase == Phase::Over || !s.players.get(player.0 as usize).is_some_and(|p| p.alive) {
        return;
    }
    if s.showdown.is_some() {
        // Nobody leaves a showdown but by its battle.
        showdown::legal(game, player, out);
        return;
    }
    if !is_to_act(game, player) {
        out.push(Action::ConcedeGame);
        return;
    }
    let start = out.len();
    // A further choice a script asked for comes before anything else.
    if let Some(name) = &s.choice
        && player == s.active
    {
        crate::game::events::choice_actions(game, player, name, out);
        if out.len() > start {
            out.push(Action::ConcedeGame);
            return;
        }
    }
    crate::game::events::script_actions(game, player, out);
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
        // Where each legion moves its own distance there is no roll: every
        // legion's moves of every distance are listed.
        Phase::Move => match (s.roll, per_legion_distance(game)) {
            (None, false) => {
                if movement_roll_rule(game) {
                    for d in 1..=game.variant.rules.movement.die {
                        out.push(Action::Roll { distance: Some(d) });
                    }
                } else {
                    out.push(Action::Roll { distance: None });
                }
            }
            _ => with_scratch(game, |sc| {
                occupancy_into(game, player, sc);
                if mulligan_available(game) {
                    out.push(Action::Mulligan);
                }
                // Which legions can move, for the DoneMoving check (from the
                // lists just made rather than listing every move again).
                sc.movable.clear();
                sc.movable.resize(s.legions.len(), false);
                for (i, l) in s.legions.iter().enumerate() {
                    if l.owner != player {
                        continue;
                    }
                    let before = out.len();
                    normal_moves_into(game, l, &sc.occ, &mut sc.moves);
                    for t in &sc.moves {
                        out.push(Action::Move {
                            legion: l.marker,
                            to: t.land,
                            entered_from: t.entered_from,
                        });
                    }
                    visit_teleports(game, l, &sc.occ, &mut |a| {
                        out.push(a);
                        false
                    });
                    sc.movable[i] = out.len() > before;
                }
                if done_moving_blocked(game, player, |i, _| sc.movable[i]).is_none() {
                    out.push(Action::DoneMoving);
                }
            }),
        },
        Phase::Engage | Phase::Muster => {
            if let Some(e) = &s.engagement {
                engagement_actions(game, player, e, out);
            } else if s.phase == Phase::Engage {
                let engaged = engaged_lands(game);
                for &land in &engaged {
                    out.push(Action::Engage { land });
                }
                let chosen = challenges(game);
                for &(attacker, defender) in &chosen {
                    out.push(Action::Challenge { attacker, defender });
                }
                if engaged.is_empty() && !chosen.is_empty() {
                    out.push(Action::DoneEngaging);
                }
            } else {
                for l in s.legions.iter().filter(|l| l.owner == player) {
                    if moved_to_muster(game, l)
                        && !l.mustered
                        && game.variant.legion_size(l.characters.iter().copied())
                            < game.variant.rules.legions.max_size as usize
                    {
                        muster_ways(game, l, |w| {
                            if !muster_limit_allows(game, w.recruit) {
                                return;
                            }
                            out.push(Action::Muster {
                                legion: l.marker,
                                recruit: w.recruit,
                                reveal: w.reveal(),
                            });
                        });
                    }
                }
                out.push(Action::EndTurn);
            }
        }
    }
    hold_in_phase(game, player, out, start);
    out.push(Action::ConcedeGame);
}

/// The end of a phase or turn (`DoneSplitting`, `DoneMoving`, `EndTurn`)
/// in `out[start..]`, left out while the scripts hold the player in his
/// phase (`may_end_phase`) and he has something else he may do: a player
/// is never left with nothing but conceding.
fn hold_in_phase(game: &Game, player: PlayerId, out: &mut Vec<Action>, start: usize) {
    let is_end = |a: &Action| {
        matches!(
            a,
            Action::DoneSplitting | Action::DoneMoving | Action::DoneEngaging | Action::EndTurn
        )
    };
    if out.len() - start < 2 || !out[start..].iter().any(is_end) {
        return;
    }
    match crate::game::events::end_refused(game, player) {
        Ok(Some(_)) => {
            let mut i = start;
            while i < out.len() {
                if is_end(&out[i]) {
                    out.remove(i);
                } else {
                    i += 1;
                }
            }
        }
        Ok(None) => {}
        Err(e) => {
            if let Some(h) = &game.hooks {
                h.failure.borrow_mut().get_or_insert(e);
            }
        }
    }
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
                // One list kept by the game, as the random player's.
                let mut actions = game.kept.battle_list.take();
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
                game.kept.battle_list.set(actions);
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
        for c in acquirable(game, winner, threshold) {
            out.push(Action::Acquire { character: c });
        }
    }
    if room && a.reinforce && !winner.mustered {
        muster_ways(game, winner, |w| {
            out.push(Action::Reinforce {
                recruit: w.recruit,
                reveal: w.reveal(),
            });
        });
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
            .filter(|&c| game.variant.room_for(&winner.characters, c))
            .collect();
        kinds.dedup();
        for c in kinds {
            out.push((l.marker, c));
        }
    }
    out
}

/// What `legion` may acquire for reaching `threshold`: every acquirable whose
/// step divides it, which its land's terrain allows and which the caretaker
/// has (Law of the Battlelands 24.A: an Archangel in the stead of an Angel,
/// or an Angel if none is left).
pub(super) fn acquirable(game: &Game, legion: &Legion, threshold: u32) -> Vec<CharacterId> {
    let terrain = game.variant.board.land(legion.land).terrain;
    game.variant
        .rules
        .scoring
        .acquire
        .iter()
        .filter(|a| {
            threshold.is_multiple_of(a.every)
                && (a.terrains.is_empty() || a.terrains.contains(&terrain))
                && game.state.caretaker[a.character.index()] > 0
                && game.variant.room_for(&legion.characters, a.character)
        })
        .map(|a| a.character)
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
    if game.state.roll.is_none() && !per_legion_distance(game) {
        return refuse(MOVEMENT, "roll for movement first");
    }
    let blocked = with_occupancy(game, player, |occ, _| {
        done_moving_blocked(game, player, |_, l| can_move(game, l, occ))
    });
    match blocked {
        None => Ok(()),
        Some(NotDone::NoneMoved) => refuse(MOVEMENT, "you must move at least one legion"),
        Some(NotDone::MustMove(marker)) => refuse(
            MOVEMENT,
            format!("legion {marker} can move and must: every legion that can move must"),
        ),
        Some(NotDone::Shared(limit)) => {
            let v = &game.variant;
            let mut names: Vec<&str> = v
                .terrains
                .iter()
                .filter(|t| t.shared)
                .map(|t| t.name.as_str())
                .collect();
            names.dedup();
            refuse(
                MOVEMENT,
                format!(
                    "at most {limit} of your legions may stand in {} together at the end of your movement: move one out",
                    names.join(" and ")
                ),
            )
        }
        Some(NotDone::Together(marker)) => refuse(
            COMMENCEMENT,
            format!(
                "legion {marker} shares its land with a legion it split from and can still move: split legions must end in different lands if possible"
            ),
        ),
    }
}

/// Why the mover may not end the movement phase yet.
enum NotDone {
    /// No legion has moved, and one can.
    NoneMoved,
    /// This legion shares its land with one it split from, and can move.
    Together(Marker),
    /// Every legion must move (`rules.movement.must_move`), and this one
    /// can.
    MustMove(Marker),
    /// More of the mover's legions than this stand on shared lands
    /// (`rules.movement.shared_limit`).
    Shared(u8),
}

/// [`done_moving_check`] once the roll is made, given which of the mover's
/// legions can still move (`movable`, with the legion's index in the
/// state): None when the mover may end the phase (no message is written
/// for the listing, which only asks).
fn done_moving_blocked(
    game: &Game,
    player: PlayerId,
    movable: impl Fn(usize, &Legion) -> bool,
) -> Option<NotDone> {
    let legions = &game.state.legions;
    let mine = || {
        legions
            .iter()
            .enumerate()
            .filter(move |(_, l)| l.owner == player)
    };
    if game.variant.rules.movement.must_move.is_some()
        && let Some((_, l)) =
            mine().find(|&(i, l)| !l.moved && !exempt_from_moving(game, l) && movable(i, l))
    {
        return Some(NotDone::MustMove(l.marker));
    }
    if let Some(limit) = game.variant.rules.movement.shared_limit {
        let shared = mine()
            .filter(|(_, l)| game.variant.is_shared(l.land))
            .count();
        if shared > usize::from(limit) {
            return Some(NotDone::Shared(limit));
        }
    }
    // Where every legion must move, those exempt need not (Gods of Titan
    // 8.4), so "at least one" does not hold.
    if game.variant.rules.movement.must_move.is_none()
        && !mine().any(|(_, l)| l.moved)
        && mine().any(|(i, l)| movable(i, l))
    {
        return Some(NotDone::NoneMoved);
    }
    for (i, l) in mine() {
        // On a shared land they may stay together (`shared_limit` counts).
        let together = !game.variant.is_shared(l.land)
            && mine().any(|(_, o)| o.marker != l.marker && o.land == l.land);
        if together && !l.moved && movable(i, l) {
            return Some(NotDone::Together(l.marker));
        }
    }
    None
}
