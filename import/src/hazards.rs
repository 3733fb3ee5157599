//! The hazard chart of an imported variant: the Avalon Hill hazards as the
//! bundled `titan` variant reads them, and Colossus's own hazards (Lake,
//! Stone, Spring, TarPit) with their movement and strike effects from
//! Colossus's hazard table. A Spring's healing, Sand's drying of
//! water-dwellers and a TarPit's lasting slowing are Lua of the importer's
//! (`import/lua/`).

use titan_core::format::{At, Effect, HazardDef, Move, Movement, Passage, Place, Rgb, Sight, Who};

use std::borrow::Cow;

use crate::java::LuaFile;

/// The bundled chart, read at build time so both stay one.
const TITAN_HAZARDS: &str = include_str!("../../variants/titan/hazards.ron");

/// A TarPit's lasting slowing as Lua: at the beginning of each strike phase
/// a non-native in a TarPit loses a movement point for the battle, one in a
/// Spring gets one back.
pub const TARPIT_LUA: LuaFile = LuaFile {
    name: Cow::Borrowed("tarpit.lua"),
    text: Cow::Borrowed(include_str!("../lua/tarpit.lua")),
    variables: include_str!("../lua/tarpit-variables.ron"),
};

/// A Spring's healing as Lua: every character standing in one heals a hit
/// at the end of each strike phase; Spring gets the hook.
pub const SPRING_LUA: LuaFile = LuaFile {
    name: Cow::Borrowed("spring.lua"),
    text: Cow::Borrowed(include_str!("../lua/spring.lua")),
    variables: "[]",
};

/// Sand's drying as Lua: a water-dweller (a native of Lake) standing in
/// Sand takes a hit at the end of each strike phase; Sand gets the hook.
pub const SAND_LUA: LuaFile = LuaFile {
    name: Cow::Borrowed("sand.lua"),
    text: Cow::Borrowed(include_str!("../lua/sand.lua")),
    variables: "[]",
};

/// Poison as Lua, with the variant's poisonous characters written in: a
/// strike that hits poisons its target, who takes the poison in hits at the
/// beginning of each strike phase.
pub fn poison_lua(poison: &[(String, u8)]) -> LuaFile {
    let entries: Vec<String> = poison
        .iter()
        .map(|(c, n)| format!("  [{c:?}] = {n},"))
        .collect();
    LuaFile {
        name: Cow::Borrowed("poison.lua"),
        text: Cow::Owned(format!(
            "-- The variant's poisonous characters (written by the importer).\nlocal POISON = {{\n{}\n}}\n\n{}",
            entries.join("\n"),
            include_str!("../lua/poison.lua")
        )),
        variables: include_str!("../lua/poison-variables.ron"),
    }
}

/// Adds the combined hazards the battlelands' hexsides name ("Wall and
/// River", `battlelands::combined_name`) that the chart lacks.
pub fn add_combined(chart: &mut Vec<HazardDef>, battlelands: &[titan_core::format::BattlelandDef]) {
    for b in battlelands {
        for hex in b.hexes.values() {
            for name in hex.sides.values() {
                if chart.iter().any(|h| &h.name == name) {
                    continue;
                }
                let Some((top, bottom)) = name.split_once(" and ") else {
                    continue;
                };
                let find = |n: &str| chart.iter().find(|h| h.name == n).cloned();
                if let (Some(a), Some(b)) = (find(top), find(bottom)) {
                    chart.push(combined(name, &a, &b));
                }
            }
        }
    }
}

/// One hexside hazard with the effects of both `a` (its top side's) and
/// `b`: each movement the stricter of the two, crossed either way when
/// their crossings differ.
fn combined(name: &str, a: &HazardDef, b: &HazardDef) -> HazardDef {
    let rank = |m: Move| match m {
        Move::Free => 0,
        Move::Slow => 1,
        Move::Stop => 2,
        Move::Block => 3,
    };
    let worse = |x: Move, y: Move| if rank(y) > rank(x) { y } else { x };
    let both = |x: Passage, y: Passage| Passage {
        natives: worse(x.natives, y.natives),
        others: worse(x.others, y.others),
    };
    let mut effects = a.effects.clone();
    for e in &b.effects {
        if !effects.contains(e) {
            effects.push(e.clone());
        }
    }
    HazardDef {
        name: name.to_string(),
        place: Place::Hexside,
        color: a.color,
        movement: Movement {
            ground: both(a.movement.ground, b.movement.ground),
            flying: both(a.movement.flying, b.movement.flying),
            crossing: if a.movement.crossing == b.movement.crossing {
                a.movement.crossing
            } else {
                titan_core::format::Crossing::Both
            },
            ..Movement::default()
        },
        effects,
    }
}

/// Spring's hook in `spring.lua`.
pub const SPRING_HOOK: &str = "spring_heals";

/// Sand's hook in `sand.lua`.
pub const SAND_HOOK: &str = "sand_dries_water_dwellers";

fn passage(natives: Move, others: Move) -> Passage {
    Passage { natives, others }
}

fn extras() -> Vec<HazardDef> {
    let hex = |name: &str, color: [u8; 3], movement: Movement, effects: Vec<Effect>| HazardDef {
        name: name.into(),
        place: Place::Hex,
        color: Rgb(color),
        movement,
        effects,
    };
    let native_defends = Effect::Strike {
        at: At::TargetIn,
        striker: Who::Others,
        target: Who::Natives,
        skill: -1,
        dice: 0,
    };
    vec![
        // Only natives walk in; anybody flies over and lands.
        hex(
            "Lake",
            [0x3c, 0x8c, 0xd2],
            Movement {
                ground: passage(Move::Free, Move::Block),
                ..Movement::default()
            },
            vec![],
        ),
        // Only natives enter; a native struck by a non-native gains a skill
        // factor; blocks rangestrikes.
        hex(
            "Stone",
            [0x78, 0x78, 0x78],
            Movement {
                ground: passage(Move::Free, Move::Block),
                flying: passage(Move::Free, Move::Block),
                ..Movement::default()
            },
            vec![native_defends, Effect::BlocksSight(Sight::Always)],
        ),
        hex(
            "Spring",
            [0x78, 0xc8, 0xdc],
            Movement {
                ground: passage(Move::Free, Move::Slow),
                flying: passage(Move::Free, Move::Slow),
                ..Movement::default()
            },
            vec![],
        ),
        hex(
            "TarPit",
            [0x28, 0x20, 0x1c],
            Movement {
                ground: passage(Move::Slow, Move::Slow),
                flying: passage(Move::Slow, Move::Slow),
                ..Movement::default()
            },
            vec![],
        ),
    ]
}

/// Every hazard an imported variant may use.
pub fn chart() -> Vec<HazardDef> {
    let mut all: Vec<HazardDef> = titan_core::load::ron_options()
        .from_str(TITAN_HAZARDS)
        .expect("the bundled hazard chart parses");
    all.extend(extras());
    all
}
