//! The generic hidden-information check of the soak test: what each seat
//! may know, derived from the game's public record (the events, each as its
//! addressee receives it), and a check of every field of every view against
//! it.
//!
//! Every field of a view is classified (`FIELDS`): public (the same in
//! every seat's view), the seat itself, a legion's characters (shown only
//! when the seat may know the whole legion), characters publicly shown, or
//! characters of a proposal (known to the seat). A field nobody classified
//! is an error, so a field added to the view must be placed here first.

use std::collections::HashMap;

use serde_json::Value;
use titan_core::game::view::view;
use titan_core::game::{Event, Game, Marker, PlayerId};
use titan_core::model::CharacterId;

/// What one observer knows of one legion.
#[derive(Debug, Clone, Default)]
struct Known {
    /// The whole legion, when the observer was shown all of it and has
    /// followed every change since (sorted).
    full: Option<Vec<CharacterId>>,
    /// Characters known to be in it (a lower bound, sorted).
    shown: Vec<CharacterId>,
}

fn add(list: &mut Vec<CharacterId>, c: CharacterId) {
    list.push(c);
    list.sort_unstable();
}

fn remove(list: &mut Vec<CharacterId>, c: CharacterId) {
    if let Some(i) = list.iter().position(|&x| x == c) {
        list.remove(i);
    }
}

/// Whether `part` is a sub-multiset of `whole`.
fn within(part: &[CharacterId], whole: &[CharacterId]) -> bool {
    let mut rest = whole.to_vec();
    part.iter().all(|c| match rest.iter().position(|x| x == c) {
        Some(i) => {
            rest.remove(i);
            true
        }
        None => false,
    })
}

/// The larger of two multisets, count by count.
fn merge(a: &[CharacterId], b: &[CharacterId]) -> Vec<CharacterId> {
    let mut out = a.to_vec();
    let mut rest = a.to_vec();
    for &c in b {
        match rest.iter().position(|&x| x == c) {
            Some(i) => {
                rest.remove(i);
            }
            None => out.push(c),
        }
    }
    out.sort_unstable();
    out
}

impl Known {
    fn add(&mut self, c: CharacterId) {
        if let Some(f) = &mut self.full {
            add(f, c);
        }
        add(&mut self.shown, c);
    }
    fn remove(&mut self, c: CharacterId) {
        if let Some(f) = &mut self.full {
            remove(f, c);
        }
        remove(&mut self.shown, c);
    }
}

/// What every seat, and the public (index `seats`), knows of every legion.
pub struct Knowledge {
    seats: usize,
    known: Vec<HashMap<Marker, Known>>,
}

impl Knowledge {
    pub fn new(seats: usize) -> Knowledge {
        Knowledge {
            seats,
            known: vec![HashMap::new(); seats + 1],
        }
    }

    /// Follows the events of one action, each observer receiving those
    /// addressed to all and to itself.
    pub fn observe(&mut self, events: &[Event]) {
        for o in 0..=self.seats {
            let k = &mut self.known[o];
            for e in events {
                match e {
                    Event::LegionFormed { legion, .. } => {
                        k.insert(*legion, Known::default());
                    }
                    Event::Split { legion, into } => {
                        for m in std::iter::once(legion).chain(into) {
                            k.insert(*m, Known::default());
                        }
                    }
                    Event::Revealed {
                        legion,
                        characters,
                        to,
                    } => {
                        let mut chars = characters.clone();
                        chars.sort_unstable();
                        let entry = k.entry(*legion).or_default();
                        match to {
                            None => entry.shown = merge(&entry.shown, &chars),
                            // Shown to one player: at an engagement, the
                            // whole legion (reference sheet, Engagement).
                            Some(p) if usize::from(p.0) == o => {
                                entry.shown = chars.clone();
                                entry.full = Some(chars);
                            }
                            Some(_) => {}
                        }
                    }
                    Event::Mustered { legion, character }
                    | Event::Acquired { legion, character } => {
                        k.entry(*legion).or_default().add(*character);
                    }
                    Event::Summoned {
                        legion,
                        from,
                        character,
                    }
                    | Event::CharacterMoved {
                        to: legion,
                        from,
                        character,
                    } => {
                        k.entry(*from).or_default().remove(*character);
                        k.entry(*legion).or_default().add(*character);
                    }
                    Event::Slain {
                        legion, characters, ..
                    } => {
                        let entry = k.entry(*legion).or_default();
                        for &c in characters {
                            entry.remove(c);
                        }
                    }
                    Event::Returned { legion, character } => {
                        k.entry(*legion).or_default().remove(*character);
                    }
                    Event::LegionEliminated { legion } => {
                        k.remove(legion);
                    }
                    Event::Recombined { legion, with } => {
                        let a = k.remove(legion).unwrap_or_default();
                        let b = k.remove(with).unwrap_or_default();
                        let full = match (a.full, b.full) {
                            (Some(x), Some(y)) => Some(merge_all(x, y)),
                            _ => None,
                        };
                        let shown = merge_all(a.shown, b.shown);
                        k.insert(*legion, Known { full, shown });
                    }
                    _ => {}
                }
            }
        }
    }

