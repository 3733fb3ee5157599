//! The masterboard of Gods of Titan (`variants/gods-of-titan/masterboard.ron`,
//! our design: the printed board is a picture our sources lack). These tests
//! hold it to what the rulebook's text fixes (EN = gods-of-titan-en.txt,
//! DE = gods-of-titan-de.txt, by section and line) and to the shape the
//! README describes ("The masterboard (ours)").

mod common;

use std::collections::{HashMap, HashSet, VecDeque};

use titan_core::Variant;
use titan_core::format::Sign;
use titan_core::model::LandId;

fn got() -> Variant {
    titan_core::load(
        &common::root().join("variants/gods-of-titan"),
        &common::options(),
    )
    .unwrap_or_else(|e| panic!("gods-of-titan does not load: {e:?}"))
}

fn terrain(v: &Variant, l: LandId) -> &str {
    &v.terrains[v.board.land(l).terrain.index()].name
}

fn of_terrain(v: &Variant, name: &str) -> Vec<LandId> {
    v.board.lands().filter(|&l| terrain(v, l) == name).collect()
}

fn one(v: &Variant, name: &str) -> LandId {
    let lands = of_terrain(v, name);
    assert_eq!(lands.len(), 1, "{name}");
    lands[0]
}

fn num(v: &Variant, l: LandId) -> u32 {
    v.board.land(l).number
}

/// Every sign on the board: (from, sign, to).
fn signs(v: &Variant) -> Vec<(LandId, Sign, LandId)> {
    v.board
        .lands()
        .flat_map(|l| v.board.exits(l).map(move |(s, to)| (l, s, to)))
        .collect()
}

/// A land's centre on the drawing grid (ARCHITECTURE.md, "Masterboard
/// grid"), in screen coordinates (y grows downward).
fn centre(v: &Variant, l: LandId) -> (f64, f64) {
    let p = v.board.land(l).position;
    let up = (p.x + p.y).rem_euclid(2) == 1;
    let drop = if up { 2.0 / 3.0 } else { 1.0 / 3.0 };
    (
        f64::from(p.x) * 0.5,
        (f64::from(p.y) + drop) * 3f64.sqrt() / 2.0,
    )
}

/// The direction of `l` seen from the City, growing clockwise on the
/// screen (radians).
fn bearing(v: &Variant, l: LandId) -> f64 {
    let (cx, cy) = centre(v, one(v, "City"));
    let (x, y) = centre(v, l);
    (y - cy).atan2(x - cx)
}

/// Fewest lands moved, following the signs, from `from` to every land, not
/// passing City or Dungeon (their ways out are no moves, 8.6).
fn steps(v: &Variant, from: LandId) -> HashMap<LandId, u32> {
    let centre: HashSet<LandId> = [one(v, "City"), one(v, "Dungeon")].into();
    let mut d = HashMap::from([(from, 0)]);
    let mut q = VecDeque::from([from]);
    while let Some(l) = q.pop_front() {
        for (_, to) in v.board.exits(l) {
            if !centre.contains(&to) && !d.contains_key(&to) {
                d.insert(to, d[&l] + 1);
                q.push_back(to);
            }
        }
    }
    d
}

#[test]
fn every_terrain_is_on_the_board_and_the_towers_are_three_of_each() {
    let v = got();
    // 2.1 (EN 46): 21 terrains, and City and Dungeon (8.6): every terrain of
    // terrains.ron has lands.
    for t in &v.terrains {
        assert!(!of_terrain(&v, &t.name).is_empty(), "no {} land", t.name);
    }
    assert_eq!(v.terrains.len(), 23);
    // 5.4, 5.6 (EN 142, 153-158): a Tower per Titan-player (3), the Darklord's
    // three Darktowers, and nine gray towers: 3 Ruins, 3 Forts, 3 Citytowers.
    for t in ["Tower", "Darktower", "Ruin", "Fort", "Citytower"] {
        assert_eq!(of_terrain(&v, t).len(), 3, "{t}");
    }
    // 8.6 (EN 231): "The City ring is combined to one land", and so the
    // Dungeon ring.
    one(&v, "City");
    one(&v, "Dungeon");
    // 2.1: "a network of hundreds of spaces": ours is 182.
    let n = v.board.land_count();
    assert!((120..=190).contains(&n), "{n} lands");
    // Land numbers are unique (the loader keys lands by number).
    let numbers: HashSet<u32> = v.board.lands().map(|l| num(&v, l)).collect();
    assert_eq!(numbers.len(), n);
}

