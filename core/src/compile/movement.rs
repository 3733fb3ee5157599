//! `rules.movement`: the die, muster distances, the terrains `must_move`
//! exempts, the words of `keep_out` and `truce`.

use crate::format;

use super::Compiler;

impl Compiler<'_> {
    /// Whether some character "has" `w`: it is its name, its class's, or
    /// one of its abilities (`keep_out`, `truce`).
    fn is_word(&self, w: &str) -> bool {
        self.data
            .characters
            .iter()
            .any(|c| c.name == w || c.class == w || c.abilities.iter().any(|a| a == w))
    }

    /// Every name and number of `rules.movement` that must mean something.
    pub(super) fn movement_rules(&mut self, m: &format::MovementRules) {
        if m.die == 0 {
            self.error(
                self.origins.rules_file("movement"),
                &["die"],
                "rules.movement: the die needs at least one side",
            );
        }
        for &d in &m.muster_distances {
            if d == 0 || d > m.die {
                self.error(
                    self.origins.rules_file("movement"),
                    &["muster_distances"],
                    format!(
                        "rules.movement: muster_distances holds {d}, but a legion moves 1 to {} lands (the die)",
                        m.die
                    ),
                );
            }
        }
        for w in &m.truce {
            if !self.is_word(w) {
                self.error(
                    self.origins.rules_file("movement"),
                    &["truce"],
                    format!("rules.movement.truce: no character, class or ability is {w:?}"),
                );
            }
        }
        for (i, k) in m.keep_out.iter().enumerate() {
            let file = self.origins.rules_file("movement");
            let anchors = ["keep_out"];
            for name in k.terrains.iter().chain(&k.except_terrains) {
                if !self.data.terrains.iter().any(|t| &t.name == name) {
                    self.error(
                        file,
                        &anchors,
                        format!("rules.movement.keep_out[{i}]: no terrain is named {name:?}"),
                    );
                }
            }
            if !k.terrains.is_empty() && !k.except_terrains.is_empty() {
                self.error(
                    file,
                    &anchors,
                    format!(
                        "rules.movement.keep_out[{i}]: give terrains or except_terrains, not both"
                    ),
                );
            }
            if k.having.is_empty() && k.lacking.is_empty() {
                self.error(
                    file,
                    &anchors,
                    format!(
                        "rules.movement.keep_out[{i}]: say whom it keeps out (having or lacking)"
                    ),
                );
            }
            let unknown: Vec<String> = k
                .having
                .iter()
                .chain(&k.lacking)
                .chain(&k.unless_legion_has)
                .filter(|w| !self.is_word(w))
                .cloned()
                .collect();
            for w in unknown {
                self.error(
                    file,
                    &anchors,
                    format!(
                        "rules.movement.keep_out[{i}]: no character, class or ability is {w:?}"
                    ),
                );
            }
        }
        for name in m.must_move.iter().flat_map(|mm| &mm.except_terrains) {
            if !self.data.terrains.iter().any(|t| &t.name == name) {
                self.error(
                    self.origins.rules_file("movement"),
                    &["must_move", "except_terrains"],
                    format!("rules.movement.must_move: no terrain is named {name:?}"),
                );
            }
        }
    }
}
