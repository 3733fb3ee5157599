//! The legion markers' names (`rules.legions.marker_names`): labels shown
//! beside the markers' numbers, checked so that every name labels a marker
//! the game can have.

use crate::format::LegionRules;

use super::Compiler;

impl Compiler<'_> {
    /// A seat's list longer than `markers_per_player` (names of markers no
    /// game has) and a blank name are errors, each at its place in the file.
    pub(super) fn marker_names(&mut self, l: &LegionRules) {
        let file = self.origins.rules_file("legions");
        let per = usize::from(l.markers_per_player);
        for (seat, names) in l.marker_names.iter().enumerate() {
            if names.len() > per {
                let anchors = anchors_before(&l.marker_names, seat, 0);
                let anchors: Vec<&str> = anchors.iter().map(String::as_str).collect();
                self.error(
                    file,
                    &anchors,
                    format!(
                        "rules.legions.marker_names: seat {} has {} names, but a player has {} markers (markers_per_player)",
                        seat + 1,
                        names.len(),
                        per
                    ),
                );
            }
            for (i, name) in names.iter().enumerate() {
                if name.trim().is_empty() {
                    let mut anchors = anchors_before(&l.marker_names, seat, i);
                    anchors.push(format!("{name:?}"));
                    let anchors: Vec<&str> = anchors.iter().map(String::as_str).collect();
                    self.error(
                        file,
                        &anchors,
                        format!(
                            "rules.legions.marker_names: the name of seat {}'s marker {} is blank",
                            seat + 1,
                            i + 1
                        ),
                    );
                }
            }
        }
    }
}

/// Anchors that lead through the file to seat `seat`'s list (its `[`) and
/// then past its first `index` names: the outer list's bracket, each
/// earlier seat's bracket and names, quoted, in order (so that a name
/// written twice is found at the right place).
fn anchors_before(all: &[Vec<String>], seat: usize, index: usize) -> Vec<String> {
    let mut anchors = vec!["legions".into(), "marker_names".into(), "[".into()];
    for names in all.iter().take(seat) {
        anchors.push("[".into());
        anchors.extend(names.iter().map(|n| format!("{n:?}")));
    }
    anchors.push("[".into());
    if let Some(names) = all.get(seat) {
        anchors.extend(names.iter().take(index).map(|n| format!("{n:?}")));
    }
    anchors
}
