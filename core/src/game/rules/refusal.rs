//! Why a masterplay action is refused: the real reason and its rule, found
//! once the quick legality check has said no (the hot paths stay lean).

use super::*;

fn number(game: &Game, l: LandId) -> u32 {
    game.variant.board.land(l).number
}

/// The legion of another player, or of the mover, on `land`.
fn legion_on(game: &Game, land: LandId, except: Marker) -> Option<&Legion> {
    game.state
        .legions
        .iter()
        .find(|l| l.land == land && l.marker != except)
}

/// A normal move of `legion` to `to` entering from `from` is not among the
/// legal ones: say why.
pub(super) fn why_not_move(
    game: &Game,
    legion: &Legion,
    to: LandId,
    from: LandId,
    occ: &[Occupancy],
) -> RuleError {
    let per_legion = game.variant.rules.movement.per_legion;
    let roll = game.state.roll.unwrap_or(0);
    let target = MoveTarget {
        land: to,
        entered_from: from,
    };
    let marker = legion.marker;
    // Where each legion moves its own distance, any distance it may.
    let empty = vec![Occupancy::Empty; occ.len()];
    let on_empty: Vec<MoveTarget> = super::legal::distances(game)
        .flat_map(|d| game.exits.moves(legion.land, d, &empty))
        .collect();
    let with = match per_legion {
        true => format!(
            "at any distance of 1 to {}",
            game.variant.rules.movement.die
        ),
        false => format!("with a roll of {roll}"),
    };
    if on_empty.contains(&target)
        && let Some(closed) = game.exits.close_for(&legion.characters, &empty)
        && !super::legal::distances(game)
            .any(|d| game.exits.reaches(legion.land, d, &closed, target))
    {
        let v = &game.variant;
        let terrain = &v.terrains[v.board.land(to).terrain.index()].name;
        let why = if closed[to.index()] == Occupancy::Closed {
            format!("may not enter {terrain}")
        } else {
            "may not cross the lands on its way".to_string()
        };
        return RuleError {
            rule: MOVEMENT,
            message: format!(
                "legion {marker} {why} with the characters it holds (rules.movement.keep_out) to reach land {}",
                number(game, to)
            ),
        };
    }
    if on_empty.contains(&target) {
        // The signs allow it: what is in the way is a legion.
        match occ[to.index()] {
            Occupancy::Friendly => {
                let other = legion_on(game, to, marker).map(|l| l.marker.to_string());
                return RuleError {
                    rule: MOVEMENT,
                    message: format!(
                        "legion {marker} may not end its move on land {}: your legion {} is there (a legion may move through a friendly legion's land but may not end its move there)",
                        number(game, to),
                        other.unwrap_or_default()
                    ),
                };
            }
            Occupancy::Engaged => {
                return RuleError {
                    rule: MOVEMENT,
                    message: format!(
                        "land {} is engaged this turn: no further movement into or across it is allowed",
                        number(game, to)
                    ),
                };
            }
            _ => {
                return RuleError {
                    rule: MOVEMENT,
                    message: format!(
                        "legion {marker} cannot reach land {} {with}: an enemy legion on the way ends its move there, and an engaged land may not be crossed",
                        number(game, to)
                    ),
                };
            }
        }
    }
    RuleError {
        rule: SIGNS,
        message: format!(
            "legion {marker} cannot move from land {} to land {} entering from land {} {with}: the signs do not lead there",
            number(game, legion.land),
            number(game, to),
            number(game, from),
        ),
    }
}