    /// The whole legion as observer `o` may know it: shown whole, or a
    /// lower bound as large as its (public) height.
    fn whole(&self, o: usize, legion: Marker, height: usize) -> Option<Vec<CharacterId>> {
        let k = self.known[o].get(&legion)?;
        k.full
            .clone()
            .or_else(|| (k.shown.len() == height).then(|| k.shown.clone()))
    }

    /// Characters observer `o` knows to be in the legion.
    fn some(&self, o: usize, legion: Marker) -> Vec<CharacterId> {
        self.known[o]
            .get(&legion)
            .map(|k| k.full.clone().unwrap_or_else(|| k.shown.clone()))
            .unwrap_or_default()
    }

    /// Checks every field of every seat's view; returns what leaks.
    pub fn check_views(&self, game: &Game) -> Result<(), String> {
        let views: Vec<Value> = (0..self.seats)
            .map(|s| serde_json::to_value(view(game, PlayerId(s as u8))).unwrap())
            .collect();
        for (seat, v) in views.iter().enumerate() {
            let mut ctx = Ctx {
                know: self,
                game,
                seat,
                first: &views[0],
                legion: None,
                errors: Vec::new(),
            };
            ctx.walk("", &Class::Inside, v, &views[0]);
            if let Some(e) = ctx.errors.first() {
                return Err(format!("view of seat {seat}: {e}"));
            }
        }
        Ok(())
    }
}

fn merge_all(mut a: Vec<CharacterId>, b: Vec<CharacterId>) -> Vec<CharacterId> {
    a.extend(b);
    a.sort_unstable();
    a
}

/// How a field of a view may depend on the seat.
#[derive(Debug, PartialEq)]
enum Class {
    /// An object or list: look inside.
    Inside,
    /// The same in every seat's view.
    Public,
    /// The seat itself.
    Me,
    /// A legion's characters: null unless the seat may know them all.
    LegionCharacters,
    /// Characters shown to everyone: known to the public.
    PubliclyShown,
    /// A proposal's losses: known to the seat.
    ProposalLosses,
    /// A proposal's other fields.
    ProposalOther,
}

/// Every field a view may have, by path, and its class.
const FIELDS: &[(&str, Class)] = {
    use Class::*;
    &[
        ("", Inside),
        (".me", Me),
        (".turn", Public),
        (".active", Public),
        (".phase", Public),
        (".roll", Public),
        (".caretaker", Public),
        (".battlelands", Public),
        (".outcome", Public),
        (".players", Public),
        (".legions", Inside),
        (".legions[]", Inside),
        (".legions[].marker", Public),
        (".legions[].owner", Public),
        (".legions[].land", Public),
        (".legions[].height", Public),
        (".legions[].moved", Public),
        (".legions[].characters", LegionCharacters),
        (".legions[].revealed", PubliclyShown),
        (".engagement", Inside),
        (".engagement.land", Public),
        (".engagement.attacker", Public),
        (".engagement.defender", Public),
        (".engagement.step", Inside),
        (".engagement.step.After", Public),
        (".engagement.step.Negotiate", Inside),
        (".engagement.step.Negotiate.proposal", Inside),
        (".engagement.step.Negotiate.proposal.by", ProposalOther),
        (
            ".engagement.step.Negotiate.proposal.attacker_losses",
            ProposalLosses,
        ),
        (
            ".engagement.step.Negotiate.proposal.defender_losses",
            ProposalLosses,
        ),
    ]
};

/// The path of a field (`.key`) or list entry (`[]`) under `parent`, if
/// classified in [`FIELDS`].
fn child(parent: &str, key: Option<&str>) -> Result<&'static (&'static str, Class), String> {
    let (sep, k) = match key {
        Some(k) => (".", k),
        None => ("[]", ""),
    };
    let len = parent.len() + sep.len() + k.len();
    FIELDS
        .iter()
        .find(|(p, _)| {
            p.len() == len
                && p.as_bytes()[..parent.len()] == *parent.as_bytes()
                && p.as_bytes()[parent.len()..parent.len() + sep.len()] == *sep.as_bytes()
                && p.as_bytes()[len - k.len()..] == *k.as_bytes()
        })
        .ok_or_else(|| format!("field {parent}{sep}{k} is not classified"))
}

