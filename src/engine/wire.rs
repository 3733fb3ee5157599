//! The wire form of the engine's values: the game's names instead of ids.
//!
//! The core types serialize a character as its index and a land as its node
//! index; on the wire a character is its name ("Ogre") and a land its printed
//! number (100, 1000). Rather than mirror every action, event and view in a
//! second set of types, the JSON the core produces is rewritten by field name,
//! both ways: a field listed in [`CHARACTER_FIELDS`] holds characters (alone,
//! in lists or in lists of lists), one in [`LAND_FIELDS`] holds lands. Markers
//! are strings already ("P1-03") and are left alone, which is what lets `from`
//! be a land in `Moved` and a marker in `Summon`. The one field of another
//! kind under a land name, `to` in a `Revealed` event (a player), is excepted
//! by the event's tag. `tests` round-trips every action a game offers.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use titan_core::model::{LandId, Variant};

/// Fields whose numbers are characters.
pub const CHARACTER_FIELDS: &[&str] = &[
    "attacker_losses",
    "attacker_slain",
    "character",
    "characters",
    "defender_losses",
    "defender_slain",
    "legions",
    "lord",
    "parts",
    "recruit",
    "reinforced",
    "reinforcements",
    "reveal",
    "revealed",
    "summonable",
    "summoned",
];

/// Fields holding `[character, number]` pairs (a character and its power in
/// a battle): only the first of each pair is a character.
pub const CHARACTER_PAIR_FIELDS: &[&str] = &["attacker_characters", "defender_characters"];

/// Fields whose numbers are terrains.
pub const TERRAIN_FIELDS: &[&str] = &["terrain"];

/// Fields whose numbers are lands.
pub const LAND_FIELDS: &[&str] = &["entered_from", "from", "land", "to", "tower"];

/// Tags (`"event"` or `"action"`) under which `to` is a player, not a land.
const TO_IS_A_PLAYER: &[&str] = &["Revealed", "Proposed", "Rejected"];

/// What a field holds, from its name and the tag of its object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Character,
    Land,
    Terrain,
    Other,
}

fn kind(field: &str, tag: Option<&str>) -> Kind {
    if CHARACTER_FIELDS.contains(&field) {
        Kind::Character
    } else if TERRAIN_FIELDS.contains(&field) {
        Kind::Terrain
    } else if LAND_FIELDS.contains(&field)
        && !(field == "to" && tag.is_some_and(|t| TO_IS_A_PLAYER.contains(&t)))
    {
        Kind::Land
    } else {
        Kind::Other
    }
}

fn tag_of(map: &Map<String, Value>) -> Option<&str> {
    map.get("event")
        .or_else(|| map.get("action"))
        .and_then(Value::as_str)
}

/// A core value as the wire shows it.
pub fn to_wire<T: Serialize>(variant: &Variant, value: &T) -> Value {
    let mut v = serde_json::to_value(value).unwrap_or(Value::Null);
    outward(variant, &mut v, Kind::Other);
    v
}

