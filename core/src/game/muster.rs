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
    let table = &variant.mustering[terrain.index()];
    let mut out = Vec::new();
    for (i, row) in table.rows.iter().enumerate() {
        let recruit = row.character;
        let mut offer = |reveal: Vec<CharacterId>| out.push(MusterOption { recruit, reveal });
        if row.like && count(legion, recruit) > 0 {
            offer(vec![recruit]);
        }
        if table.ladder && row.ladder {
            for higher in &table.rows[i + 1..] {
                if higher.character != recruit && count(legion, higher.character) > 0 {
                    offer(vec![higher.character]);
                }
            }
        }
        for need in &row.needs {
            match *need {
                Needs::Previous(n) => {
                    if let Some(prev) = i.checked_sub(1).map(|p| table.rows[p].character)
                        && count(legion, prev) >= n as usize
                    {
                        offer(vec![prev; n as usize]);
                    }
                }
                Needs::Free => offer(Vec::new()),
                Needs::Identical { count: n, class } => {
                    let mut kinds: Vec<CharacterId> = legion.to_vec();
                    kinds.sort_unstable();
                    kinds.dedup();
                    for k in kinds {
                        let fits = class.is_none_or(|cl| variant.character(k).class == cl);
                        if fits && count(legion, k) >= n as usize {
                            offer(vec![k; n as usize]);
                        }
                    }
                }
                Needs::Character {
                    character,
                    count: n,
                } => {
                    if count(legion, character) >= n as usize {
                        offer(vec![character; n as usize]);
                    }
                }
                Needs::Hook(h) => {
                    if judge(h, recruit, legion) {
                        offer(Vec::new());
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}