#[test]
fn the_city_is_entered_from_the_citytowers_and_the_dungeon_from_the_darktowers() {
    let v = got();
    let (city, dungeon) = (one(&v, "City"), one(&v, "Dungeon"));
    let all = signs(&v);
    for (centre, tower) in [(city, "Citytower"), (dungeon, "Darktower")] {
        // 8.6 (EN 217): "The City can only be entered via the Citytower, the
        // Dungeon can only be entered through a Darktower."
        let into: HashSet<LandId> = all
            .iter()
            .filter(|&&(_, _, to)| to == centre)
            .map(|&(from, _, _)| from)
            .collect();
        let towers: HashSet<LandId> = of_terrain(&v, tower).into_iter().collect();
        assert_eq!(into, towers, "into {}", terrain(&v, centre));
        // 8.6 (EN 231): a move "through the Tower into the City ring" (arrow
        // 1): a Triple Arrow, which a legion may follow at the start of a
        // move or must follow going on from the tower (8.5).
        for &(from, sign, to) in &all {
            if to == centre {
                assert_eq!(
                    sign,
                    Sign::TripleArrow,
                    "{} -> {}",
                    num(&v, from),
                    num(&v, to)
                );
            }
        }
        // 8.6 (EN 231): "Moving out of the City is done with an automatic
        // movement ... to any Citytower ... This procedure likewise applies to
        // the Darktower and the Dungeon ring": out to each of its own towers,
        // nowhere else.
        // A Gate each: the free passage the move goes on from (format).
        let out: HashSet<LandId> = v.board.exits(centre).map(|(_, to)| to).collect();
        assert_eq!(out, towers, "out of {}", terrain(&v, centre));
        assert!(v.board.exits(centre).all(|(s, _)| s == Sign::Gate));
    }
    // 5.7 (EN 163), 10.2 (DE 695-697): "City and Dungeon do not have direct
    // connection"; 8.6 (EN 231): City legions "can't leave via the Darktower
    // and vice versa".
    assert!(
        !all.iter()
            .any(|&(a, _, b)| (a, b) == (city, dungeon) || (a, b) == (dungeon, city))
    );
}

#[test]
fn citytowers_and_darktowers_alternate_around_the_city() {
    // 5.8 (EN 169, DE 379-383): the first move leaves by "the Citytower next
    // in clockwise direction" from a Darktower: both kinds stand around the
    // centre, and we make them alternate.
    let v = got();
    let mut ring: Vec<LandId> = of_terrain(&v, "Citytower");
    ring.extend(of_terrain(&v, "Darktower"));
    ring.sort_by(|&a, &b| bearing(&v, a).total_cmp(&bearing(&v, b)));
    for w in ring.windows(2) {
        assert_ne!(terrain(&v, w[0]), terrain(&v, w[1]));
    }
}

/// 5.8 (EN 169, DE 379-383): "First look for the nearest Darktower from
/// their own Tower. The first movement is made through the Citytower next in
/// clockwise direction." Nearest by lands moved along the signs, and also by
/// distance on the board: both must name one Darktower.
fn first_citytower(v: &Variant, tower: LandId) -> (LandId, LandId) {
    let d = steps(v, tower);
    let mut darktowers = of_terrain(v, "Darktower");
    darktowers.sort_by_key(|l| d[l]);
    assert!(
        d[&darktowers[0]] < d[&darktowers[1]],
        "Tower {}: two Darktowers equally near",
        num(v, tower)
    );
    let dark = darktowers[0];
    let far = |l: LandId| {
        let ((x, y), (a, b)) = (centre(v, tower), centre(v, l));
        (x - a).hypot(y - b)
    };
    darktowers.sort_by(|&a, &b| far(a).total_cmp(&far(b)));
    assert_eq!(darktowers[0], dark, "Tower {}", num(v, tower));
    assert!(far(darktowers[0]) < far(darktowers[1]));
    let tau = std::f64::consts::TAU;
    let citytower = of_terrain(v, "Citytower")
        .into_iter()
        .min_by(|&a, &b| {
            let turn = |l: LandId| (bearing(v, l) - bearing(v, dark)).rem_euclid(tau);
            turn(a).total_cmp(&turn(b))
        })
        .unwrap();
    (dark, citytower)
}

#[test]
fn each_tower_has_one_nearest_darktower_and_its_own_first_citytower() {
    let v = got();
    let towers = of_terrain(&v, "Tower");
    let mut firsts = HashSet::new();
    let mut by_number = Vec::new();
    for &t in &towers {
        let (dark, city) = first_citytower(&v, t);
        by_number.push((num(&v, t), num(&v, dark), num(&v, city)));
        firsts.insert(city);
    }
    by_number.sort();
    // Each Titan-player leaves the City by a Citytower of his own.
    assert_eq!(firsts.len(), 3, "{by_number:?}");
    // The numbers the README gives.
    assert_eq!(
        by_number,
        [(307, 103, 105), (319, 107, 109), (331, 111, 101)]
    );
}