fn outward(variant: &Variant, v: &mut Value, k: Kind) {
    match v {
        Value::Object(map) => {
            let tag = tag_of(map).map(String::from);
            for (field, value) in map.iter_mut() {
                if field == "caretaker" {
                    *value = caretaker(variant, value);
                    continue;
                }
                if CHARACTER_PAIR_FIELDS.contains(&field.as_str()) {
                    for pair in value.as_array_mut().into_iter().flatten() {
                        if let Some(first) = pair.as_array_mut().and_then(|p| p.first_mut()) {
                            outward(variant, first, Kind::Character);
                        }
                    }
                    continue;
                }
                outward(variant, value, kind(field, tag.as_deref()));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| outward(variant, x, k)),
        Value::Number(n) => match (k, n.as_u64()) {
            (Kind::Character, Some(i)) => {
                if let Some(c) = variant.characters.get(i as usize) {
                    *v = Value::String(c.name.clone());
                }
            }
            (Kind::Land, Some(i)) if (i as usize) < variant.board.land_count() => {
                *v = Value::from(variant.board.land(LandId::new(i as usize)).number);
            }
            (Kind::Terrain, Some(i)) => {
                if let Some(t) = variant.terrains.get(i as usize) {
                    *v = Value::String(t.name.clone());
                }
            }
            _ => {}
        },
        _ => {}
    }
}

/// The caretaker's stacks, by character index in the core, as an object of
/// counts by name on the wire.
fn caretaker(variant: &Variant, v: &Value) -> Value {
    let Some(counts) = v.as_array() else {
        return v.clone();
    };
    let map: Map<String, Value> = counts
        .iter()
        .zip(&variant.characters)
        .map(|(n, c)| (c.name.clone(), n.clone()))
        .collect();
    Value::Object(map)
}

/// A wire value read back into a core type: names and land numbers become
/// ids. Unknown names and lands are errors that say which.
pub fn from_wire<T: DeserializeOwned>(variant: &Variant, value: &Value) -> Result<T, String> {
    let mut v = value.clone();
    inward(variant, &mut v, Kind::Other)?;
    serde_json::from_value(v).map_err(|e| e.to_string())
}

fn inward(variant: &Variant, v: &mut Value, k: Kind) -> Result<(), String> {
    match v {
        Value::Object(map) => {
            let tag = tag_of(map).map(String::from);
            for (field, value) in map.iter_mut() {
                // A summoned character is a pair: the legion it came from (a
                // marker), then the character.
                if field == "summoned"
                    && let Some([_, character]) = value.as_array_mut().map(Vec::as_mut_slice)
                {
                    inward(variant, character, Kind::Character)?;
                    continue;
                }
                inward(variant, value, kind(field, tag.as_deref()))?;
            }
        }
        Value::Array(items) => {
            for x in items {
                inward(variant, x, k)?;
            }
        }
        Value::String(name) if k == Kind::Character => {
            let c = crate::rules_masterboard::character_named(variant, name)?;
            *v = Value::from(c.0);
        }
        Value::Number(n) if k == Kind::Character => {
            return Err(format!(
                "characters are given by name (\"Ogre\"), not by number ({n})"
            ));
        }
        Value::String(name) if k == Kind::Terrain => {
            let t = crate::rules_masterboard::terrain_named(variant, name)?;
            *v = Value::from(t.0);
        }
        Value::Number(n) if k == Kind::Land => {
            let number = n
                .as_u64()
                .and_then(|x| u32::try_from(x).ok())
                .ok_or_else(|| format!("{n} is no land number"))?;
            let land = variant
                .board
                .by_number(number)
                .ok_or_else(|| format!("{} has no land {number}", variant.id))?;
            *v = Value::from(land.index());
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use titan_core::game::random::random_action;
    use titan_core::game::{Action, Event, Game};
    use titan_core::rng::GameRng;

    fn titan() -> Arc<Variant> {
        Arc::new(crate::rules_masterboard::find_variant("titan").unwrap())
    }

    /// Every action the engine offers, over random games, reads back from its
    /// wire form as itself, and every event survives the trip out.
    #[test]
    fn every_offered_action_round_trips() {
        let v = titan();
        let mut checked = 0;
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..6 {
            let names: Vec<String> = ["Ann", "Bob", "Cy"].map(String::from).to_vec();
            let (mut game, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
            let mut rng = GameRng::new(seed);
            for _ in 0..600 {
                for p in game.to_act() {
                    for a in game.legal_actions(p) {
                        let wire = to_wire(&v, &a);
                        let back: Action =
                            from_wire(&v, &wire).unwrap_or_else(|e| panic!("{a:?} as {wire}: {e}"));
                        assert_eq!(back, a, "{wire}");
                        kinds.insert(wire["action"].as_str().unwrap().to_string());
                        checked += 1;
                    }
                }
                let Some((p, a)) = random_action(&game, &mut rng) else {
                    break;
                };
                for e in game.apply(p, &a).unwrap() {
                    let wire = to_wire(&v, &e);
                    let back: Event = from_wire(&v, &wire).unwrap();
                    assert_eq!(back, e, "{wire}");
                }
            }
        }
        eprintln!("{checked} offered actions round-tripped: {kinds:?}");
        assert!(checked > 1000, "{checked}");
        for k in ["InitialSplit", "Split", "Roll", "Move", "Muster", "EndTurn"] {
            assert!(kinds.contains(k), "{k} never offered: {kinds:?}");
        }
    }

    /// The actions random play rarely or never reaches (the battle engine's
    /// result, the winner's summons and acquisitions) round-trip too.
    #[test]
    fn rarer_actions_round_trip() {
        let v = titan();
        let c = |n| v.character_by_name(n).unwrap();
        let m = |s: &str| s.parse().unwrap();
        let actions = [
            Action::Fight,
            Action::DoneAfter,
            Action::Summon {
                from: m("P1-02"),
                character: c("Angel"),
            },
            Action::Acquire {
                character: c("Archangel"),
            },
            Action::Reinforce {
                recruit: c("Troll"),
                reveal: vec![c("Ogre"), c("Ogre")],
            },
            Action::Battle {
                battle: titan_core::battle::Action::Move {
                    unit: 2,
                    to: titan_core::battleland::HexId::from_label("D4").unwrap(),
                },
            },
            Action::Battle {
                battle: titan_core::battle::Action::Strike {
                    unit: 1,
                    target: 4,
                    strike_number: Some(5),
                    forgo_bonus: false,
                },
            },
            Action::Teleport {
                legion: m("P3-01"),
                to: v.board.by_number(300).unwrap(),
                kind: titan_core::game::TeleportKind::Titan,
                lord: c("Titan"),
            },
        ];
        for a in actions {
            let wire = to_wire(&v, &a);
            assert_eq!(from_wire::<Action>(&v, &wire).unwrap(), a, "{wire}");
        }
        // A battle move keeps its hex label: `to` is a land only as a number.
        let wire = to_wire(
            &v,
            &Action::Battle {
                battle: titan_core::battle::Action::Move {
                    unit: 0,
                    to: titan_core::battleland::HexId::from_label("A1").unwrap(),
                },
            },
        );
        assert_eq!(wire["battle"]["Move"]["to"], serde_json::json!("A1"));
    }

    /// A battle request: characters with their powers, the terrain by name.
    #[test]
    fn a_battle_request_on_the_wire() {
        let v = titan();
        let c = |n| v.character_by_name(n).unwrap();
        let battle = titan_core::game::BattleRequest {
            land: v.board.by_number(3).unwrap(),
            terrain: v.terrain_by_name("Brush").unwrap(),
            attacker: "P1-01".parse().unwrap(),
            defender: "P2-01".parse().unwrap(),
            attacker_characters: vec![(c("Ogre"), 6), (c("Titan"), 7)],
            defender_characters: vec![(c("Centaur"), 3)],
            attacker_edge: titan_core::format::Edge::West,
            summonable: vec![("P1-02".parse().unwrap(), c("Angel"))],
            reinforcements: vec![c("Gargoyle")],
        };
        assert_eq!(
            to_wire(&v, &battle),
            serde_json::json!({
                "land": 3, "terrain": "Brush", "attacker": "P1-01", "defender": "P2-01",
                "attacker_characters": [["Ogre", 6], ["Titan", 7]],
                "defender_characters": [["Centaur", 3]],
                "attacker_edge": "West",
                "summonable": [["P1-02", "Angel"]],
                "reinforcements": ["Gargoyle"],
            })
        );
    }

    #[test]
    fn names_and_numbers_on_the_wire() {
        let v = titan();
        let ogre = v.character_by_name("Ogre").unwrap();
        let land = v.board.by_number(1000).unwrap();
        let from = v.board.by_number(1).unwrap();
        let a = Action::Move {
            legion: "P2-03".parse().unwrap(),
            to: land,
            entered_from: from,
        };
        assert_eq!(
            to_wire(&v, &a),
            serde_json::json!({"action": "Move", "legion": "P2-03", "to": 1000, "entered_from": 1})
        );
        let m = Action::Muster {
            legion: "P1-01".parse().unwrap(),
            recruit: ogre,
            reveal: vec![ogre],
        };
        assert_eq!(
            to_wire(&v, &m),
            serde_json::json!({"action": "Muster", "legion": "P1-01", "recruit": "Ogre", "reveal": ["Ogre"]})
        );
        // A Revealed event's `to` is a player.
        let e = Event::Revealed {
            legion: "P1-01".parse().unwrap(),
            characters: vec![ogre],
            to: Some(titan_core::game::PlayerId(1)),
        };
        assert_eq!(to_wire(&v, &e)["to"], 1);
        let bad = serde_json::json!({"action": "Muster", "legion": "P1-01", "recruit": "Orc", "reveal": []});
        assert!(
            from_wire::<Action>(&v, &bad)
                .unwrap_err()
                .contains("\"Orc\"")
        );
        let bad =
            serde_json::json!({"action": "Move", "legion": "P1-01", "to": 99, "entered_from": 1});
        assert!(
            from_wire::<Action>(&v, &bad)
                .unwrap_err()
                .contains("no land 99")
        );
        // A character's index is no name: refused, not read as an index
        // (found by a fuzzer: 9999 reached the core as a character).
        let bad = serde_json::json!({"action": "Muster", "legion": "P1-01", "recruit": 9999, "reveal": []});
        assert!(
            from_wire::<Action>(&v, &bad)
                .unwrap_err()
                .contains("by name")
        );
    }
}
