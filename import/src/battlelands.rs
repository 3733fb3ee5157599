//! Battlelands (`Battlelands/<Terrain>.xml`): hexes by Colossus's `x`/`y`,
//! their hazards and elevations, hexside hazards by side number, and the
//! defender's start list.

use std::collections::BTreeMap;

use titan_core::format::{BattlelandDef, Edge, HexDef, Side};

use crate::Error;
use crate::xml::{XmlFile, children, root};

/// The 27-hex battleland's columns: hexes per column and the Colossus `y`
/// of hex 1 plus one (labels count up from the bottom, `y` down from the top).
const COLUMNS: [(char, u32, i32); 6] = [
    ('A', 3, 5),
    ('B', 4, 5),
    ('C', 5, 6),
    ('D', 6, 6),
    ('E', 5, 6),
    ('F', 4, 5),
];

/// The label (`"D4"`) of Colossus's hex `(x, y)`.
pub fn label(x: i32, y: i32) -> Option<String> {
    let (letter, count, top) = *COLUMNS.get(usize::try_from(x).ok()?)?;
    let n = top - y;
    (n >= 1 && n <= count as i32).then(|| format!("{letter}{n}"))
}

/// The Colossus `(x, y)` of the neighbour across `side` of hex `(x, y)`:
/// columns B, D and F (odd `x`) sit half a hex lower.
pub(crate) fn neighbour(x: i32, y: i32, side: Side) -> (i32, i32) {
    let odd = x % 2 != 0;
    let (up, down) = if odd { (y, y + 1) } else { (y - 1, y) };
    match side {
        Side::N => (x, y - 1),
        Side::S => (x, y + 1),
        Side::NE => (x + 1, up),
        Side::SE => (x + 1, down),
        Side::NW => (x - 1, up),
        Side::SW => (x - 1, down),
    }
}

/// Colossus may give a hexside's hazard from both of its hexes; titan
/// records it once, on its top side: the higher hex's (the first by label
/// when level). Where the two hexes give two different hazards (a wall on
/// one side, a river on the other) the side gets the combined hazard
/// "<the higher's> and <the lower's>" (`hazards::combined`). Returns those
/// hexsides, described.
fn once_per_side(hexes: &mut BTreeMap<String, HexDef>) -> Vec<String> {
    let mut clashes = Vec::new();
    let labels: Vec<String> = hexes.keys().cloned().collect();
    for l in &labels {
        let Some((x, y)) = xy_of(l) else { continue };
        for side in Side::ALL {
            let Some(mine) = hexes[l].sides.get(&side).cloned() else {
                continue;
            };
            let (nx, ny) = neighbour(x, y, side);
            let Some(other) = label(nx, ny) else { continue };
            let Some(theirs) = hexes[&other].sides.get(&side.opposite()).cloned() else {
                continue;
            };
            let (e_me, e_them) = (hexes[l].elevation, hexes[&other].elevation);
            let (drop_from, drop_side) = if e_them > e_me || (e_them == e_me && other < *l) {
                (l.clone(), side)
            } else {
                (other.clone(), side.opposite())
            };
            if let Some(h) = hexes.get_mut(&drop_from) {
                h.sides.remove(&drop_side);
            }
            if mine != theirs {
                clashes.push(format!("{l}-{other} ({mine} and {theirs})"));
                let (kept_at, kept_side, kept, dropped) = if drop_from == *l {
                    (other.clone(), side.opposite(), theirs, mine)
                } else {
                    (l.clone(), side, mine, theirs)
                };
                if let Some(h) = hexes.get_mut(&kept_at) {
                    h.sides.insert(kept_side, combined_name(&kept, &dropped));
                }
            }
        }
    }
    clashes
}

/// The name of the hazard of a hexside given `top` from its higher hex and
/// `bottom` from its lower one.
pub fn combined_name(top: &str, bottom: &str) -> String {
    format!("{top} and {bottom}")
}

fn xy_of(label: &str) -> Option<(i32, i32)> {
    let col = COLUMNS.iter().position(|c| label.starts_with(c.0))?;
    let n: i32 = label.get(1..)?.parse().ok()?;
    Some((col as i32, COLUMNS[col].2 - n))
}

/// Every label of the 27-hex battleland.
pub fn all_labels() -> Vec<String> {
    COLUMNS
        .iter()
        .flat_map(|&(l, count, _)| (1..=count).map(move |n| format!("{l}{n}")))
        .collect()
}