struct Ctx<'a> {
    know: &'a Knowledge,
    game: &'a Game,
    seat: usize,
    first: &'a Value,
    /// The legion whose fields are being walked.
    legion: Option<Marker>,
    errors: Vec<String>,
}

fn chars(v: &Value) -> Vec<CharacterId> {
    let mut out: Vec<CharacterId> = v
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_u64().map(|n| CharacterId(n as u16)))
        .collect();
    out.sort_unstable();
    out
}

impl Ctx<'_> {
    /// `v` is the field at `path` (of class `class`) of this seat's view;
    /// `other` the same field in seat 0's view.
    fn walk(&mut self, path: &'static str, class: &Class, v: &Value, other: &Value) {
        match class {
            Class::Inside => match v {
                Value::Object(map) => {
                    if path == ".legions[]" {
                        self.legion = v["marker"].as_str().and_then(|m| m.parse().ok());
                    }
                    for (k, x) in map {
                        match child(path, Some(k)) {
                            Ok((p, c)) => self.walk(p, c, x, other.get(k).unwrap_or(&Value::Null)),
                            Err(e) => self.errors.push(e),
                        }
                    }
                }
                Value::Array(items) => {
                    for (i, x) in items.iter().enumerate() {
                        match child(path, None) {
                            Ok((p, c)) => self.walk(p, c, x, other.get(i).unwrap_or(&Value::Null)),
                            Err(e) => self.errors.push(e),
                        }
                    }
                }
                Value::Null => {}
                // A unit variant of an enum ("DefenderChoice", "Battle").
                Value::String(_) if path == ".engagement.step" => {
                    if v != other {
                        self.errors
                            .push(format!("{path} differs between seats: {v} / {other}"));
                    }
                }
                _ => self.errors.push(format!("{path}: unexpected {v}")),
            },
            Class::Public => {
                if v != other {
                    self.errors
                        .push(format!("{path} differs between seats: {v} / {other}"));
                }
            }
            Class::Me => {
                if v.as_u64() != Some(self.seat as u64) {
                    self.errors.push(format!("{path} is {v}"));
                }
            }
            Class::LegionCharacters | Class::PubliclyShown => {
                self.legion_field(path, v);
            }
            Class::ProposalOther => {}
            Class::ProposalLosses => {
                let e = &self.first["engagement"];
                let legion = if path.ends_with("attacker_losses") {
                    e["attacker"].as_str()
                } else {
                    e["defender"].as_str()
                };
                let Some(m) = legion.and_then(|s| s.parse::<Marker>().ok()) else {
                    self.errors.push(format!("{path}: no engaged legion"));
                    return;
                };
                let known = self.known_or_own(m);
                if !within(&chars(v), &known) {
                    self.errors.push(format!(
                        "{path} names {:?} of {m}, of which the seat knows only {known:?}",
                        chars(v)
                    ));
                }
            }
        }
    }

    /// Characters of a legion the seat knows: all of its own, else what it
    /// was shown.
    fn known_or_own(&self, m: Marker) -> Vec<CharacterId> {
        match self.game.legion(m) {
            Some(l) if usize::from(l.owner.0) == self.seat => l.characters.clone(),
            _ => self.know.some(self.seat, m),
        }
    }

    fn legion_field(&mut self, path: &str, v: &Value) {
        let Some(m) = self.legion else {
            self.errors.push(format!("{path}: outside a legion"));
            return;
        };
        let Some(legion) = self.game.legion(m) else {
            self.errors.push(format!("{path}: {m} is no legion"));
            return;
        };
        let own = usize::from(legion.owner.0) == self.seat;
        if path.ends_with("revealed") {
            let public = self.know.some(self.know.seats, m);
            if !within(&chars(v), &public) {
                self.errors.push(format!(
                    "{m}: revealed {:?}, but the public was shown only {public:?}",
                    chars(v)
                ));
            }
            return;
        }
        if v.is_null() {
            if own {
                self.errors.push(format!("{m}: its owner does not see it"));
            }
            return;
        }
        let shown = chars(v);
        if own {
            if shown != legion.characters {
                self.errors.push(format!("{m}: its owner sees {shown:?}"));
            }
            return;
        }
        match self.know.whole(self.seat, m, legion.height()) {
            Some(k) if k == shown => {}
            k => self.errors.push(format!(
                "{m} shows {shown:?}; the seat may know {k:?} of it"
            )),
        }
    }
}