#[test]
fn the_sea_touches_only_sea_and_coast() {
    let v = got();
    let water = |l: LandId| matches!(terrain(&v, l), "Sea" | "Coast");
    // 3.10 (EN 96), 8.5 (DE 574-576, "Sea-Felder"): characters without wave symbols "may
    // neither enter nor cross the Sea"; 27.4 (EN 636, DE 1826-1827):
    // Sea-Legions are "bound to the outside ring of Sea and Coast lands":
    // a Sea land's signs, out and in, join it to Sea or Coast only (a Whirl
    // is a Sea land).
    for (from, _, to) in signs(&v) {
        if terrain(&v, from) == "Sea" || terrain(&v, to) == "Sea" {
            assert!(
                water(from) && water(to),
                "{} -> {}",
                num(&v, from),
                num(&v, to)
            );
        }
    }
    // ... and on the drawing too: no Sea land borders the mainland.
    let at: HashMap<_, _> = v
        .board
        .lands()
        .map(|l| (v.board.land(l).position, l))
        .collect();
    for l in of_terrain(&v, "Sea") {
        let p = v.board.land(l).position;
        let third = if (p.x + p.y).rem_euclid(2) == 1 {
            1
        } else {
            -1
        };
        for (dx, dy) in [(-1, 0), (1, 0), (0, third)] {
            let q = titan_core::format::GridPos {
                x: p.x + dx,
                y: p.y + dy,
            };
            if let Some(&n) = at.get(&q) {
                assert!(water(n), "Sea {} borders {}", num(&v, l), num(&v, n));
            }
        }
    }
    // Coast lies between the mainland and the Sea: each Coast land has a
    // sign to the Sea and one to a land that is neither.
    for l in of_terrain(&v, "Coast") {
        let to: Vec<LandId> = v.board.exits(l).map(|(_, t)| t).collect();
        assert!(
            to.iter().any(|&t| terrain(&v, t) == "Sea"),
            "{}",
            num(&v, l)
        );
        assert!(to.iter().any(|&t| !water(t)), "{}", num(&v, l));
    }
    // The Sea and Coast ring is closed: from any of them a Sea-Legion
    // reaches every other without leaving the water (27.4).
    let ring: Vec<LandId> = v.board.lands().filter(|&l| water(l)).collect();
    let mut seen = HashSet::from([ring[0]]);
    let mut q = VecDeque::from([ring[0]]);
    while let Some(l) = q.pop_front() {
        for (_, t) in v.board.exits(l) {
            if water(t) && seen.insert(t) {
                q.push_back(t);
            }
        }
    }
    assert_eq!(seen.len(), ring.len());
}

#[test]
fn there_are_whirls_darklands_and_wastelands() {
    let v = got();
    // 9.2 (EN 239): Whirls teleport Sea-Legions "to any other Whirl": ours are
    // Sea lands named "Whirl" (2.1 counts 21 terrains, and a Whirl is none).
    let whirls: Vec<LandId> = of_terrain(&v, "Sea")
        .into_iter()
        .filter(|&l| v.board.land(l).name.starts_with("Whirl"))
        .collect();
    assert!(whirls.len() >= 3, "{} whirls", whirls.len());
    // 9.5 (EN 249): the Darklord teleports "into another, unoccupied
    // Darkland"; 23.2 (EN 484): black Legions hide in Darklands.
    assert!(of_terrain(&v, "Darkland").len() >= 3);
    assert!(!of_terrain(&v, "Wasteland").is_empty());
}

#[test]
fn every_land_is_reachable_from_each_tower_and_every_legion_can_move() {
    let v = got();
    // docs/variant-format.md: every land reachable from a tower; here from
    // each Titan-player's Tower (5.4), through City and Dungeon too.
    for t in of_terrain(&v, "Tower") {
        let mut seen = HashSet::from([t]);
        let mut q = VecDeque::from([t]);
        while let Some(l) = q.pop_front() {
            for (_, to) in v.board.exits(l) {
                if seen.insert(to) {
                    q.push_back(to);
                }
            }
        }
        assert_eq!(seen.len(), v.board.land_count(), "from {}", num(&v, t));
    }
    // 8.4 (EN 204): a legion moves 1 to 6 lands: from every land some move
    // of one of those distances follows the signs (8.5).
    let exits = titan_core::game::Exits::new(&v);
    let empty = vec![titan_core::game::Occupancy::Empty; v.board.land_count()];
    for l in v.board.lands() {
        assert!(
            (1..=6).any(|d| !exits.moves(l, d, &empty).is_empty()),
            "no move from {}",
            num(&v, l)
        );
    }
    // 8.5 (EN 209): all four signs are used (and the Gates of 8.6).
    let kinds: HashSet<String> = signs(&v).iter().map(|s| format!("{:?}", s.1)).collect();
    for k in ["Block", "Arch", "Arrow", "TripleArrow", "Gate"] {
        assert!(kinds.contains(k), "{k}");
    }
}

