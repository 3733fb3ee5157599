//! Mustering: what a legion may muster in a terrain, and what it must show.
//!
//! Reads the variant's mustering tables (the Masterchart): a legion may muster
//! a row's character if it holds one already (`like`), if the table is a
//! ladder (and the row on it) and it holds a character of a higher row, or if
//! one of the row's `needs` holds. Each way of qualifying is offered with the characters it
//! reveals (reference sheet, "Enlistment": "Reveal the character(s) that
//! qualify you to muster").

use serde::{Deserialize, Serialize};

use crate::model::{CharacterId, Needs, TerrainId, Variant};

/// One way to muster: the recruit and the characters shown to qualify.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MusterOption {
    pub recruit: CharacterId,
    pub reveal: Vec<CharacterId>,
}

/// Decides the `Hook` needs of a table: called with the hook's index, the
/// recruit and the legion's characters; true when the legion qualifies.
pub type HookJudge<'a> =
    &'a mut dyn FnMut(crate::model::HookId, CharacterId, &[CharacterId]) -> bool;

fn count(legion: &[CharacterId], c: CharacterId) -> usize {
    legion.iter().filter(|&&x| x == c).count()
}

/// Every way `legion` may muster in `terrain`, ignoring the caretaker's
/// stock and the legion's size (the caller checks those). Sorted, no
/// duplicates.
pub fn options(
    variant: &Variant,
    terrain: TerrainId,
    legion: &[CharacterId],
    judge: HookJudge<'_>,
) -> Vec<MusterOption> {
    let mut out = Vec::new();
    visit(variant, terrain, legion, judge, &mut |recruit, shown| {
        out.push(MusterOption {
            recruit,
            reveal: shown.to_vec(),
        });
    });
    out.sort();
    out.dedup();
    out
}

/// One way to muster without its list: the recruit and the characters
/// shown, `count` of `shown` (every way shows one kind). Ordered as
/// [`MusterOption`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Way {
    pub(crate) recruit: CharacterId,
    pub(crate) shown: CharacterId,
    pub(crate) count: u8,
}

impl Way {
    /// The characters shown, as [`MusterOption::reveal`] lists them.
    pub(crate) fn reveal(&self) -> Vec<CharacterId> {
        vec![self.shown; usize::from(self.count)]
    }

    /// Whether this is `o`.
    pub(crate) fn is(&self, o: &MusterOption) -> bool {
        self.recruit == o.recruit
            && o.reveal.len() == usize::from(self.count)
            && o.reveal.iter().all(|&c| c == self.shown)
    }
}

impl Ord for Way {
    fn cmp(&self, other: &Way) -> std::cmp::Ordering {
        // As the lists compare: none shown first, then by kind, then count.
        let shown = |w: &Way| (w.count > 0, if w.count > 0 { w.shown.0 } else { 0 });
        (self.recruit, shown(self), self.count).cmp(&(other.recruit, shown(other), other.count))
    }
}

impl PartialOrd for Way {
    fn partial_cmp(&self, other: &Way) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// [`options`] into `out` (cleared first) as [`Way`]s: sorted, no
/// duplicates, nothing allocated once `out` has room.
pub(crate) fn ways_into(
    variant: &Variant,
    terrain: TerrainId,
    legion: &[CharacterId],
    judge: HookJudge<'_>,
    out: &mut Vec<Way>,
) {
    out.clear();
    visit(variant, terrain, legion, judge, &mut |recruit, shown| {
        out.push(Way {
            recruit,
            shown: shown.first().copied().unwrap_or(recruit),
            count: shown.len() as u8,
        });
    });
    out.sort();
    out.dedup();
}

/// Hands every way `legion` may muster in `terrain` to `f` (the recruit
/// and the characters shown, all of one kind), in the tables' order, with
/// repeats.
fn visit(
    variant: &Variant,
    terrain: TerrainId,
    legion: &[CharacterId],
    judge: HookJudge<'_>,
    f: &mut dyn FnMut(CharacterId, &[CharacterId]),
) {
    // Room for the most shown at once; more (no table asks it) is listed.
    let mut many = Vec::new();
    let mut offer = |recruit: CharacterId, c: CharacterId, n: usize| {
        const ROOM: usize = 16;
        if n <= ROOM {
            f(recruit, &[c; ROOM][..n]);
        } else {
            many.clear();
            many.resize(n, c);
            f(recruit, &many);
        }
    };
    let table = &variant.mustering[terrain.index()];
    for (i, row) in table.rows.iter().enumerate() {
        let recruit = row.character;
        if row.like && count(legion, recruit) > 0 {
            offer(recruit, recruit, 1);
        }
        if table.ladder && row.ladder {
            for higher in &table.rows[i + 1..] {
                if higher.character != recruit && count(legion, higher.character) > 0 {
                    offer(recruit, higher.character, 1);
                }
            }
        }
        for need in &row.needs {
            match *need {
                Needs::Previous(n) => {
                    if let Some(prev) = i.checked_sub(1).map(|p| table.rows[p].character)
                        && count(legion, prev) >= n as usize
                    {
                        offer(recruit, prev, n as usize);
                    }
                }
                Needs::Free => offer(recruit, recruit, 0),
                Needs::Identical { count: n, class } => {
                    // Each kind once.
                    for (j, &k) in legion.iter().enumerate() {
                        if legion[..j].contains(&k) {
                            continue;
                        }
                        let fits = class.is_none_or(|cl| variant.character(k).class == cl);
                        if fits && count(legion, k) >= n as usize {
                            offer(recruit, k, n as usize);
                        }
                    }
                }
                Needs::Character {
                    character,
                    count: n,
                } => {
                    if count(legion, character) >= n as usize {
                        offer(recruit, character, n as usize);
                    }
                }
                Needs::Hook(h) => {
                    if judge(h, recruit, legion) {
                        offer(recruit, recruit, 0);
                    }
                }
            }
        }
    }
}
