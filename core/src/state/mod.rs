//! The positions the engines change and scripts read: a battle's units
//! (where each stands, what scripts changed of it, the hazards scripts
//! changed) and the masterboard's (players, legions, caretaker, turn).
//! Types only, and the little that reads them; the rules that change them
//! are the battle's and masterplay's.

pub mod extra;
pub mod game;
pub mod overlay;
pub mod units;
