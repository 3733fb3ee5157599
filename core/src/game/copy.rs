//! Copying the game state for `Game::apply` without allocating: `clone_from`
//! reuses the buffers of a spare copy (the derived `Clone` would allocate
//! every legion's lists again for every action).
//!
//! Each impl destructures its struct completely, so a field added later is a
//! compile error here rather than a field silently left uncopied.

use super::{GameState, Legion, Player};

impl Clone for Player {
    fn clone(&self) -> Self {
        let Player {
            name,
            score,
            alive,
            tower,
            markers,
            turns,
        } = self;
        Player {
            name: name.clone(),
            score: *score,
            alive: *alive,
            tower: *tower,
            markers: markers.clone(),
            turns: *turns,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Player {
            name,
            score,
            alive,
            tower,
            markers,
            turns,
        } = source;
        self.name.clone_from(name);
        self.score = *score;
        self.alive = *alive;
        self.tower = *tower;
        self.markers.clone_from(markers);
        self.turns = *turns;
    }
}

impl Clone for Legion {
    fn clone(&self) -> Self {
        let mut l = Legion {
            marker: self.marker,
            owner: self.owner,
            land: self.land,
            characters: Vec::new(),
            moved: false,
            entered_from: None,
            distance: None,
            mustered: false,
            split_from: None,
            revealed: Vec::new(),
            seen_by: 0,
            stationed: false,
        };
        l.clone_from(self);
        l
    }

    fn clone_from(&mut self, source: &Self) {
        let Legion {
            marker,
            owner,
            land,
            characters,
            moved,
            entered_from,
            distance,
            mustered,
            split_from,
            revealed,
            seen_by,
            stationed,
        } = source;
        self.marker = *marker;
        self.owner = *owner;
        self.land = *land;
        self.characters.clone_from(characters);
        self.moved = *moved;
        self.entered_from = *entered_from;
        self.distance = *distance;
        self.mustered = *mustered;
        self.split_from = *split_from;
        self.revealed.clone_from(revealed);
        self.seen_by = *seen_by;
        self.stationed = *stationed;
    }
}

impl Clone for GameState {
    fn clone(&self) -> Self {
        let GameState {
            players,
            legions,
            caretaker,
            turn,
            active,
            phase,
            roll,
            mulligan_used,
            teleports,
            summoned,
            engagement,
            outcome,
            rng_seed,
            rng_pos,
            vars,
            choice,
            showdown,
            battlelands,
            mustered,
            challenged,
        } = self;
        GameState {
            players: players.clone(),
            legions: legions.clone(),
            caretaker: caretaker.clone(),
            turn: *turn,
            active: *active,
            phase: *phase,
            roll: *roll,
            mulligan_used: *mulligan_used,
            teleports: *teleports,
            summoned: *summoned,
            engagement: engagement.clone(),
            outcome: outcome.clone(),
            rng_seed: *rng_seed,
            rng_pos: *rng_pos,
            vars: vars.clone(),
            choice: choice.clone(),
            showdown: showdown.clone(),
            battlelands: battlelands.clone(),
            mustered: mustered.clone(),
            challenged: challenged.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let GameState {
            players,
            legions,
            caretaker,
            turn,
            active,
            phase,
            roll,
            mulligan_used,
            teleports,
            summoned,
            engagement,
            outcome,
            rng_seed,
            rng_pos,
            vars,
            choice,
            showdown,
            battlelands,
            mustered,
            challenged,
        } = source;
        // `Vec::clone_from` calls the elements' `clone_from`, so the
        // players' and legions' lists keep their buffers too.
        self.players.clone_from(players);
        self.legions.clone_from(legions);
        self.caretaker.clone_from(caretaker);
        self.turn = *turn;
        self.active = *active;
        self.phase = *phase;
        self.roll = *roll;
        self.mulligan_used = *mulligan_used;
        self.teleports = *teleports;
        self.summoned = *summoned;
        self.engagement.clone_from(engagement);
        self.outcome.clone_from(outcome);
        self.rng_seed = *rng_seed;
        self.rng_pos = *rng_pos;
        self.vars.clone_from(vars);
        self.choice.clone_from(choice);
        self.showdown.clone_from(showdown);
        self.battlelands.clone_from(battlelands);
        self.mustered.clone_from(mustered);
        self.challenged.clone_from(challenged);
    }
}
