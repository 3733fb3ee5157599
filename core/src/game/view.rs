//! What a player may see: [`view`] is everything that leaves the engine for
//! a player.
//!
//! A player sees his own legions in full and other legions as marker, land
//! and height, plus the characters the rules have revealed: those shown to
//! muster or teleport (to everyone), and the whole of an opposing legion in
//! an engagement (to the engaged players). A proposed agreement names
//! characters of both engaged legions: only the engaged players see it.

use serde::{Deserialize, Serialize};

use super::{Engagement, EngagementStep, Game, Legion, Outcome, Phase, PlayerId};
use crate::model::{CharacterId, LandId};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    pub me: PlayerId,
    pub turn: u32,
    pub active: PlayerId,
    pub phase: Phase,
    pub roll: Option<u8>,
    pub players: Vec<PlayerSummary>,
    pub legions: Vec<LegionView>,
    /// The caretaker's stacks are open to all.
    pub caretaker: Vec<u32>,
    pub engagement: Option<Engagement>,
    pub outcome: Option<Outcome>,
    /// The scripts' variables this player may see (their visibility), other
    /// than defaults.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vars: Vec<crate::vars::VarEntry>,
    /// The battleland each terrain drew for this game (`GameState::
    /// battlelands`, public): a client holding the variant plays on them
    /// through `Variant::with_drawn`. Empty when no terrain has several.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battlelands: Vec<u8>,
    /// A showdown being fought (public: who challenges whom, the legions
    /// committed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub showdown: Option<crate::state::game::Showdown>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    pub name: String,
    pub score: u32,
    pub alive: bool,
    pub tower: Option<LandId>,
    pub titan_power: u8,
    pub markers_left: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegionView {
    pub marker: super::Marker,
    pub owner: PlayerId,
    pub land: LandId,
    pub height: usize,
    /// All its characters, when this player may know them.
    pub characters: Option<Vec<CharacterId>>,
    /// Characters everyone has been shown.
    pub revealed: Vec<CharacterId>,
    pub moved: bool,
    /// A tower legion, which never moves (`rules.start.stationed`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stationed: bool,
}

fn legion_view(me: PlayerId, l: &Legion) -> LegionView {
    let known = l.owner == me || l.seen_by & (1 << me.0) != 0;
    LegionView {
        marker: l.marker,
        owner: l.owner,
        land: l.land,
        height: l.height(),
        characters: known.then(|| l.characters.clone()),
        revealed: l.revealed.clone(),
        moved: l.moved,
        stationed: l.stationed,
    }
}

/// The engagement as `me` sees it: players outside it do not see a proposal
/// (nor whether there is one).
fn engagement_view(game: &Game, me: PlayerId, e: &Engagement) -> Engagement {
    let engaged = [e.attacker, e.defender]
        .iter()
        .any(|&m| game.legion(m).is_some_and(|l| l.owner == me));
    let mut e = e.clone();
    if !engaged && let EngagementStep::Negotiate { proposal } = &mut e.step {
        *proposal = None;
    }
    e
}

/// The game as `me` may see it.
pub fn view(game: &Game, me: PlayerId) -> PlayerView {
    let s = &game.state;
    PlayerView {
        me,
        turn: s.turn,
        active: s.active,
        phase: s.phase,
        roll: s.roll,
        players: s
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| PlayerSummary {
                name: p.name.clone(),
                score: p.score,
                alive: p.alive,
                tower: p.tower,
                titan_power: game.titan_power(PlayerId(i as u8)),
                markers_left: p.markers.len(),
            })
            .collect(),
        legions: s.legions.iter().map(|l| legion_view(me, l)).collect(),
        caretaker: s.caretaker.clone(),
        engagement: s.engagement.as_ref().map(|e| engagement_view(game, me, e)),
        outcome: s.outcome.clone(),
        vars: s
            .vars
            .visible(&game.variant, Some(me), |t| var_owner(game, t)),
        battlelands: s.battlelands.clone(),
        showdown: s.showdown.clone(),
    }
}

/// Who owns what a variable belongs to (for `Owner` visibility).
pub fn var_owner(game: &Game, target: &crate::vars::VarTarget) -> Option<PlayerId> {
    use crate::vars::VarTarget;
    match *target {
        VarTarget::Player(p) => Some(p),
        VarTarget::Legion(m) | VarTarget::Character(m, _) => {
            Some(game.legion(m).map_or(m.player, |l| l.owner))
        }
        VarTarget::Game | VarTarget::Land(_) | VarTarget::Unit(_) => None,
    }
}

/// Whether `player` may see `event`: characters revealed to one player are
/// that player's alone, and a negotiation is the engaged players' (as
/// [`engagement_view`] hides a proposal). Every event that leaves the engine
/// for a player (the game window, the game server) passes this.
pub fn event_seen_by(event: &super::Event, player: PlayerId) -> bool {
    use super::Event;
    match event {
        Event::Revealed { to: Some(to), .. } => *to == player,
        Event::Proposed { by, to } | Event::Rejected { by, to } => *by == player || *to == player,
        _ => true,
    }
}
