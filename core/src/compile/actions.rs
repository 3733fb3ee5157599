//! The variant's own actions (`actions.ron`): who takes them and when,
//! their parameters, limits, costs, `requires` and `ai` hints, each name
//! resolved and checked.

use std::collections::{HashMap, HashSet};

use crate::format;
use crate::model::*;

use super::{Compiler, lookup};

impl Compiler<'_> {
    /// `actions.ron`: who and when agree, names resolve, limits and costs
    /// are integer variables of the right scope, and scripts give each its
    /// functions (and no undeclared action).
    pub(super) fn actions(
        &mut self,
        classes: &HashMap<&str, ClassId>,
        characters: &HashMap<&str, CharacterId>,
    ) -> Vec<ScriptAction> {
        use format::{ActionWho as W, LimitPer, VarScope, VarType};
        let mut out = Vec::new();
        for a in &self.data.actions {
            let file = self
                .origins
                .actions
                .get(&a.name)
                .copied()
                .unwrap_or(self.manifest());
            let q = format!("\"{}\"", a.name);
            let fail = |c: &mut Self, anchor: &str, msg: String| {
                c.error(file, &[&q, anchor], format!("action {:?}: {msg}", a.name));
            };
            if a.name.is_empty() || a.name.len() > 64 || a.name.contains(':') {
                fail(
                    self,
                    "name",
                    "a name is 1 to 64 characters, without ':'".into(),
                );
            }
            let battle = a.when.in_battle();
            let who = match &a.who {
                W::Player if battle => {
                    fail(self, "who", "a battle action is taken by a unit: who is AnyUnit, Class(..) or Characters([..])".into());
                    ActionWho::Player
                }
                W::Player => ActionWho::Player,
                _ if !battle => {
                    fail(
                        self,
                        "who",
                        "a masterplay action is taken by the Player".into(),
                    );
                    ActionWho::Player
                }
                W::AnyUnit => ActionWho::AnyUnit,
                W::Class(k) => match lookup(classes, k) {
                    Some(id) => ActionWho::Class(id),
                    None => {
                        fail(self, k, format!("no class {k:?}"));
                        ActionWho::AnyUnit
                    }
                },
                W::Characters(list) => {
                    let mut ids = Vec::new();
                    for c in list {
                        match lookup(characters, c) {
                            Some(id) => ids.push(id),
                            None => fail(self, c, format!("no character {c:?}")),
                        }
                    }
                    ActionWho::Characters(ids)
                }
            };
            let mut seen = HashSet::new();
            for p in &a.parameters {
                if p.name.is_empty() || !seen.insert(p.name.as_str()) {
                    fail(
                        self,
                        &p.name,
                        format!("parameter {:?} is empty or given twice", p.name),
                    );
                }
            }
            let int_var = |c: &mut Self, name: &str, scope: VarScope, what: &str| {
                match c.data.variables.iter().find(|v| v.name == name) {
                    Some(v) if v.kind == VarType::Int && v.scope == scope => {}
                    Some(_) => c.error(file, &[&q, name], format!("action {:?}: the {what} variable {name:?} must be an Int of scope {scope:?}", a.name)),
                    None => c.error(file, &[&q, name], format!("action {:?}: no variable {name:?} in variables.ron", a.name)),
                }
            };
            if let Some(l) = &a.limit {
                let scope = match (l.per, battle) {
                    (LimitPer::Battle, true) => Some(VarScope::Unit),
                    (LimitPer::Turn | LimitPer::Game, _) => Some(VarScope::Player),
                    _ => None,
                };
                match scope {
                    Some(scope) => int_var(self, &l.variable, scope, "limit"),
                    None => fail(self, "limit", "a masterplay action is limited per Turn or Game (per Battle is for battle actions)".into()),
                }
            }
            if let Some(cost) = &a.cost {
                // Who pays: the game's stock, the acting player, or (in a
                // battle) the acting unit; other scopes name nobody here.
                let scopes: &[VarScope] = if battle {
                    &[VarScope::Game, VarScope::Player, VarScope::Unit]
                } else {
                    &[VarScope::Game, VarScope::Player]
                };
                match self.data.variables.iter().find(|v| v.name == cost.variable) {
                    Some(v) if v.kind == VarType::Int && scopes.contains(&v.scope) => {}
                    Some(v) => {
                        let what = if battle {
                            "Game (the game pays), Player (the player its unit's side fights for pays) or Unit (the acting unit pays)"
                        } else {
                            "Game (the game pays) or Player (the acting player pays)"
                        };
                        let found = if v.kind == VarType::Int {
                            format!("of scope {:?}, which names nobody to pay", v.scope)
                        } else {
                            format!("a {:?}", v.kind)
                        };
                        self.error(
                            file,
                            &[&q, &cost.variable],
                            format!(
                                "action {:?}: the cost variable {:?} must be an Int of scope {what}, not {found}",
                                a.name, cost.variable
                            ),
                        );
                    }
                    None => self.error(
                        file,
                        &[&q, &cost.variable],
                        format!(
                            "action {:?}: no variable {:?} in variables.ron",
                            a.name, cost.variable
                        ),
                    ),
                }
                if cost.amount <= 0 {
                    fail(self, "amount", "a cost is more than 0".into());
                }
            }
            let requires = a.requires.as_ref().map(|r| {
                let masterplay_words = !r.legion_on.is_empty() || r.legion_set.is_some();
                if !battle && (r.actor.is_some() || !r.none.is_empty()) {
                    fail(
                        self,
                        "requires",
                        "requires: actor and none are for battle actions (a unit takes them); a masterplay action may require legion_on or legion_set".into(),
                    );
                }
                if battle && masterplay_words {
                    fail(
                        self,
                        "requires",
                        "requires: legion_on and legion_set are for masterplay actions".into(),
                    );
                }
                let mut legion_on = Vec::new();
                for n in &r.legion_on {
                    match self.data.terrains.iter().position(|t| &t.name == n) {
                        Some(i) => legion_on.push(TerrainId(i as u8)),
                        None => fail(self, n, format!("requires: no terrain {n:?}")),
                    }
                }
                let legion_set = r.legion_set.as_deref().and_then(|n| {
                    match self.data.variables.iter().find(|v| v.name == n) {
                        Some(v) if v.scope == VarScope::Legion => Some(v.clone()),
                        _ => {
                            fail(
                                self,
                                n,
                                format!("requires: legion_set names a variable of scope Legion, not {n:?}"),
                            );
                            None
                        }
                    }
                });
                let check = |c: &mut Self, u: &format::UnitCondition| {
                    let mut ids = Vec::new();
                    for n in &u.character {
                        match lookup(characters, n) {
                            Some(id) => ids.push(id),
                            None => fail(c, n, format!("requires: no character {n:?}")),
                        }
                    }
                    let mut class_ids = Vec::new();
                    for n in &u.class {
                        match lookup(classes, n) {
                            Some(id) => class_ids.push(id),
                            None => fail(c, n, format!("requires: no class {n:?}")),
                        }
                    }
                    let status = u.status.as_deref().and_then(|w| {
                        let i = crate::script::STATUS_WORDS.iter().position(|x| *x == w);
                        if i.is_none() {
                            fail(
                                c,
                                w,
                                format!(
                                    "requires: no status {w:?} ({})",
                                    crate::script::STATUS_WORDS.join(", ")
                                ),
                            );
                        }
                        i.map(|i| i as u8)
                    });
                    let set = u.set.as_deref().and_then(|n| {
                        match c.data.variables.iter().find(|v| v.name == n) {
                            Some(v) if v.scope == VarScope::Unit => Some(v.clone()),
                            Some(_) => {
                                fail(
                                    c,
                                    n,
                                    format!(
                                        "requires: set names a variable of scope Unit, not {n:?}"
                                    ),
                                );
                                None
                            }
                            None => {
                                fail(
                                    c,
                                    n,
                                    format!("requires: no variable {n:?} in variables.ron"),
                                );
                                None
                            }
                        }
                    });
                    let own_side = match u.side.as_deref() {
                        None => None,
                        Some("own") => Some(true),
                        Some("enemy") => Some(false),
                        Some(w) => {
                            fail(
                                c,
                                w,
                                format!("requires: side is \"own\" or \"enemy\", not {w:?}"),
                            );
                            None
                        }
                    };
                    crate::model::UnitCheck {
                        characters: ids,
                        classes: class_ids,
                        own_side,
                        status,
                        alive: u.alive,
                        set,
                        min_skill: u.min_skill,
                    }
                };
                crate::model::Requires {
                    actor: r.actor.as_ref().map(|u| check(self, u)),
                    none: r.none.iter().map(|u| check(self, u)).collect(),
                    legion_on,
                    legion_set,
                }
            });
            match &a.ai {
                Some(_) if battle => fail(
                    self,
                    "ai",
                    "ai is read by the masterboard's computer players: a battle action has none"
                        .into(),
                ),
                Some(format::ActionAi::Recruit {
                    legion,
                    character,
                    terrains,
                    worth,
                }) => {
                    for t in terrains {
                        if !self.data.terrains.iter().any(|x| x.name == *t) {
                            fail(self, t, format!("ai: Recruit names no terrain {t:?}"));
                        }
                    }
                    if *worth < 0 {
                        fail(self, "worth", "ai: a Recruit's worth is 0 or more".into());
                    }
                    use format::ParamKind as K;
                    for (name, kind) in [(legion, K::Legion), (character, K::Character)] {
                        if !a
                            .parameters
                            .iter()
                            .any(|p| p.name == *name && p.kind == kind)
                        {
                            fail(
                                self,
                                "ai",
                                format!(
                                    "ai: Recruit names {name:?}, which is no parameter of kind {kind:?}"
                                ),
                            );
                        }
                    }
                }
                _ => {}
            }
            let action = ScriptAction {
                def: a.clone(),
                who,
                requires,
            };
            if self.scripts_ran && !self.hooks.contains(&action.legal_hook()) {
                fail(
                    self,
                    "name",
                    format!(
                        "no script gives it its functions: titan.action({:?}, {{ legal = ..., apply = ... }})",
                        a.name
                    ),
                );
            }
            out.push(action);
        }
        let declared: HashSet<&str> = self.data.actions.iter().map(|a| a.name.as_str()).collect();
        for h in self.hooks.clone() {
            if let Some(name) = h
                .strip_prefix("action:")
                .and_then(|r| r.strip_suffix(":legal"))
                && !declared.contains(name)
            {
                let file = self.manifest();
                self.error(file, &["scripts"], format!("a script defines action {name:?} (titan.action), but actions.ron does not declare it"));
            }
        }
        out
    }
}