#[test]
fn a_legion_leaving_city_or_dungeon_reaches_the_mainland_in_one_move() {
    // 8.6 (EN 231): out of the City "to any Citytower and from there the
    // actual movement begins during the same Game-Turn": from each tower a
    // move goes on to the lands beyond (ring 2, 201-224), without passing
    // the other centre (taken as blocked: an engagement there, which no
    // move enters or crosses).
    let v = got();
    let exits = titan_core::game::Exits::new(&v);
    let (city, dungeon) = (one(&v, "City"), one(&v, "Dungeon"));
    for (from, other) in [(city, dungeon), (dungeon, city)] {
        let mut occ = vec![titan_core::game::Occupancy::Empty; v.board.land_count()];
        occ[other.index()] = titan_core::game::Occupancy::Engaged;
        for d in 2..=6u8 {
            let ends: Vec<u32> = exits
                .moves(from, d, &occ)
                .iter()
                .map(|t| num(&v, t.land))
                .collect();
            assert!(
                ends.iter().any(|n| (201..=224).contains(n)),
                "{} moving {d}: {ends:?}",
                num(&v, from)
            );
        }
        // One land: past the free Gate, a land beside one of its towers (a
        // Darkland; from a Darktower also ring 2), never a tower.
        for t in exits.moves(from, 1, &occ) {
            let n = num(&v, t.land);
            assert!(
                terrain(&v, t.land) == "Darkland" || (201..=224).contains(&n),
                "{} moving 1: {n}",
                num(&v, from)
            );
        }
    }
}

#[test]
fn the_board_turns_onto_itself_by_a_third() {
    // Three Titan-players (1.2, 5.3) on like ground: turned by a third of a
    // turn, land k*100+i of ring k goes to k*100 + i + 4k (each ring has 12k
    // lands), City and Dungeon stay, and every terrain and sign goes along.
    let v = got();
    let turn = |n: u32| -> u32 {
        match n {
            1 | 2 => n,
            _ => {
                let (k, i) = (n / 100, n % 100 - 1);
                k * 100 + (i + 4 * k) % (12 * k) + 1
            }
        }
    };
    let by = |n: u32| {
        v.board
            .by_number(n)
            .unwrap_or_else(|| panic!("no land {n}"))
    };
    for l in v.board.lands() {
        let n = num(&v, l);
        let m = by(turn(n));
        assert_eq!(terrain(&v, l), terrain(&v, m), "{n} -> {}", turn(n));
        let mut a: Vec<String> = v
            .board
            .exits(l)
            .map(|(s, t)| format!("{s:?} {}", turn(num(&v, t))))
            .collect();
        let mut b: Vec<String> = v
            .board
            .exits(m)
            .map(|(s, t)| format!("{s:?} {}", num(&v, t)))
            .collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{n} -> {}", turn(n));
    }
}

/// 9.2 (EN 239): "Sea-Legions, which enter a Whirl land, are teleported
/// automatically to any other Whirl and must leave it in the same
/// Game-Turn. If the Legion already has moved six lands, in order to be able
/// to leave the Whirl, it may stop in front of the first Whirl. Thus a
/// Legion may never stand on a Whirl land"; 9.1 (EN 237): "both Teleport
/// lands count as one field". A legion of Dolphins on the Coast before
/// Whirl 1 (505): two lands take it past Whirl 2 or Whirl 3 to the Sea land
/// after it, no move ends on a Whirl, and none goes on from the Whirl
/// entered.
#[test]
fn a_whirl_sends_a_legion_on_from_another_whirl() {
    use titan_core::game::Occupancy;
    use titan_core::model::movement::Exits;
    let v = got();
    let exits = Exits::new(&v);
    let land = |n: u32| v.board.by_number(n).unwrap();
    let empty = vec![Occupancy::Empty; v.board.land_count()];
    let ends = |d: u8| -> HashSet<u32> {
        exits
            .moves(land(505), d, &empty)
            .iter()
            .map(|t| num(&v, t.land))
            .collect()
    };
    let whirls: HashSet<u32> = [506, 526, 546].into();
    for d in 1..=6 {
        assert!(ends(d).is_disjoint(&whirls), "{d}: {:?}", ends(d));
    }
    // One land: the Whirl is no end (the Coast's arch inland, 405, is).
    assert_eq!(ends(1), HashSet::from([405]));
    // Two: past Whirl 2 (to 527) or Whirl 3 (to 547), not on past Whirl 1
    // (507), which is left only by its Gates.
    let two = ends(2);
    assert!(two.contains(&527) && two.contains(&547), "{two:?}");
    assert!(!two.contains(&507), "{two:?}");
}
