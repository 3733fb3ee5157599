//! The battle on screen: the battleland (hazard colours, higher ground paler
//! with its height marked, hexside hazards drawn as cliffs, walls, rivers or
//! slopes), the characters as counters, the selected character's hexes and
//! targets with strike numbers and dice before the roll, lines of sight,
//! carry-overs, summons and reinforcements, the round and the dice.

use egui::{Color32, Pos2, Rect, Shape, Stroke, vec2};
use titan_core::battle::{self, BattleEvent, BattleSide, Status, UnitId, UnitView};
use titan_core::battleland::{Board, HexId};
use titan_core::game::{Action, Event};

use super::board::{die, one_line};
use super::{GameScreen, seat_colour};
use crate::draw::{
    HEX, draw_hexside, hex_centre, hex_polygon, hexside_style, lighten, rgb, side_corners,
};
use crate::session::BattleInfo;
use crate::words::side_word;

/// A target the selected character may strike, and what the strike needs.
#[derive(Debug, Clone)]
pub struct Target {
    pub unit: UnitId,
    pub hex: HexId,
    pub action: battle::Action,
    pub ranged: bool,
    pub strike_number: Option<u8>,
    pub dice: Option<u8>,
    /// The hexes a rangestrike's line crosses.
    pub path: Vec<HexId>,
}

impl GameScreen {
    /// The screen position of a battleland hex's centre as last drawn
    /// (`label`: the hex's name in the battle's events and views).
    pub fn hex_screen_pos(&self, label: &str) -> Option<Pos2> {
        HexId::from_label(label)
            .filter(|&h| self.battle_board.has(h))
            .map(|h| self.hex_view.to_screen(hex_centre(&self.battle_board, h)))
    }

    /// The viewer's battle actions.
    pub fn battle_actions(&self) -> Vec<battle::Action> {
        self.my_actions()
            .into_iter()
            .filter_map(|a| match a {
                Action::Battle { battle } => Some(battle),
                _ => None,
            })
            .collect()
    }

    /// Hexes the selected character (or the chosen summon or reinforcement)
    /// may go to.
    pub fn hex_targets(&self, actions: &[battle::Action]) -> Vec<(HexId, battle::Action)> {
        if let Some(p) = &self.placing {
            return actions
                .iter()
                .filter_map(|a| match (a, p) {
                    (
                        battle::Action::Summon { choice, to },
                        battle::Action::Summon { choice: c, .. },
                    ) if choice == c => Some((*to, a.clone())),
                    (
                        battle::Action::Reinforce { choice, to },
                        battle::Action::Reinforce { choice: c, .. },
                    ) if choice == c => Some((*to, a.clone())),
                    _ => None,
                })
                .collect();
        }
        let Some(u) = self.selected_unit else {
            return Vec::new();
        };
        actions
            .iter()
            .filter_map(|a| match a {
                battle::Action::Move { unit, to } if *unit == u => Some((*to, a.clone())),
                _ => None,
            })
            .collect()
    }

