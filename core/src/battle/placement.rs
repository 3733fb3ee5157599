//! Placement phases (`procedure.movement: Placement`): characters are
//! committed to their side's zone, shift one hex, and a side must fill its
//! hexes; the rules of the Law of Titan 1980, section 11, as any variant
//! may choose them.

use super::*;
use crate::format::{Maneuvering, Procedure};

impl<'v> Battle<'v> {
    /// The battle procedure of the variant.
    #[inline]
    pub(super) fn procedure(&self) -> &Procedure {
        &self.variant.rules.battle.procedure
    }

    /// Are characters committed and shifted rather than entered and moved?
    #[inline]
    pub(super) fn placing(&self) -> bool {
        self.procedure().movement == Maneuvering::Placement
    }

    /// The hexes of `side`'s zone: the board's zone of the procedure's name,
    /// else the hexes along the side's edge.
    pub(super) fn zone(&self, s: &State, side: BattleSide) -> HexSet {
        if s.teams.active() {
            return s
                .teams
                .list
                .iter()
                .filter(|t| t.side == side)
                .fold(0, |m, t| m | t.zone);
        }
        let p = self.procedure();
        let board = &self.land_in(s).board;
        let (name, edge) = match side {
            BattleSide::Attacker => (&p.attacker_zone, s.attacker_edge),
            BattleSide::Defender => (&p.defender_zone, s.attacker_edge.opposite()),
        };
        board.zone(name).unwrap_or_else(|| board.edge(edge))
    }

    /// The hexes `character` may stand in (its hazard lets it enter, or,
    /// for a flyer, land).
    fn standable(&self, s: &State, character: CharacterId, flies: bool) -> HexSet {
        let moves = &self.tables_in(s).moves[self.variant.battle_tables.move_class(character)];
        let walk = moves.enter.iter().fold(0, |m, k| m | k);
        let land = if flies {
            moves.landing[0] | moves.landing[1]
        } else {
            0
        };
        walk | land
    }

    /// Where `character` of `side` may be committed now: the vacant hexes
    /// of its side's zone it may stand in, and for an attacker's flyer
    /// those of the defender's zone too (Law of Titan 1980, 11.B).
    pub(super) fn commit_hexes(
        &self,
        s: &State,
        character: CharacterId,
        side: BattleSide,
        flies: bool,
        occupied: HexSet,
    ) -> HexSet {
        self.commit_hexes_to(s, self.zone(s, side), character, side, flies, occupied)
    }

    /// [`Battle::commit_hexes`] with `zone` the side's (or team's) own.
    fn commit_hexes_to(
        &self,
        s: &State,
        mut zone: HexSet,
        character: CharacterId,
        side: BattleSide,
        flies: bool,
        occupied: HexSet,
    ) -> HexSet {
        if side == BattleSide::Attacker && flies {
            zone |= self.zone(s, BattleSide::Defender);
        }
        zone & !occupied & self.standable(s, character, flies)
    }

    /// Every hex unit `i` may be committed or shifted to in this placement
    /// phase.
    pub(super) fn placement_reach(&self, s: &State, i: usize, occupied: HexSet) -> HexSet {
        let u = &s.units[i];
        if u.side != s.moving
            || u.moved
            || u.locked
            || s.extra(i).may_move == Some(false)
            || !s.acts(i)
        {
            return 0;
        }
        let flies = self.flies_of(s, i);
        // Hexes a battle of teams leaves to nobody.
        let open = !s.teams.forbidden;
        match u.status {
            Status::Waiting => {
                let zone = self.team_zone(s, i, u.side);
                self.commit_hexes_to(s, zone, u.character, u.side, flies, occupied) & open
            }
            Status::OnBoard(h) => {
                // A shift: one hex for the procedure's points, by the
                // hazards' movement (Law of Titan 1980, 11.B and 21).
                let land = self.land_in(s);
                let points = self.procedure().shift;
                let set = self.with_moves(s, i, |moves| {
                    geometry::reach_set_with(land, moves, points, flies, From::Hex(h), occupied)
                });
                open & match u.side {
                    // The defender never shifts into the attacker's hexes.
                    BattleSide::Defender => set & !self.zone(s, BattleSide::Attacker),
                    BattleSide::Attacker => set,
                }
            }
            _ => 0,
        }
    }

    /// Lists the commits and shifts of a placement decision.
    pub(super) fn list_placements(
        &self,
        s: &State,
        occupied: HexSet,
        out: &mut impl listing::ActionSink,
    ) {
        for i in 0..s.units.len() {
            let set = self.placement_reach(s, i, occupied);
            if set != 0 {
                out.moves(i as UnitId, set);
            }
        }
    }

    /// Why the moving side may not end its placement phase yet, if so: it
    /// can still fill one of its hexes (11.A), or, the attacker, it has
    /// nobody in contact and a commit or shift would bring one (11.C).
    pub(super) fn placement_obliged(&self, s: &State) -> Option<String> {
        let side = s.moving;
        let occupied = occupied_set(s);
        let own = if s.teams.active() {
            s.teams
                .list
                .get(usize::from(s.teams.turn))
                .map_or(0, |t| t.zone)
        } else {
            self.zone(s, side)
        } & !occupied;
        let fill = (0..s.units.len()).find(|&i| {
            let u = &s.units[i];
            u.side == side
                && u.status == Status::Waiting
                && self.placement_reach(s, i, occupied) & own != 0
        });
        if let Some(i) = fill {
            return Some(format!(
                "{} can still be committed to a vacant hex of its side: each side fills as many of its hexes as it can (Law of Titan 1980, 11.A)",
                self.variant.character(s.units[i].character).name
            ));
        }
        if side != BattleSide::Attacker {
            return None;
        }
        let defenders = self.enemy_hexes(s, side);
        let on_board = |i: usize| s.units[i].side == side && s.units[i].alive();
        let in_contact = (0..s.units.len())
            .filter(|&i| on_board(i))
            .filter_map(|i| s.place(i))
            .any(|h| self.contact_at(s, h) & defenders != 0);
        if in_contact || defenders == 0 {
            return None;
        }
        let can = (0..s.units.len()).any(|i| {
            hexes(self.placement_reach(s, i, occupied))
                .any(|h| self.contact_at(s, h) & defenders != 0)
        });
        can.then(|| {
            "the attacker must shift to keep a character next to a defender's (Law of Titan 1980, 11.C)"
                .to_string()
        })
    }
}
