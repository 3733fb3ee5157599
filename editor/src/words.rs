//! The game in words: actions as the buttons that offer them, events as the
//! lines of the log ("Ann's legion P1-03 musters a Ranger in land 27"). All
//! names come from the variant and the players.

use titan_core::battle::{self, BattleEvent, BattleSide, UnitId, UnitView};
use titan_core::game::{Action, Event, Marker, Outcome, PlayerId};
use titan_core::model::{CharacterId, LandId, Variant};

/// What the words need: the variant, the players' names, and the battle's
/// units when one is being fought.
pub struct Words {
    pub variant: std::sync::Arc<Variant>,
    pub players: Vec<String>,
    pub units: Vec<UnitView>,
}

impl Words {
    /// The variant's battles are fought by placement phases.
    pub fn placing(&self) -> bool {
        self.variant.rules.battle.procedure.movement == titan_core::format::Maneuvering::Placement
    }

    /// Both sides' phases come before one strike phase of both (the
    /// defender's strikes are not "strikes back").
    pub fn strikes_after_both(&self) -> bool {
        self.variant.rules.battle.procedure.round == titan_core::format::Round::BothThenStrikes
    }

    pub fn character(&self, c: CharacterId) -> String {
        self.variant
            .characters
            .get(c.index())
            .map_or_else(|| format!("character {}", c.index()), |c| c.name.clone())
    }