/// A teleport is not among the legal ones: say why.
pub(super) fn why_not_teleport(
    game: &Game,
    legion: &Legion,
    to: LandId,
    kind: TeleportKind,
    lord: CharacterId,
    occ: &[Occupancy],
) -> RuleError {
    let rules = &game.variant.rules.movement;
    let refuse = |message: String| RuleError {
        rule: TELEPORT,
        message,
    };
    let marker = legion.marker;
    let roll = game.state.roll;
    if legion.moved {
        return RuleError {
            rule: MOVEMENT,
            message: format!("legion {marker} has moved already this turn"),
        };
    }
    if game.state.teleports >= rules.teleports_per_turn {
        return refuse(format!(
            "only {} legion may be teleported per movement phase, and one has been",
            rules.teleports_per_turn
        ));
    }
    let name = |c: CharacterId| game.variant.character(c).name.clone();
    match kind {
        TeleportKind::Titan => {
            let Some(tt) = &rules.titan_teleport else {
                return refuse("this variant has no Titan teleportation".into());
            };
            let titan = game.variant.rules.titan.character;
            let score = game.state.players[legion.owner.0 as usize].score;
            if roll != Some(tt.roll) {
                return refuse(format!(
                    "Titan teleportation needs a movement roll of {}",
                    tt.roll
                ));
            }
            if score < tt.min_score {
                return refuse(format!(
                    "Titan teleportation needs a score of {} or more (you have {score})",
                    tt.min_score
                ));
            }
            if !legion.characters.contains(&titan) {
                return refuse(format!(
                    "only the legion holding the {} may make a Titan teleport",
                    name(titan)
                ));
            }
            if occ[to.index()] != Occupancy::Enemy {
                return refuse(format!(
                    "a Titan teleport must land on another player's legion, and land {} holds none",
                    number(game, to)
                ));
            }
        }
        TeleportKind::Tower => {
            let Some(tt) = &rules.tower_teleport else {
                return refuse("this variant has no tower teleportation".into());
            };
            if roll != Some(tt.roll) {
                return refuse(format!(
                    "tower teleportation needs a movement roll of {}",
                    tt.roll
                ));
            }
            if !game.exits.is_tower(legion.land) {
                return refuse(format!(
                    "tower teleportation begins in a tower, and legion {marker} is not in one"
                ));
            }
            if !legion.characters.contains(&lord)
                || !game.variant.class(class_of(game, lord)).tower_teleport
            {
                return refuse(format!(
                    "tower teleportation needs a lord of the legion to reveal, and {} is not one",
                    name(lord)
                ));
            }
            if occ[to.index()] != Occupancy::Empty {
                return refuse(format!(
                    "tower teleportation goes to a vacant land, and land {} is not vacant",
                    number(game, to)
                ));
            }
            return refuse(format!(
                "land {} is neither a tower nor within {} lands of this one",
                number(game, to),
                tt.range
            ));
        }
    }
    refuse(format!(
        "legion {marker} cannot teleport to land {}",
        number(game, to)
    ))
}

/// A muster (or a reinforcement after a battle) is not among the legal ones:
/// say why.
pub(super) fn why_not_muster(game: &Game, legion: &Legion, option: &MusterOption) -> RuleError {
    let c = game.variant.character(option.recruit);
    if game.state.caretaker[option.recruit.index()] == 0 {
        return RuleError {
            rule: CARETAKER,
            message: format!("no {} is left: the caretaker's stack is empty", c.name),
        };
    }
    let terrain = game.variant.board.land(legion.land).terrain;
    let qualifies = muster_options(game, legion)
        .iter()
        .any(|o| o.recruit == option.recruit);
    let shown: Vec<&str> = option
        .reveal
        .iter()
        .map(|&r| game.variant.character(r).name.as_str())
        .collect();
    RuleError {
        rule: ENLISTMENT,
        message: if qualifies {
            format!(
                "showing [{}] does not qualify the legion to muster a {}: show the characters one of its legal musters names",
                shown.join(", "),
                c.name
            )
        } else {
            format!(
                "legion {} does not qualify to muster a {} in {} (see the mustering table)",
                legion.marker,
                c.name,
                game.variant.terrains[terrain.index()].name
            )
        },
    }
}

/// The defender may not flee: name the character that forbids it.
pub(super) fn why_not_flee(game: &Game, def: &Legion) -> RuleError {
    let lord = def
        .characters
        .iter()
        .find(|&&c| game.variant.class(class_of(game, c)).forbids_flight)
        .map(|&c| game.variant.character(c).name.clone())
        .unwrap_or_default();
    RuleError {
        rule: ENGAGEMENT,
        message: format!(
            "legion {} holds {lord}: a legion with a lord may not flee",
            def.marker
        ),
    }
}