    /// What the selected character may strike, with strike numbers and dice.
    pub fn strike_targets(&self, info: &BattleInfo, actions: &[battle::Action]) -> Vec<Target> {
        let Some(u) = self.selected_unit else {
            return Vec::new();
        };
        let hex_of = |t: UnitId| match info.view.units.get(t as usize).map(|v| v.status) {
            Some(Status::OnBoard(h)) => Some(h),
            _ => None,
        };
        let mut out = Vec::new();
        for a in actions {
            match a {
                battle::Action::Strike { unit, target, .. } if *unit == u => {
                    let r = self.session.strike_report(u, *target);
                    if let Some(hex) = hex_of(*target) {
                        out.push(Target {
                            unit: *target,
                            hex,
                            action: a.clone(),
                            ranged: false,
                            strike_number: r.as_ref().map(|r| r.strike_number),
                            dice: r.as_ref().map(|r| r.dice),
                            path: Vec::new(),
                        });
                    }
                }
                battle::Action::Rangestrike { unit, target } if *unit == u => {
                    let r = self.session.line_of_sight(u, *target);
                    if let Some(hex) = hex_of(*target) {
                        out.push(Target {
                            unit: *target,
                            hex,
                            action: a.clone(),
                            ranged: true,
                            strike_number: r.as_ref().and_then(|r| r.strike_number),
                            dice: r.as_ref().and_then(|r| r.dice),
                            path: r
                                .map(|r| {
                                    r.path.iter().filter_map(|l| HexId::from_label(l)).collect()
                                })
                                .unwrap_or_default(),
                        });
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn side_colour(&self, info: &BattleInfo, side: BattleSide) -> Color32 {
        let m = match side {
            BattleSide::Attacker => info.request.attacker,
            BattleSide::Defender => info.request.defender,
        };
        seat_colour(m.player)
    }

    pub(super) fn battle_canvas(&mut self, ui: &mut egui::Ui, info: &BattleInfo) {
        let variant = self.session.variant().clone();
        let data = &variant.data;
        let actions = self.battle_actions();
        let moves = self.hex_targets(&actions);
        let targets = self.strike_targets(info, &actions);
        let carry: Vec<(HexId, battle::Action)> = actions
            .iter()
            .filter_map(|a| match a {
                battle::Action::CarryOver { target: Some(t) } => info
                    .view
                    .units
                    .get(*t as usize)
                    .and_then(|u| match u.status {
                        Status::OnBoard(h) => Some((h, a.clone())),
                        _ => None,
                    }),
                _ => None,
            })
            .collect();
        let land = data
            .battlelands
            .iter()
            .find(|b| b.terrain == info.view.battleland);
        let board = land
            .and_then(|l| Board::of(l).ok())
            .unwrap_or_else(Board::standard);
        self.battle_board = board.clone();
        let board = &*board;
        let (response, painter) = self.hex_view.canvas(ui, || {
            let mut bounds = Rect::NOTHING;
            for h in board.ids() {
                bounds.extend_with(hex_centre(board, h));
            }
            bounds.expand(HEX * 1.3)
        });
        let hv = self.hex_view;
        let hazard = |name: &str| data.hazards.iter().find(|h| h.name == name);
        let small = egui::FontId::proportional((6.0 * hv.zoom).clamp(6.0, 16.0));
        for hex in board.ids() {
            let def = land.and_then(|l| l.hexes.get(board.label(hex)));
            let base = def
                .and_then(|d| hazard(&d.hazard))
                .map_or(Color32::DARK_GRAY, |h| rgb(h.color));
            let elevation = def.map_or(0, |d| d.elevation);
            let fill = lighten(base, 0.16 * f32::from(elevation));
            painter.add(Shape::convex_polygon(
                hex_polygon(&hv, board, hex),
                fill,
                Stroke::new(1.0 + f32::from(elevation), Color32::from_gray(20)),
            ));
            let c = hex_centre(board, hex);
            let mut text = board.label(hex).to_string();
            if let Some(d) = def
                && d.hazard != data.hazards.first().map_or("", |h| h.name.as_str())
            {
                text = format!("{text} {}", d.hazard);
            }
            // Height: one small peak per level under the label.
            for k in 0..elevation {
                let x = (f32::from(k) - f32::from(elevation - 1) / 2.0) * HEX * 0.2;
                let base = c + vec2(x, -HEX * 0.3);
                painter.add(Shape::convex_polygon(
                    vec![
                        hv.to_screen(base + vec2(-HEX * 0.08, 0.0)),
                        hv.to_screen(base + vec2(0.0, -HEX * 0.12)),
                        hv.to_screen(base + vec2(HEX * 0.08, 0.0)),
                    ],
                    Color32::from_gray(60),
                    Stroke::NONE,
                ));
            }
            painter.text(
                hv.to_screen(c + vec2(0.0, -HEX * 0.68)),
                egui::Align2::CENTER_TOP,
                text,
                small.clone(),
                Color32::BLACK,
            );
        }
        if let Some(land) = land {
            for hex in board.ids() {
                let Some(def) = land.hexes.get(board.label(hex)) else {
                    continue;
                };
                let c = hex_centre(board, hex);
                for (side, name) in &def.sides {
                    if let Some(h) = hazard(name) {
                        draw_hexside(
                            &painter,
                            &hv,
                            c,
                            side_corners(c, *side),
                            hexside_style(h),
                            rgb(h.color),
                        );
                    }
                }
            }
        }
        for (hex, _) in &moves {
            let mut pts = hex_polygon(&hv, board, *hex);
            pts.push(pts[0]);
            painter.add(Shape::line(
                pts,
                Stroke::new(4.0, Color32::from_rgb(0, 230, 255)),
            ));
        }
        let selected_hex = self
            .selected_unit
            .and_then(|u| place_in(&info.view.units, u));
        for t in &targets {
            if t.ranged
                && let Some(from) = selected_hex
            {
                painter.line_segment(
                    [
                        hv.to_screen(hex_centre(board, from)),
                        hv.to_screen(hex_centre(board, t.hex)),
                    ],
                    Stroke::new(2.0, Color32::from_rgb(255, 150, 0)),
                );
                for h in &t.path {
                    painter.circle_stroke(
                        hv.to_screen(hex_centre(board, *h)),
                        HEX * 0.25 * hv.zoom,
                        Stroke::new(2.0, Color32::from_rgb(255, 150, 0)),
                    );
                }
            }
        }
        for u in &info.view.units {
            if let Status::OnBoard(h) = u.status {
                let selected = self.selected_unit == Some(u.id);
                self.counter(
                    &painter,
                    hv.to_screen(hex_centre(board, h)),
                    HEX * 1.05 * hv.zoom,
                    u,
                    info,
                    selected,
                );
            }
        }
        // Riders (`ctx:mount`): a small counter on the mount's, top right.
        for u in &info.view.units {
            if let (Status::Riding(_), Some(h)) = (u.status, place_in(&info.view.units, u.id)) {
                let selected = self.selected_unit == Some(u.id);
                self.counter(
                    &painter,
                    hv.to_screen(hex_centre(board, h) + vec2(HEX * 0.45, -HEX * 0.45)),
                    HEX * 0.55 * hv.zoom,
                    u,
                    info,
                    selected,
                );
            }
        }
        let big = egui::FontId::proportional((9.0 * hv.zoom).clamp(9.0, 22.0));
        for t in &targets {
            let mut pts = hex_polygon(&hv, board, t.hex);
            pts.push(pts[0]);
            let ink = if t.ranged {
                Color32::from_rgb(255, 150, 0)
            } else {
                Color32::RED
            };
            painter.add(Shape::line(pts, Stroke::new(4.0, ink)));
            if let (Some(n), Some(d)) = (t.strike_number, t.dice) {
                let at = hv.to_screen(hex_centre(board, t.hex) + vec2(0.0, HEX * 0.62));
                let text = format!("{n}+ ×{d}");
                let galley = painter.layout_no_wrap(text, big.clone(), Color32::WHITE);
                let r = Rect::from_center_size(at, galley.size() + vec2(6.0, 2.0));
                painter.rect_filled(r, 3.0, ink);
                painter.galley(r.min + vec2(3.0, 1.0), galley, Color32::WHITE);
            }
        }
        for (h, _) in &carry {
            painter.circle_stroke(
                hv.to_screen(hex_centre(board, *h)),
                HEX * 0.9 * hv.zoom,
                Stroke::new(4.0, Color32::from_rgb(255, 220, 0)),
            );
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
            && let Some((hex, _)) = crate::draw::hex_at(board, hv.to_board(p))
        {
            self.hex_click(hex, info, &actions, &moves, &targets, &carry);
        }
    }

    /// A unit as a line of text: its name, factors and marks.
    fn unit_words(&self, u: &UnitView) -> String {
        match crate::counters::Marks::of_name(self.session.variant(), &u.character) {
            Some(m) => format!("{} {}{}", u.character, m.factors(u.power, u.skill), {
                let b = m.badges();
                if b.is_empty() { b } else { format!(" {b}") }
            }),
            None => format!("{} {}-{}", u.character, u.power, u.skill),
        }
    }

    /// A character's counter: name, power-skill (a star for a flyer), the
    /// marks of a rangestriker, a lord and its native hazards, damage.
    fn counter(
        &self,
        painter: &egui::Painter,
        at: Pos2,
        size: f32,
        u: &UnitView,
        info: &BattleInfo,
        selected: bool,
    ) {
        let rect = Rect::from_center_size(at, vec2(size, size * 0.78));
        crate::draw::counter_face(painter, rect, 4.0, self.side_colour(info, u.side), selected);
        let name_font = egui::FontId::proportional((size * 0.2).clamp(6.0, 18.0));
        painter.text(
            rect.center_top() + vec2(0.0, size * 0.06),
            egui::Align2::CENTER_TOP,
            &u.character,
            name_font,
            Color32::WHITE,
        );
        let marks = crate::counters::Marks::of_name(self.session.variant(), &u.character);
        let factors = match &marks {
            Some(m) => m.factors(u.power, u.skill),
            None => format!("{}-{}", u.power, u.skill),
        };
        painter.text(
            rect.center_bottom() - vec2(0.0, size * 0.06),
            egui::Align2::CENTER_BOTTOM,
            factors,
            egui::FontId::proportional((size * 0.24).clamp(6.0, 20.0)),
            Color32::WHITE,
        );
        if let Some(m) = &marks {
            m.draw(painter, rect, size);
        }
        if u.damage > 0 {
            let c = rect.right_top();
            painter.circle_filled(c, size * 0.16, Color32::from_rgb(200, 0, 0));
            painter.text(
                c,
                egui::Align2::CENTER_CENTER,
                u.damage.to_string(),
                egui::FontId::proportional((size * 0.2).clamp(6.0, 18.0)),
                Color32::WHITE,
            );
        }
    }

    fn hex_click(
        &mut self,
        hex: HexId,
        info: &BattleInfo,
        actions: &[battle::Action],
        moves: &[(HexId, battle::Action)],
        targets: &[Target],
        carry: &[(HexId, battle::Action)],
    ) {
        let chosen = moves
            .iter()
            .chain(carry.iter())
            .find(|(h, _)| *h == hex)
            .map(|(_, a)| a.clone())
            .or_else(|| {
                targets
                    .iter()
                    .find(|t| t.hex == hex)
                    .map(|t| t.action.clone())
            });
        if let Some(a) = chosen {
            self.placing = None;
            self.act(&Action::Battle { battle: a });
            // Keep the striker selected while it has strikes left.
            if !self
                .battle_actions()
                .iter()
                .any(|b| acts(b) == self.selected_unit)
            {
                self.selected_unit = None;
            }
            return;
        }
        let at = info
            .view
            .units
            .iter()
            .find(|u| u.status == Status::OnBoard(hex))
            .map(|u| u.id);
        self.placing = None;
        // A second click on a mount selects its rider; a third, nobody.
        let rider = at.and_then(|m| {
            info.view
                .units
                .iter()
                .find(|r| r.status == Status::Riding(m))
                .map(|r| r.id)
        });
        self.selected_unit = match at {
            Some(u) if self.selected_unit == Some(u) && rider.is_some() => rider,
            Some(u)
                if self.selected_unit != Some(u)
                    && (rider.is_none() || self.selected_unit != rider) =>
            {
                Some(u)
            }
            _ => None,
        };
        let _ = actions;
    }

    pub(super) fn battle_panel(&mut self, ui: &mut egui::Ui, info: &BattleInfo) {
        let actions = self.battle_actions();
        let view = &info.view;
        let words = self.words(&view.units);
        ui.heading(format!(
            "Battle in {}: {}",
            words.land(info.request.land),
            view.battleland
        ));
        ui.label(format!(
            "{} attacks {}",
            words.legion(info.request.attacker),
            words.legion(info.request.defender)
        ));
        let rules = &self.session.variant().rules.battle;
        let procedure = &rules.procedure;
        let placing = procedure.movement == titan_core::format::Maneuvering::Placement;
        // Without a time limit a round has no "of".
        let of = if procedure.time_loss {
            format!(" of {}", rules.defender_maneuvers)
        } else {
            String::new()
        };
        ui.label(
            egui::RichText::new(format!(
                "Round {}{of}: the {}",
                view.defender_maneuver.max(1),
                match view.phase {
                    battle::Phase::ChooseEdge =>
                        format!("{} chooses an edge", side_word(view.moving)),
                    battle::Phase::Maneuver if placing =>
                        format!("{} places", side_word(view.moving)),
                    battle::Phase::Maneuver => format!("{} maneuvers", side_word(view.moving)),
                    // The side that moved strikes, then the other strikes
                    // back (Law of the Battlelands, Strike); in rounds of
                    // both sides' placements the defender strikes in turn.
                    battle::Phase::Strike { striking }
                        if striking == view.moving
                            || procedure.round == titan_core::format::Round::BothThenStrikes =>
                        format!("{} strikes", side_word(striking)),
                    battle::Phase::Strike { striking } =>
                        format!("{} strikes back", side_word(striking)),
                    battle::Phase::Over => "battle is over".to_string(),
                }
            ))
            .strong(),
        );
        ui.label(format!("You are the {}", side_word(info.side)));
        if actions.is_empty() {
            ui.label(format!("Waiting for the {}", side_word(view.to_act)));
        }
        self.last_dice(ui);
        crate::counters::legend(ui);
        ui.separator();
        // Characters not yet on the battleland, to bring on.
        let mut select = None;
        let waiting: Vec<&UnitView> = view
            .units
            .iter()
            .filter(|u| u.status == Status::Waiting && u.side == info.side)
            // A showdown's other teams wait unseen.
            .filter(|u| view.team.is_none() || view.teams.get(u.id as usize) == view.team.as_ref())
            .collect();
        if !waiting.is_empty() {
            ui.label("Waiting to enter (click, then a highlighted hex):");
            ui.horizontal_wrapped(|ui| {
                for u in waiting {
                    let has_moves = actions
                        .iter()
                        .any(|a| matches!(a, battle::Action::Move { unit, .. } if *unit == u.id));
                    let label = self.unit_words(u);
                    if ui
                        .add_enabled(
                            has_moves,
                            egui::Button::selectable(self.selected_unit == Some(u.id), label),
                        )
                        .clicked()
                    {
                        select = Some(u.id);
                    }
                }
            });
        }
        if let Some(u) = select {
            self.selected_unit = Some(u);
            self.placing = None;
        }
        if let Some(u) = self.selected_unit.and_then(|u| view.units.get(u as usize)) {
            ui.label(format!(
                "Selected: {} {} (power {}, skill {}, damage {})",
                crate::words::side_name(u.side),
                u.character,
                u.power,
                u.skill,
                u.damage
            ));
            if let Some(m) = crate::counters::Marks::of_name(self.session.variant(), &u.character)
                && !m.words().is_empty()
            {
                ui.label(format!("({})", m.words()));
            }
            let targets = self.strike_targets(info, &actions);
            let mut choice = None;
            for t in &targets {
                let name = view
                    .units
                    .get(t.unit as usize)
                    .map_or("?".into(), |u| u.character.clone());
                let label = format!(
                    "{} {} in {}: needs {}, {} dice",
                    if t.ranged { "Rangestrike" } else { "Strike" },
                    name,
                    t.hex.label(),
                    t.strike_number.map_or("?".into(), |n| n.to_string()),
                    t.dice.map_or("?".into(), |n| n.to_string())
                );
                if ui.button(label).clicked() {
                    choice = Some(t.action.clone());
                }
            }
            if let Some(a) = choice {
                self.act(&Action::Battle { battle: a });
            }
        }
        if let Some(c) = view.carry {
            ui.label(format!(
                "{} hits may be carried over (strike number {}):",
                c.hits, c.strike_number
            ));
        }
        // Summons and reinforcements: one button per choice, then a hex.
        let mut place = None;
        let mut shown: Vec<&battle::Action> = Vec::new();
        for a in &actions {
            let label = match a {
                battle::Action::Summon { choice, .. } => info
                    .request
                    .summonable
                    .get(*choice as usize)
                    .map(|(m, c)| format!("Summon {} from {m}", words.character(*c))),
                battle::Action::Reinforce { choice, .. } => info
                    .request
                    .reinforcements
                    .get(*choice as usize)
                    .map(|c| format!("Reinforce with {}", words.character(*c))),
                _ => None,
            };
            if let Some(label) = label
                && !shown.iter().any(|p| same_choice(p, a))
            {
                shown.push(a);
                if ui.button(label).clicked() {
                    place = Some(a.clone());
                }
            }
        }
        drop(words);
        if let Some(p) = place {
            self.placing = Some(p);
            self.selected_unit = None;
        }
        if self.placing.is_some() {
            ui.label("Click a highlighted hex to bring it on.");
        }
        // Everything else as buttons (edges, carry-overs, ends, concessions,
        // and whatever else the engine offers).
        // A variant's actions (spells, abilities) are grouped by who does
        // what: one button when there is one way to do it, otherwise a
        // header that opens on a button per choice of its arguments.
        let words = self.words(&view.units);
        let mut choice = None;
        let mut scripts: Vec<(String, Vec<(String, &battle::Action)>)> = Vec::new();
        for a in &actions {
            match a {
                battle::Action::Move { .. }
                | battle::Action::Strike { .. }
                | battle::Action::Rangestrike { .. } => {}
                battle::Action::Summon { .. } | battle::Action::Reinforce { .. } => {}
                // The phase's end and the concession are the bar's.
                a if super::ends::is_battle_end(a) => {}
                battle::Action::Script { .. } => {
                    if let Some((what, args)) = words.battle_script_parts(a) {
                        match scripts.iter_mut().find(|(w, _)| *w == what) {
                            Some((_, list)) => list.push((args, a)),
                            None => scripts.push((what, vec![(args, a)])),
                        }
                    }
                }
                // Placement phases: the newcomer waits with the uncommitted.
                battle::Action::SummonUncommitted { choice: c } => {
                    if let Some((m, ch)) = info.request.summonable.get(*c as usize)
                        && ui
                            .button(format!(
                                "Summon {} from {m} to wait uncommitted",
                                words.character(*ch)
                            ))
                            .clicked()
                    {
                        choice = Some(a.clone());
                    }
                }
                battle::Action::ReinforceUncommitted { choice: c } => {
                    if let Some(ch) = info.request.reinforcements.get(*c as usize)
                        && ui
                            .button(format!(
                                "Reinforce with {} to wait uncommitted",
                                words.character(*ch)
                            ))
                            .clicked()
                    {
                        choice = Some(a.clone());
                    }
                }
                _ => {
                    if ui.button(words.battle_action(a)).clicked() {
                        choice = Some(a.clone());
                    }
                }
            }
        }
        drop(words);
        for (what, list) in &scripts {
            if let [(args, a)] = list.as_slice() {
                let label = if args.is_empty() {
                    what.clone()
                } else {
                    format!("{what}: {args}")
                };
                if ui.button(label).clicked() {
                    choice = Some((*a).clone());
                }
                continue;
            }
            egui::CollapsingHeader::new(format!("{what} ({} choices)", list.len()))
                .id_salt(what)
                .show(ui, |ui| {
                    for (args, a) in list {
                        if ui.button(args).clicked() {
                            choice = Some((*a).clone());
                        }
                    }
                });
        }
        if let Some(a) = choice {
            self.selected_unit = None;
            self.placing = None;
            self.act(&Action::Battle { battle: a });
        }
        ui.separator();
        ui.collapsing("Characters", |ui| {
            for u in &view.units {
                let place = match u.status {
                    Status::Waiting => "waiting".to_string(),
                    Status::OnBoard(h) => h.label(),
                    Status::Riding(m) => format!(
                        "riding {} on {}",
                        view.units
                            .get(m as usize)
                            .map_or("?", |m| m.character.as_str()),
                        place_in(&view.units, u.id)
                            .map(HexId::label)
                            .unwrap_or_default()
                    ),
                    Status::Gone(f) => format!("{f:?}"),
                };
                ui.label(format!(
                    "{} {} {}-{}, damage {}: {place}",
                    crate::words::side_name(u.side),
                    u.character,
                    u.power,
                    u.skill,
                    u.damage
                ));
            }
        });
    }

    /// The dice of the last strike.
    fn last_dice(&self, ui: &mut egui::Ui) {
        let total = self.session.event_count();
        let events = self.session.events(self.viewer, total.saturating_sub(40));
        let last = events.iter().rev().find_map(|(_, e)| match e {
            Event::Battle { events } => events.iter().rev().find_map(|b| match b {
                BattleEvent::Struck {
                    rolls,
                    strike_number,
                    hits,
                    ..
                } => Some((rolls.clone(), *strike_number, *hits)),
                _ => None,
            }),
            _ => None,
        });
        if let Some((rolls, n, hits)) = last {
            ui.horizontal_wrapped(|ui| {
                one_line(ui, format!("Last strike, needing {n}:"));
                for r in rolls {
                    die(ui, r);
                }
                one_line(ui, format!("= {hits} hits"));
            });
        }
    }
}

fn acts(a: &battle::Action) -> Option<UnitId> {
    match a {
        battle::Action::Strike { unit, .. }
        | battle::Action::Rangestrike { unit, .. }
        | battle::Action::Move { unit, .. } => Some(*unit),
        _ => None,
    }
}

fn same_choice(a: &battle::Action, b: &battle::Action) -> bool {
    matches!((a, b),
        (battle::Action::Summon { choice: x, .. }, battle::Action::Summon { choice: y, .. })
        | (battle::Action::Reinforce { choice: x, .. }, battle::Action::Reinforce { choice: y, .. })
        if x == y)
}

/// The hex of unit `id` in a view: its own, or its mount's while it rides.
fn place_in(units: &[battle::UnitView], id: UnitId) -> Option<HexId> {
    match units.get(id as usize)?.status {
        Status::OnBoard(h) => Some(h),
        Status::Riding(m) => match units.get(m as usize)?.status {
            Status::OnBoard(h) => Some(h),
            _ => None,
        },
        _ => None,
    }
}