/// Colossus's hex terrains and hexside codes, as titan's hazard names.
pub fn hex_hazard(name: &str) -> Option<&'static str> {
    Some(match name {
        "Plains" => "Plains",
        "Tower" => "Tower",
        "Brambles" => "Bramble",
        "Sand" => "Sand",
        "Bog" => "Bog",
        "Drift" => "Drift",
        "Volcano" => "Volcano",
        "Tree" => "Tree",
        "Lake" => "Lake",
        "Stone" => "Stone",
        "Spring" => "Spring",
        "TarPit" => "TarPit",
        _ => return None,
    })
}

pub(crate) fn hexside_hazard(code: &str) -> Option<&'static str> {
    Some(match code {
        "d" => "Dune",
        "c" => "Cliff",
        "s" => "Slope",
        "w" => "Wall",
        "r" => "River",
        _ => return None,
    })
}

/// A battleland as read, with its Colossus subtitle.
pub struct Battleland {
    pub def: BattlelandDef,
    pub tower: bool,
    /// Hexsides given two different hazards from their two hexes.
    pub clashes: Vec<String>,
}

/// Reads the battleland of `terrain`. Hexes not listed are Plains at
/// elevation 0, as in Colossus.
pub fn read(file: &XmlFile, terrain: &str) -> Result<Battleland, Error> {
    let doc = file.parse()?;
    let r = root(file, &doc, "battlemap")?;
    let mut hexes: BTreeMap<String, HexDef> = all_labels()
        .into_iter()
        .map(|l| {
            let plain = HexDef {
                hazard: "Plains".into(),
                elevation: 0,
                sides: BTreeMap::new(),
            };
            (l, plain)
        })
        .collect();
    for h in children(r, "battlehex") {
        let (x, y) = (file.num(&doc, h, "x")?, file.num(&doc, h, "y")?);
        let label = label(x, y).ok_or_else(|| {
            file.error(
                &doc,
                h,
                format!("x=\"{x}\" y=\"{y}\" is no hex of the battleland"),
            )
        })?;
        let name = file.attr(&doc, h, "terrain")?;
        let hazard = hex_hazard(name)
            .ok_or_else(|| file.error(&doc, h, format!("unknown hex terrain {name:?}")))?;
        let mut sides = BTreeMap::new();
        for b in children(h, "border") {
            let n: usize = file.num(&doc, b, "number")?;
            let code = file.attr(&doc, b, "type")?;
            let side = (n < 6).then(|| Side::from_index(n));
            let hz = hexside_hazard(code);
            match (side, hz) {
                (Some(s), Some(hz)) => {
                    sides.insert(s, hz.to_string());
                }
                _ => {
                    return Err(file.error(
                        &doc,
                        b,
                        format!("border number=\"{n}\" type=\"{code}\": a side is 0 to 5, a type one of d, c, s, w, r"),
                    ));
                }
            }
        }
        hexes.insert(
            label,
            HexDef {
                hazard: hazard.to_string(),
                elevation: file.num_or(&doc, h, "elevation", 0)?,
                sides,
            },
        );
    }
    let mut defender_area = Vec::new();
    for s in children(r, "startlist") {
        for h in children(s, "battlehexref") {
            let l = file.attr(&doc, h, "label")?;
            if !hexes.contains_key(l) {
                return Err(file.error(&doc, h, format!("{l:?} is no hex of the battleland")));
            }
            defender_area.push(l.to_string());
        }
    }
    let tower = r
        .attribute("tower")
        .is_some_and(|t| t.eq_ignore_ascii_case("true"));
    Ok(finish(terrain, hexes, defender_area, tower))
}

/// A battleland of `terrain` from Colossus's hexes (hexsides as Colossus
/// gives them, from either hex or both), start list and tower flag.
pub fn finish(
    terrain: &str,
    mut hexes: BTreeMap<String, HexDef>,
    defender_area: Vec<String>,
    tower: bool,
) -> Battleland {
    let clashes = once_per_side(&mut hexes);
    Battleland {
        def: BattlelandDef {
            terrain: terrain.to_string(),
            alternative: 1,
            hexes,
            board: None,
            // Colossus's tower: the attacker enters by the lower left side.
            attacker_edge: tower.then_some(Edge::SouthWest),
            defender_area,
        },
        tower,
        clashes,
    }
}