    pub fn characters(&self, cs: &[CharacterId]) -> String {
        if cs.is_empty() {
            return "nothing".into();
        }
        cs.iter()
            .map(|c| self.character(*c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn land(&self, l: LandId) -> String {
        format!("land {}", self.variant.board.land(l).number)
    }

    /// A land and its terrain: "land 41 (Marsh)".
    pub fn land_and_terrain(&self, l: LandId) -> String {
        let land = self.variant.board.land(l);
        let terrain = self.variant.terrains.get(land.terrain.index());
        match terrain {
            Some(t) => format!("land {} ({})", land.number, t.name),
            None => self.land(l),
        }
    }

    pub fn player(&self, p: PlayerId) -> String {
        self.players
            .get(p.0 as usize)
            .cloned()
            .unwrap_or_else(|| format!("player {}", p.0 + 1))
    }

    /// A legion: its owner, its marker's number and, when the variant
    /// names its markers, the marker's name ("Red's legion P1-03 (Die)").
    pub fn legion(&self, m: Marker) -> String {
        format!("{}'s legion {}", self.player(m.player), self.marker(m))
    }

    /// A marker: its number, and its name beside it when the variant names
    /// it ("P1-03 (Die)"; the number is what identifies it).
    pub fn marker(&self, m: Marker) -> String {
        self.variant.marker_label(m)
    }

    fn unit(&self, u: UnitId) -> String {
        match self.units.get(u as usize) {
            Some(v) => format!("{} {}", side_name(v.side), v.character),
            None => format!("unit {u}"),
        }
    }

    /// An action as its button says it.
    pub fn action(&self, a: &Action) -> String {
        match a {
            Action::InitialSplit { legions } => format!(
                "Divide into {}",
                legions
                    .iter()
                    .map(|l| format!("({})", self.characters(l)))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
            Action::Split { legion, parts } => format!(
                "Split {}: {}",
                self.marker(*legion),
                parts
                    .iter()
                    .map(|l| format!("({})", self.characters(l)))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Action::DoneSplitting => "Done splitting".into(),
            Action::Roll { distance: None } => "Roll the die".into(),
            Action::Roll { distance: Some(d) } => format!("Move {d}"),
            Action::Mulligan => "Mulligan (roll again)".into(),
            Action::Move {
                legion,
                to,
                entered_from,
            } => {
                let legion = self.marker(*legion);
                if to == entered_from {
                    format!("Move {legion} to {}", self.land_and_terrain(*to))
                } else {
                    format!(
                        "Move {legion} to {} (entering from {})",
                        self.land_and_terrain(*to),
                        self.land(*entered_from)
                    )
                }
            }
            Action::Teleport {
                legion,
                to,
                kind,
                lord,
            } => format!(
                "Teleport {} to {} ({kind:?}, showing {})",
                self.marker(*legion),
                self.land_and_terrain(*to),
                self.character(*lord)
            ),
            Action::DoneMoving => "Done moving".into(),
            Action::Engage { land } => format!("Resolve the engagement in {}", self.land(*land)),
            Action::Challenge { attacker, defender } => format!(
                "Challenge {} with {}",
                self.legion(*defender),
                self.marker(*attacker)
            ),
            Action::DoneEngaging => "Done with engagements".into(),
            Action::Flee => "Flee".into(),
            Action::Stand => "Stand and fight".into(),
            Action::Concede => "Concede".into(),
            Action::Propose {
                attacker_losses,
                defender_losses,
            } => format!(
                "Propose: attacker loses {}, defender loses {}",
                self.characters(attacker_losses),
                self.characters(defender_losses)
            ),
            Action::Accept => "Accept the proposal".into(),
            Action::Reject => "Reject the proposal".into(),
            Action::Fight => "Fight".into(),
            Action::Battle { battle } => self.battle_action(battle),
            Action::Summon { from, character } => {
                format!(
                    "Summon {} from {}",
                    self.character(*character),
                    self.marker(*from)
                )
            }
            Action::Acquire { character } => format!("Acquire {}", self.character(*character)),
            Action::Reinforce { recruit, reveal } => format!(
                "Reinforce with {} (showing {})",
                self.character(*recruit),
                self.characters(reveal)
            ),
            Action::DoneAfter => "Done".into(),
            Action::Muster {
                legion,
                recruit,
                reveal,
            } => format!(
                "{} musters {} (showing {})",
                self.marker(*legion),
                self.character(*recruit),
                self.characters(reveal)
            ),
            Action::EndTurn => "End turn".into(),
            Action::Commit { legion } => format!("Commit {} to the showdown", self.legion(*legion)),
            Action::ConcedeGame => "Concede the game".into(),
            Action::Script { name, args } => {
                format!("{}{}", self.action_label(name), self.script_args(args))
            }
        }
    }

    /// A variant action's label (`actions.ron`).
    fn action_label(&self, name: &str) -> String {
        self.variant
            .script_action(name)
            .map_or_else(|| name.to_string(), |a| a.def.label.clone())
    }

    /// A variant action's arguments in the game's words.
    fn script_args(&self, args: &[titan_core::script::ScriptArg]) -> String {
        use titan_core::script::ScriptArg as A;
        let words: Vec<String> = args
            .iter()
            .map(|a| match a {
                A::Unit(u) => self.unit(*u),
                A::Hex(h) => h.label(),
                A::Legion(m) => self.legion(*m),
                A::Land(l) => self.land(*l),
                A::Character(c) => self.character(*c),
                A::Number(n) => n.to_string(),
            })
            .collect();
        if words.is_empty() {
            String::new()
        } else {
            format!(": {}", words.join(", "))
        }
    }

    /// A variant action in battle in two parts, for a menu: who does what
    /// ("defender's Warlock: Teleport (spell, grade 3)") and its arguments in
    /// the game's words ("defender's Ogre, C3"; empty when it has none).
    pub fn battle_script_parts(&self, a: &battle::Action) -> Option<(String, String)> {
        let battle::Action::Script { name, unit, args } = a else {
            return None;
        };
        let args = self.script_args(args);
        Some((
            format!("{}: {}", self.unit(*unit), self.action_label(name)),
            args.strip_prefix(": ").unwrap_or_default().to_string(),
        ))
    }

    pub fn battle_action(&self, a: &battle::Action) -> String {
        match a {
            battle::Action::ChooseEdge(e) => format!("Enter from the {e:?} edge"),
            battle::Action::Move { unit, to } => {
                format!("Move {} to {}", self.unit(*unit), to.label())
            }
            battle::Action::Summon { choice, to } => {
                format!("Summon choice {} onto {}", choice + 1, to.label())
            }
            battle::Action::Reinforce { choice, to } => {
                format!("Reinforcement {} onto {}", choice + 1, to.label())
            }
            battle::Action::SummonUncommitted { choice } => {
                format!("Summon choice {}, uncommitted", choice + 1)
            }
            battle::Action::ReinforceUncommitted { choice } => {
                format!("Reinforcement {}, uncommitted", choice + 1)
            }
            battle::Action::EndManeuver if self.placing() => "End placement".into(),
            battle::Action::EndManeuver => "End maneuver".into(),
            battle::Action::Strike { unit, target, .. } => {
                format!("{} strikes {}", self.unit(*unit), self.unit(*target))
            }
            battle::Action::Rangestrike { unit, target } => {
                format!("{} rangestrikes {}", self.unit(*unit), self.unit(*target))
            }
            battle::Action::CarryOver { target: Some(t) } => {
                format!("Carry the hits over to {}", self.unit(*t))
            }
            battle::Action::CarryOver { target: None } => "Drop the extra hits".into(),
            battle::Action::EndStrikes => "End strikes".into(),
            battle::Action::Concede(side) => {
                format!("Concede the battle (as the {})", side_word(*side))
            }
            battle::Action::Script { name, unit, args } => format!(
                "{}: {}{}",
                self.unit(*unit),
                self.action_label(name),
                self.script_args(args)
            ),
        }
    }

    /// An event as a line of the log.
    pub fn event(&self, e: &Event) -> String {
        match e {
            Event::TowerRolls { rolls } => format!(
                "Tower rolls: {}",
                rolls
                    .iter()
                    .map(|(p, r)| format!("{} {r}", self.player(*p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Event::Placed { player, tower } => {
                format!(
                    "{} starts in the tower of {}",
                    self.player(*player),
                    self.land(*tower)
                )
            }
            Event::LegionFormed {
                legion,
                land,
                height,
            } => format!(
                "{} is formed in {} ({height} characters)",
                self.legion(*legion),
                self.land(*land)
            ),
            Event::TurnBegins { player, turn } => {
                format!("Turn {turn}: {} begins", self.player(*player))
            }
            Event::Split { legion, into } => format!(
                "{} splits off {}",
                self.legion(*legion),
                into.iter()
                    .map(|m| self.marker(*m))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            // Where the mover chooses the distance (Gods of Titan), no die
            // is rolled.
            Event::Rolled { player, roll } if self.variant.rules.movement.chosen_distance => {
                format!("{} moves {roll} this turn", self.player(*player))
            }
            Event::Rolled { player, roll } => {
                format!("{} rolls a {roll} for movement", self.player(*player))
            }
            Event::Moved { legion, from, to } => format!(
                "{} moves from {} to {}",
                self.legion(*legion),
                self.land(*from),
                self.land(*to)
            ),
            Event::Teleported { legion, from, to } => format!(
                "{} teleports from {} to {}",
                self.legion(*legion),
                self.land(*from),
                self.land(*to)
            ),
            Event::Revealed {
                legion,
                characters,
                to,
            } => match to {
                Some(p) => format!(
                    "{} shows {} to {}",
                    self.legion(*legion),
                    self.characters(characters),
                    self.player(*p)
                ),
                None => format!(
                    "{} reveals {}",
                    self.legion(*legion),
                    self.characters(characters)
                ),
            },
            Event::Recombined { legion, with } => {
                format!(
                    "{} recombines with {}",
                    self.legion(*legion),
                    self.marker(*with)
                )
            }
            Event::EngagementBegins {
                land,
                attacker,
                defender,
            } => format!(
                "Engagement in {}: {} attacks {}",
                self.land(*land),
                self.legion(*attacker),
                self.legion(*defender)
            ),
            Event::Fled { legion } => format!("{} flees", self.legion(*legion)),
            Event::Conceded { legion } => format!("{} concedes", self.legion(*legion)),
            Event::Proposed { by, .. } => format!("{} proposes an agreement", self.player(*by)),
            Event::Rejected { by, .. } => format!("{} rejects the proposal", self.player(*by)),
            Event::BattleBegins { land } => format!("Battle in {}", self.land(*land)),
            Event::ShowdownBegins {
                challenger,
                opponents,
            } => format!(
                "{} challenges {} to a showdown",
                self.player(*challenger),
                opponents
                    .iter()
                    .map(|p| self.player(*p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Event::Committed { player, legion } => format!(
                "{} commits {} to the showdown",
                self.player(*player),
                self.legion(*legion)
            ),
            Event::ShowdownEnds => "The showdown is over".into(),
            Event::Slain {
                legion, characters, ..
            } => format!(
                "{} loses {}",
                self.legion(*legion),
                self.characters(characters)
            ),
            Event::LegionEliminated { legion } => {
                format!("{} is eliminated", self.legion(*legion))
            }
            Event::Scored {
                player,
                points,
                score,
            } => format!(
                "{} scores {points} points (now {score})",
                self.player(*player)
            ),
            Event::ScoreLowered {
                player,
                points,
                score,
            } => format!(
                "{} loses {points} points (now {score})",
                self.player(*player)
            ),
            Event::CharacterMoved {
                from,
                to,
                character,
            } => format!(
                "A {} goes from {} to {}",
                self.character(*character),
                self.legion(*from),
                self.legion(*to)
            ),
            Event::Returned { legion, character } => format!(
                "{} gives a {} back to the caretaker",
                self.legion(*legion),
                self.character(*character)
            ),
            Event::Summoned {
                legion,
                from,
                character,
            } => format!(
                "{} summons {} from {}",
                self.legion(*legion),
                self.character(*character),
                self.marker(*from)
            ),
            Event::Acquired { legion, character } => format!(
                "{} acquires {}",
                self.legion(*legion),
                self.character(*character)
            ),
            Event::Mustered { legion, character } => format!(
                "{} musters {} {}",
                self.legion(*legion),
                article(&self.character(*character)),
                self.character(*character)
            ),
            Event::PlayerEliminated { player, by } => match by {
                Some(b) => format!(
                    "{} is eliminated by {}",
                    self.player(*player),
                    self.player(*b)
                ),
                None => format!("{} is eliminated", self.player(*player)),
            },
            Event::GameOver { outcome } => match outcome {
                Outcome::Winner(p) => format!("Game over: {} wins", self.player(*p)),
                Outcome::Draw(ps) => format!(
                    "Game over: a draw between {}",
                    ps.iter()
                        .map(|p| self.player(*p))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            },
            Event::Battle { events } => events
                .iter()
                .map(|e| self.battle_event(e))
                .collect::<Vec<_>>()
                .join("; "),
            Event::ScriptAction { player, name, args } => format!(
                "{}: {}{}",
                self.player(*player),
                self.action_label(name),
                self.script_args(args)
            ),
            Event::VarSet {
                variable,
                of,
                value,
            } => format!("{variable} of {of:?}: {value:?}"),
        }
    }

    /// The lines of the log: a reveal and the muster it was for read as one
    /// line ("Red's legion P1-03 (showing Troll, Troll) musters a Ranger in
    /// land 27"); `land_of` says where a legion stands, when known.
    pub fn log_lines(
        &self,
        events: &[Event],
        land_of: &dyn Fn(Marker) -> Option<LandId>,
    ) -> Vec<String> {
        // Where each mustering legion stood when it mustered: walked back
        // from now (`land_of`), undoing its moves, so that a line says what
        // was true when it was written and is not rewritten as the legion
        // moves on. A legion split off later did not exist before its
        // split: nothing is said of a marker used before.
        let mut mustered_in: Vec<Option<LandId>> = vec![None; events.len()];
        let mut known: std::collections::HashMap<Marker, Option<LandId>> = Default::default();
        for (i, e) in events.iter().enumerate().rev() {
            match e {
                Event::Mustered { legion, .. } => {
                    mustered_in[i] = *known.entry(*legion).or_insert_with(|| land_of(*legion));
                }
                Event::Moved { legion, from, .. } | Event::Teleported { legion, from, .. } => {
                    known.insert(*legion, Some(*from));
                }
                Event::Split { into, .. } => {
                    for m in into {
                        known.insert(*m, None);
                    }
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        let mut i = 0;
        while i < events.len() {
            if let (
                Event::Revealed {
                    legion,
                    characters,
                    to: None,
                },
                Some(Event::Mustered {
                    legion: l2,
                    character,
                }),
            ) = (&events[i], events.get(i + 1))
                && legion == l2
            {
                let name = self.character(*character);
                let place = mustered_in[i + 1]
                    .map(|l| format!(" in {}", self.land(l)))
                    .unwrap_or_default();
                out.push(format!(
                    "{} (showing {}) musters {} {name}{place}",
                    self.legion(*legion),
                    self.characters(characters),
                    article(&name),
                ));
                i += 2;
                continue;
            }
            out.push(self.event(&events[i]));
            i += 1;
        }
        out
    }

    pub fn battle_event(&self, e: &BattleEvent) -> String {
        match e {
            BattleEvent::EdgeChosen(edge) => format!("The attacker enters from the {edge:?} edge"),
            BattleEvent::Moved { unit, from, to } => match from {
                Some(f) => format!("{} moves {} to {}", self.unit(*unit), f.label(), to.label()),
                None => format!("{} enters at {}", self.unit(*unit), to.label()),
            },
            BattleEvent::Summoned { unit, .. } => format!("{} is summoned", self.unit(*unit)),
            BattleEvent::Reinforced { unit } => format!("{} arrives", self.unit(*unit)),
            BattleEvent::NotEntered { unit } => {
                format!("{} was not brought on and is lost", self.unit(*unit))
            }
            BattleEvent::Struck {
                unit,
                target,
                ranged,
                strike_number,
                rolls,
                hits,
            } => format!(
                "{} {} {} needing {strike_number}: rolls {} = {hits} hit{}",
                self.unit(*unit),
                if *ranged { "rangestrikes" } else { "strikes" },
                self.unit(*target),
                rolls
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
                if *hits == 1 { "" } else { "s" }
            ),
            BattleEvent::CarriedOver { target, hits } => {
                format!("{hits} hits carried over to {}", self.unit(*target))
            }
            BattleEvent::HazardDamage { unit, hits } => {
                format!("{} takes {hits} from the terrain", self.unit(*unit))
            }
            BattleEvent::Slain { unit } => format!("{} is slain", self.unit(*unit)),
            BattleEvent::PhaseBegan {
                phase,
                moving,
                defender_maneuver,
            } => match phase {
                // The moving side strikes, then the other strikes back
                // (Law of the Battlelands, Strike): two phases, two lines.
                // (In rounds of both sides' phases, then strikes, the
                // defender strikes in its turn: Law of Titan 1980, 12.B.)
                battle::Phase::Strike { striking }
                    if striking != moving && !self.strikes_after_both() =>
                {
                    format!(
                        "Round {defender_maneuver}: the {} strikes back",
                        side_word(*striking)
                    )
                }
                _ => format!(
                    "Round {defender_maneuver}: the {} {}",
                    side_word(*moving),
                    match phase {
                        battle::Phase::ChooseEdge => "chooses an edge",
                        battle::Phase::Maneuver if self.placing() => "places",
                        battle::Phase::Maneuver => "maneuvers",
                        battle::Phase::Strike { striking } if striking != moving => {
                            return format!(
                                "Round {defender_maneuver}: the {} strikes",
                                side_word(*striking)
                            );
                        }
                        battle::Phase::Strike { .. } => "strikes",
                        battle::Phase::Over => "ends",
                    }
                ),
            },
            BattleEvent::SummonOpen => "The attacker may summon".into(),
            BattleEvent::Conceded(side) => format!("The {} concedes", side_word(*side)),
            BattleEvent::Ended(w) => format!(
                "The battle is over: {}",
                match w {
                    battle::Winner::Attacker => "the attacker wins",
                    battle::Winner::Defender => "the defender wins",
                    battle::Winner::Neither => "neither side wins",
                }
            ),
            BattleEvent::Damaged { unit, hits } => {
                format!("{} takes {hits} by the variant's rules", self.unit(*unit))
            }
            BattleEvent::Removed { unit } => {
                format!("{} leaves the battle", self.unit(*unit))
            }
            BattleEvent::Healed { unit, hits } => {
                format!("{} heals {hits}", self.unit(*unit))
            }
            BattleEvent::ScriptAction { name, unit, args } => format!(
                "{}: {}{}",
                self.unit(*unit),
                self.action_label(name),
                self.script_args(args)
            ),
            BattleEvent::VarSet {
                variable,
                unit,
                value,
            } => format!("{} {variable}: {value:?}", self.unit(*unit)),
            BattleEvent::GameVarSet {
                variable,
                of,
                value,
            } => format!("{variable} of {of:?}: {value:?}"),
            BattleEvent::HazardSet { hex, hazard, until } => match until {
                Some(r) => format!("{} is {hazard} until round {r}", hex.label()),
                None => format!("{} is {hazard} for the rest of the battle", hex.label()),
            },
            BattleEvent::RoundSet { round } => format!("The battle is in round {round} now"),
            BattleEvent::ReinforcementRoundSet { round } => {
                format!("The defender may take its reinforcement in round {round}")
            }
            BattleEvent::Mounted { unit, mount } => {
                format!("{} rides {}", self.unit(*unit), self.unit(*mount))
            }
            BattleEvent::Dismounted { unit, hex } => {
                format!("{} is set down on {}", self.unit(*unit), hex.label())
            }
            BattleEvent::UnitChanged { unit, field } => {
                format!(
                    "{} changed by the variant's rules: {field}",
                    self.unit(*unit)
                )
            }
            BattleEvent::SideChanged { unit, side } => {
                format!(
                    "{} now fights for the {}",
                    self.unit(*unit),
                    side_word(*side)
                )
            }
            BattleEvent::Withdrawn { unit } => {
                format!(
                    "{} withdraws from the battle to its legion",
                    self.unit(*unit)
                )
            }
            BattleEvent::Rejoined { unit, hex } => {
                format!("{} rejoins the battle on {}", self.unit(*unit), hex.label())
            }
            BattleEvent::UnitAdded {
                character,
                side,
                hex,
                temporary,
                ..
            } => format!(
                "{}{character} joins the {} on {}",
                if *temporary { "A temporary " } else { "" },
                side_word(*side),
                hex.label()
            ),
            BattleEvent::HitsChanged { unit, from, to } => format!(
                "{} takes {to} hit{} instead of {from} by the variant's rules",
                self.unit(*unit),
                if *to == 1 { "" } else { "s" }
            ),
            BattleEvent::HazardRestored { hex } => {
                format!("{} has its own hazard again", hex.label())
            }
            BattleEvent::BattlelandSet { terrain, turns } => match turns {
                0 => format!("The battleland becomes the {terrain}'s"),
                n => format!("The battleland becomes the {terrain}'s, turned {n} third(s) round"),
            },
        }
    }
}

pub fn side_word(side: BattleSide) -> &'static str {
    match side {
        BattleSide::Attacker => "attacker",
        BattleSide::Defender => "defender",
    }
}

pub fn side_name(side: BattleSide) -> &'static str {
    match side {
        BattleSide::Attacker => "attacker's",
        BattleSide::Defender => "defender's",
    }
}

fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use titan_core::game::PlayerId;

    #[test]
    fn a_muster_line_names_the_land_of_then_not_of_now() {
        // The legion mustered in one land and moved on to another later.
        let w = words();
        let m = Marker {
            player: PlayerId(0),
            number: 1,
        };
        let ranger = w.variant.character_by_name("Ranger").unwrap();
        let events = [
            Event::Revealed {
                legion: m,
                characters: vec![ranger],
                to: None,
            },
            Event::Mustered {
                legion: m,
                character: ranger,
            },
            Event::Moved {
                legion: m,
                from: LandId::new(10),
                to: LandId::new(50),
            },
        ];
        let lines = w.log_lines(&events, &|_| Some(LandId::new(50)));
        assert!(
            lines[0].ends_with(&format!(" in {}", w.land(LandId::new(10)))),
            "{}",
            lines[0]
        );
    }

    fn words() -> Words {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
        let variant = std::sync::Arc::new(titan_core::load(&dir, &Default::default()).unwrap());
        Words {
            variant,
            players: vec!["Red".into(), "Blue".into()],
            units: Vec::new(),
        }
    }

    #[test]
    fn a_reveal_and_its_muster_read_as_one_line() {
        let w = words();
        let c = |n: &str| w.variant.character_by_name(n).unwrap();
        let legion: Marker = "P1-03".parse().unwrap();
        let land = w.variant.board.by_number(27).unwrap();
        let events = [
            Event::Revealed {
                legion,
                characters: vec![c("Troll"), c("Troll")],
                to: None,
            },
            Event::Mustered {
                legion,
                character: c("Ranger"),
            },
            Event::Rolled {
                player: PlayerId(1),
                roll: 4,
            },
        ];
        let lines = w.log_lines(&events, &|_| Some(land));
        assert_eq!(
            lines,
            [
                "Red's legion P1-03 (showing Troll, Troll) musters a Ranger in land 27",
                "Blue rolls a 4 for movement"
            ]
        );
    }

    #[test]
    fn articles_follow_the_name() {
        let w = words();
        let legion: Marker = "P2-01".parse().unwrap();
        let ogre = w.variant.character_by_name("Ogre").unwrap();
        let line = w.event(&Event::Mustered {
            legion,
            character: ogre,
        });
        assert_eq!(line, "Blue's legion P2-01 musters an Ogre");
    }

    /// Law of the Battlelands, Strike: the moving side strikes, then the
    /// other side strikes back; the log tells the two phases apart.
    #[test]
    fn the_strike_back_and_the_end_of_a_battle_read_as_words() {
        use titan_core::battle::{BattleEvent, BattleSide, Phase, Winner};
        let w = words();
        let began = |striking| BattleEvent::PhaseBegan {
            phase: Phase::Strike { striking },
            moving: BattleSide::Defender,
            defender_maneuver: 1,
        };
        assert_eq!(
            w.battle_event(&began(BattleSide::Defender)),
            "Round 1: the defender strikes"
        );
        assert_eq!(
            w.battle_event(&began(BattleSide::Attacker)),
            "Round 1: the attacker strikes back"
        );
        assert_eq!(
            w.battle_event(&BattleEvent::Ended(Winner::Attacker)),
            "The battle is over: the attacker wins"
        );
        assert_eq!(
            w.battle_event(&BattleEvent::Ended(Winner::Neither)),
            "The battle is over: neither side wins"
        );
    }
}
