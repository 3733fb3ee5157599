//! The masterboard in play: lands as the editor draws them, legion markers,
//! the moves of the selected legion, and the side panel with the players,
//! the die, the split editor and every decision of the phase.

use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, pos2, vec2};
use titan_core::game::view::{LegionView, PlayerView};
use titan_core::game::{Action, Marker, Phase, PlayerId};

use titan_core::model::{CharacterId, LandId};

use super::{GameScreen, SplitEdit, phase_name, seat_colour};
use crate::draw::{SIDE, centroid, draw_sign, rgb, triangle};
use crate::session::SPECTATOR;

/// Where the selected legion may go.
#[derive(Debug, Default, Clone)]
pub struct Targets {
    /// Normal moves: land, and the lands it may be entered from.
    pub moves: Vec<(LandId, Vec<Action>)>,
    pub teleports: Vec<(LandId, Vec<Action>)>,
}

impl GameScreen {
    /// The screen position of a land's centre as last drawn.
    pub fn land_screen_pos(&self, number: u32) -> Option<Pos2> {
        let v = self.session.variant();
        let id = v.board.by_number(number)?;
        let [a, b, c] = triangle(v.board.land(id).position);
        Some(self.board_view.to_screen(centroid(a, b, c)))
    }

    /// The screen position of a legion's marker as last drawn.
    pub fn marker_screen_pos(&self, marker: Marker) -> Option<Pos2> {
        self.marker_screen_rect(marker).map(|r| r.center())
    }

    /// The screen rectangle of a legion's marker as last drawn.
    pub fn marker_screen_rect(&self, marker: Marker) -> Option<Rect> {
        let view = self.view();
        let l = view.legions.iter().find(|l| l.marker == marker)?;
        let here: Vec<&LegionView> = view.legions.iter().filter(|o| o.land == l.land).collect();
        let i = here.iter().position(|o| o.marker == marker)?;
        let tri = triangle(self.session.variant().board.land(l.land).position);
        let r = marker_rects(tri, here.len())[i];
        let bv = self.board_view;
        Some(Rect::from_min_max(bv.to_screen(r.min), bv.to_screen(r.max)))
    }

    /// The moves and teleports of the selected legion among the viewer's
    /// legal actions.
    pub fn targets(&self, actions: &[Action]) -> Targets {
        let mut t = Targets::default();
        let Some(sel) = self.selected else {
            return t;
        };
        for a in actions {
            match a {
                Action::Move { legion, to, .. } if *legion == sel => {
                    push(&mut t.moves, *to, a.clone());
                }
                Action::Teleport { legion, to, .. } if *legion == sel => {
                    push(&mut t.teleports, *to, a.clone());
                }
                _ => {}
            }
        }
        t
    }

    pub(super) fn board_canvas(&mut self, ui: &mut egui::Ui) {
        let variant = self.session.variant().clone();
        let view = self.view();
        let actions = self.my_actions();
        let targets = self.targets(&actions);
        super::lands::legend(ui, &variant);
        let (response, painter) = self.board_view.canvas(ui, || {
            let mut bounds = Rect::NOTHING;
            for id in variant.board.lands() {
                for p in triangle(variant.board.land(id).position) {
                    bounds.extend_with(p);
                }
            }
            bounds.expand(SIDE * 0.3)
        });
        let bv = self.board_view;
        let font = egui::FontId::proportional((7.0 * bv.zoom).clamp(6.0, 26.0));
        let screen_tri = |id: LandId| -> Vec<Pos2> {
            triangle(variant.board.land(id).position)
                .iter()
                .map(|p| bv.to_screen(*p))
                .collect()
        };
        for id in variant.board.lands() {
            let land = variant.board.land(id);
            let pts = screen_tri(id);
            let fill = rgb(variant.terrains[land.terrain.index()].color);
            painter.add(Shape::convex_polygon(
                pts.clone(),
                fill,
                Stroke::new(1.0, Color32::BLACK),
            ));
        }
        for id in variant.board.lands() {
            let from = variant.board.land(id).position;
            for (sign, to) in variant.board.exits(id) {
                draw_sign(&painter, &bv, from, variant.board.land(to).position, sign);
            }
        }
        for id in variant.board.lands() {
            let land = variant.board.land(id);
            // The number on a pale tab, so the signs never hide it.
            let [a, b, c] = triangle(land.position);
            let top = centroid(a, b, c) + vec2(0.0, -SIDE * 0.2);
            let galley =
                painter.layout_no_wrap(land.number.to_string(), font.clone(), Color32::BLACK);
            let r = Rect::from_center_size(bv.to_screen(top), galley.size() + vec2(2.0, 0.0));
            painter.rect_filled(r, 2.0, Color32::from_white_alpha(150));
            painter.galley(r.min + vec2(1.0, 0.0), galley, Color32::BLACK);
        }
        super::lands::draw_terrain_names(&painter, &variant, bv);
        // Teleports: a dashed outline; moves, on top: a solid one.
        for (land, _) in &targets.teleports {
            if targets.moves.iter().any(|(l, _)| l == land) {
                continue;
            }
            let mut pts = screen_tri(*land);
            pts.push(pts[0]);
            painter.extend(Shape::dashed_line(
                &pts,
                Stroke::new(4.0, Color32::from_rgb(255, 60, 220)),
                8.0,
                5.0,
            ));
        }
        for (land, _) in &targets.moves {
            painter.add(Shape::closed_line(
                screen_tri(*land),
                Stroke::new(4.0, Color32::from_rgb(0, 230, 255)),
            ));
        }
        self.draw_legions(&painter, &view);
        // Hovering a marker tells what the viewer knows of the legion.
        if let Some(p) = response.hover_pos() {
            let hovered = view.legions.iter().find(|l| {
                self.marker_screen_rect(l.marker)
                    .is_some_and(|r| r.contains(p))
            });
            let mut lines = Vec::new();
            if let Some(l) = hovered {
                lines.push(format!(
                    "{} in {}: {}",
                    self.words(&[]).legion(l.marker),
                    self.words(&[]).land(l.land),
                    self.contents(l)
                ));
            }
            // And what the land is.
            if let Some(land) = super::lands::land_at(&variant, bv.to_board(p)) {
                lines.push(self.land_info(land, &view));
            }
            if !lines.is_empty() {
                response.clone().on_hover_text_at_pointer(lines.join("\n"));
            }
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            self.board_click(bv.to_board(p), &view, &targets);
        }
    }

    fn draw_legions(&self, painter: &egui::Painter, view: &PlayerView) {
        let variant = self.session.variant();
        let bv = self.board_view;
        let mut by_land: std::collections::BTreeMap<LandId, Vec<&LegionView>> = Default::default();
        for l in &view.legions {
            by_land.entry(l.land).or_default().push(l);
        }
        for (land, legions) in by_land {
            let tri = triangle(variant.board.land(land).position);
            let [a, b, c] = tri;
            let centre = centroid(a, b, c);
            let rects = marker_rects(tri, legions.len());
            // Engaged: two players' legions, not on a shared land or under a
            // treaty, where they stand together unengaged.
            if legions.len() > 1
                && legions.iter().any(|l| l.owner != legions[0].owner)
                && !variant.is_shared(land)
                && !variant.at_peace(view.turn)
            {
                painter.circle_stroke(
                    bv.to_screen(centre),
                    SIDE * 0.42 * bv.zoom,
                    Stroke::new(3.0, Color32::RED),
                );
            }
            for (l, r) in legions.iter().zip(rects) {
                let rect = Rect::from_min_max(bv.to_screen(r.min), bv.to_screen(r.max));
                let size = rect.width();
                let font = egui::FontId::proportional((size * 0.42).clamp(4.0, 22.0));
                let selected = self.selected == Some(l.marker);
                crate::draw::counter_face(painter, rect, 3.0, seat_colour(l.owner), selected);
                // The marker's number on top, the height large below.
                painter.text(
                    rect.center_top() + vec2(0.0, size * 0.05),
                    egui::Align2::CENTER_TOP,
                    format!("{:02}", l.marker.number),
                    egui::FontId::proportional((size * 0.3).clamp(4.0, 14.0)),
                    Color32::WHITE,
                );
                painter.text(
                    rect.center_bottom() - vec2(0.0, size * 0.02),
                    egui::Align2::CENTER_BOTTOM,
                    l.height.to_string(),
                    font.clone(),
                    Color32::WHITE,
                );
                if let Some(name) = variant.marker_name(l.marker) {
                    marker_name(painter, rect, name);
                }
                if l.moved {
                    painter.circle_filled(rect.right_top(), size * 0.12, Color32::WHITE);
                }
            }
        }
    }

    fn board_click(&mut self, board: Pos2, view: &PlayerView, targets: &Targets) {
        let variant = self.session.variant().clone();
        let Some(land) = variant.board.lands().find(|&id| {
            let [a, b, c] = triangle(variant.board.land(id).position);
            crate::draw::in_triangle(board, a, b, c)
        }) else {
            return;
        };
        // A click on a highlighted land moves the selected legion there (when
        // only one way is possible; else the panel offers the choices).
        for list in [&targets.moves, &targets.teleports] {
            if let Some((_, actions)) = list.iter().find(|(l, _)| *l == land) {
                if actions.len() == 1 {
                    let a = actions[0].clone();
                    self.act(&a);
                } else {
                    self.status = "Several ways there: pick one in the panel".into();
                }
                return;
            }
        }
        let here: Vec<&LegionView> = view.legions.iter().filter(|l| l.land == land).collect();
        // A click on a marker selects that marker's legion (a second click
        // on it, none), whichever of the land's legions it is.
        let rects = marker_rects(triangle(variant.board.land(land).position), here.len());
        if let Some(i) = rects.iter().position(|r| r.contains(board)) {
            let m = here[i].marker;
            self.selected = (self.selected != Some(m)).then_some(m);
            return;
        }
        let mine: Vec<Marker> = here
            .iter()
            .filter(|l| l.owner == self.viewer)
            .map(|l| l.marker)
            .collect();
        let all: Vec<Marker> = mine
            .iter()
            .copied()
            .chain(
                here.iter()
                    .filter(|l| l.owner != self.viewer)
                    .map(|l| l.marker),
            )
            .collect();
        // Repeated clicks beside the markers go round the legions in the
        // land, the viewer's first.
        self.selected = match self.selected.and_then(|s| all.iter().position(|m| *m == s)) {
            Some(i) if all.len() > 1 => Some(all[(i + 1) % all.len()]),
            Some(_) => None,
            None => all.first().copied(),
        };
    }

    pub(super) fn board_panel(&mut self, ui: &mut egui::Ui) {
        let view = self.view();
        let actions = self.my_actions();
        self.players_table(ui, &view);
        ui.separator();
        if let Some(roll) = view.roll {
            ui.horizontal(|ui| {
                // Where the mover chooses the distance, no die was rolled.
                if self.session.variant().rules.movement.chosen_distance {
                    one_line(ui, format!("Moving {roll} this turn"));
                } else {
                    one_line(ui, "Movement roll");
                    die(ui, roll);
                }
            });
        }
        let words = self.words(&[]);
        // Whose turn it is, as the top bar says it: a player who may only
        // concede the game out of turn is waiting, not in his phase.
        let acting = self.viewer != SPECTATOR && self.session.to_act().contains(&self.viewer);
        // Online, an action on its way to the server leaves none offered
        // for a moment: the phase is still the viewer's.
        let online = !self.session.drives_computers();
        if acting && (!actions.is_empty() || online) {
            let text = if view.active == self.viewer {
                format!(
                    "{}: your {}",
                    words.player(self.viewer),
                    phase_name(view.phase)
                )
            } else {
                format!(
                    "{}: yours to act in {}'s {}",
                    words.player(self.viewer),
                    words.player(view.active),
                    phase_name(view.phase)
                )
            };
            ui.label(egui::RichText::new(text).strong());
        } else if self.replay.is_none() {
            // Out of turn the panel asks nothing of the viewer: whose
            // phase it is, and that he waits (or watches).
            let acting = self.session.to_act();
            let names = acting
                .iter()
                .map(|p| words.player(*p))
                .collect::<Vec<_>>()
                .join(", ");
            let who = if self.viewer == SPECTATOR {
                "you are watching".to_string()
            } else {
                format!("you are waiting for {names}")
            };
            ui.label(
                egui::RichText::new(format!(
                    "{}'s {}: {who}",
                    words.player(view.active),
                    phase_name(view.phase)
                ))
                .strong(),
            );
        }
        drop(words);
        self.engagement_box(ui, &view, &actions);
        self.split_box(ui, &view, &actions);
        self.selected_box(ui, &view, &actions);
        self.action_buttons(ui, &view, &actions);
        ui.separator();
        self.legion_list(ui, &view);
    }

    fn players_table(&self, ui: &mut egui::Ui, view: &PlayerView) {
        egui::Grid::new("players").striped(true).show(ui, |ui| {
            ui.label("player");
            ui.label("score");
            ui.label("Titan power");
            ui.label("markers");
            ui.end_row();
            for (i, p) in view.players.iter().enumerate() {
                let id = PlayerId(i as u8);
                let mut name = egui::RichText::new(&p.name).color(seat_colour(id));
                if id == view.active {
                    name = name.strong().underline();
                }
                ui.label(name);
                ui.label(p.score.to_string());
                ui.label(if p.alive {
                    p.titan_power.to_string()
                } else {
                    "dead".into()
                });
                ui.label(p.markers_left.to_string());
                ui.end_row();
            }
        });
    }

    /// What the viewer knows of a legion.
    pub fn contents(&self, l: &LegionView) -> String {
        let words = self.words(&[]);
        match &l.characters {
            Some(cs) => words.characters(cs),
            None if l.revealed.is_empty() => format!("{} characters", l.height),
            None => format!(
                "{} characters, shown: {}",
                l.height,
                words.characters(&l.revealed)
            ),
        }
    }

    /// The split editor: click a character to move it to the next column.
    fn split_box(&mut self, ui: &mut egui::Ui, view: &PlayerView, actions: &[Action]) {
        let initial: Vec<&Vec<Vec<CharacterId>>> = actions
            .iter()
            .filter_map(|a| match a {
                Action::InitialSplit { legions } => Some(legions),
                _ => None,
            })
            .collect();
        if !initial.is_empty() && self.split.as_ref().is_none_or(|s| s.legion.is_some()) {
            self.split = Some(SplitEdit {
                legion: None,
                columns: initial[0].clone(),
            });
        }
        let Some(mut edit) = self.split.clone() else {
            return;
        };
        ui.separator();
        let words = self.words(&[]);
        let titles: Vec<String> = match edit.legion {
            None => (1..=edit.columns.len())
                .map(|i| format!("Legion {i}"))
                .collect(),
            Some(m) => vec![format!("{m} keeps"), "New legion".to_string()],
        };
        ui.label(match edit.legion {
            None => "Divide your starting characters: click one to move it.".to_string(),
            Some(m) => format!("Split {m}: click a character to move it across."),
        });
        // A click moves a character to the next column; a drag drops it on
        // the column it is let go over.
        let mut moved: Option<(usize, usize, usize)> = None;
        let n = edit.columns.len();
        // Every column as tall as the longest, so a drop lands anywhere
        // beside it.
        let rows = edit.columns.iter().map(Vec::len).max().unwrap_or(0) as f32;
        let height = 24.0 + rows * (ui.spacing().interact_size.y + ui.spacing().item_spacing.y);
        ui.columns(n, |cols| {
            for (i, col) in cols.iter_mut().enumerate() {
                let (_, dropped) = col.dnd_drop_zone::<(usize, usize), _>(
                    egui::Frame::default().inner_margin(4.0),
                    |ui| {
                        ui.set_min_size(vec2(ui.available_width(), height));
                        ui.label(egui::RichText::new(&titles[i]).strong());
                        for (j, c) in edit.columns[i].iter().enumerate() {
                            let r = ui.add(
                                egui::Button::new(words.character(*c))
                                    .sense(Sense::click_and_drag()),
                            );
                            if r.drag_started() || r.dragged() {
                                r.dnd_set_drag_payload((i, j));
                            }
                            if r.clicked() {
                                moved = Some((i, j, (i + 1) % n));
                            }
                        }
                    },
                );
                if let Some(p) = dropped
                    && p.0 != i
                {
                    moved = Some((p.0, p.1, i));
                }
            }
        });
        if let Some((i, j, to)) = moved
            && j < edit.columns[i].len()
        {
            let c = edit.columns[i].remove(j);
            edit.columns[to].push(c);
            for col in &mut edit.columns {
                col.sort();
            }
        }
        let wanted = |legions: &[Vec<CharacterId>]| {
            let mut a: Vec<Vec<CharacterId>> = legions.to_vec();
            for l in &mut a {
                l.sort();
            }
            a.sort();
            a
        };
        let mine = wanted(&edit.columns);
        let legal = actions.iter().find(|a| match (a, edit.legion) {
            (Action::InitialSplit { legions }, None) => wanted(legions) == mine,
            (Action::Split { legion, parts }, Some(m)) if *legion == m => {
                let mut all = parts.clone();
                let mut rest = view
                    .legions
                    .iter()
                    .find(|l| l.marker == m)
                    .and_then(|l| l.characters.clone())
                    .unwrap_or_default();
                for p in parts {
                    for c in p {
                        if let Some(k) = rest.iter().position(|x| x == c) {
                            rest.remove(k);
                        }
                    }
                }
                all.push(rest);
                wanted(&all) == mine
            }
            _ => false,
        });
        drop(words);
        ui.horizontal(|ui| {
            let label = if edit.legion.is_none() {
                "Divide"
            } else {
                "Split"
            };
            if ui
                .add_enabled(legal.is_some(), egui::Button::new(label))
                .clicked()
                && let Some(a) = legal.cloned()
            {
                self.split = None;
                self.act(&a);
                return;
            }
            if legal.is_none() {
                ui.label("(not a legal division)");
            }
            if edit.legion.is_some() && ui.button("Cancel split").clicked() {
                self.split = None;
                return;
            }
            self.split = Some(edit.clone());
        });
    }

    /// The selected legion: its contents and moves.
    fn selected_box(&mut self, ui: &mut egui::Ui, view: &PlayerView, actions: &[Action]) {
        let Some(l) = self
            .selected
            .and_then(|m| view.legions.iter().find(|l| l.marker == m))
            .cloned()
        else {
            return;
        };
        ui.separator();
        let words = self.words(&[]);
        ui.label(
            egui::RichText::new(format!(
                "Selected: {} in {}",
                words.legion(l.marker),
                words.land(l.land)
            ))
            .strong(),
        );
        ui.label(self.contents(&l));
        // Each known character with its factors and marks, as its counter
        // shows them.
        if let Some(cs) = &l.characters {
            let v = self.session.variant();
            ui.horizontal_wrapped(|ui| {
                for &c in cs {
                    let m = crate::counters::Marks::of(v, c);
                    let ch = v.character(c);
                    let power = if c == v.rules.titan.character {
                        view_titan_power(&self.view(), l.owner).unwrap_or(ch.power)
                    } else {
                        ch.power
                    };
                    let badges = m.badges();
                    let text = format!(
                        "{} {}{}{}",
                        ch.name,
                        m.factors(power, ch.skill),
                        if badges.is_empty() { "" } else { " " },
                        badges
                    );
                    ui.label(egui::RichText::new(text).small())
                        .on_hover_text(m.words());
                }
            });
        }
        let can_split = actions
            .iter()
            .any(|a| matches!(a, Action::Split { legion, .. } if *legion == l.marker));
        let t = self.targets(actions);
        let mut choice = None;
        for (_, list) in &t.moves {
            for a in list {
                if ui.button(words.action(a)).clicked() {
                    choice = Some(a.clone());
                }
            }
        }
        if !t.teleports.is_empty() {
            let n: usize = t.teleports.iter().map(|(_, l)| l.len()).sum();
            egui::CollapsingHeader::new(format!("Teleports ({n}, dashed on the board)"))
                .default_open(n <= 6)
                .show(ui, |ui| {
                    for (_, list) in &t.teleports {
                        for a in list {
                            if ui.button(words.action(a)).clicked() {
                                choice = Some(a.clone());
                            }
                        }
                    }
                });
        }
        drop(words);
        if can_split
            && self.split.is_none()
            && let Some(cs) = &l.characters
            && ui.button("Split this legion").clicked()
        {
            self.split = Some(SplitEdit {
                legion: Some(l.marker),
                columns: vec![cs.clone(), Vec::new()],
            });
        }
        if let Some(a) = choice {
            self.act(&a);
        }
    }

    /// Every other decision, as buttons: the phase's own (roll, mulligan,
    /// done), the engagement's (flee, concede, propose, fight), mustering
    /// with what must be shown, and anything a variant adds.
    fn action_buttons(&mut self, ui: &mut egui::Ui, view: &PlayerView, actions: &[Action]) {
        let board_handled = |a: &Action| {
            matches!(
                a,
                Action::InitialSplit { .. }
                    | Action::Split { .. }
                    | Action::Move { .. }
                    | Action::Teleport { .. }
            )
        };
        let rest: Vec<&Action> = actions.iter().filter(|a| !board_handled(a)).collect();
        if rest.is_empty() {
            return;
        }
        ui.separator();
        let words = self.words(&[]);
        let mut choice = None;
        let mut last_legion = None;
        for a in rest {
            // The phase's end and conceding are the bar's (fixed places).
            if *a == Action::ConcedeGame || super::ends::is_phase_end(a) {
                continue;
            }
            if let Action::Muster { legion, .. } = a
                && last_legion != Some(*legion)
            {
                last_legion = Some(*legion);
                if let Some(l) = view.legions.iter().find(|l| l.marker == *legion) {
                    ui.label(format!(
                        "{} in {} ({}) may muster:",
                        words.marker(*legion),
                        words.land(l.land),
                        self.contents(l)
                    ));
                }
            }
            if ui.button(words.action(a)).clicked() {
                choice = Some(a.clone());
            }
        }
        // The hints are for the player whose phase it is (out of turn he
        // may only concede, which is the bar's).
        let mine = view.active == self.viewer && self.session.to_act().contains(&self.viewer);
        if mine && view.phase == Phase::Move && view.roll.is_some() && self.selected.is_none() {
            ui.label("Click one of your legions to see where it may go.");
        }
        if mine
            && view.phase == Phase::Move
            && view.roll.is_some()
            && !actions.contains(&Action::DoneMoving)
            && actions
                .iter()
                .any(|a| matches!(a, Action::Move { .. } | Action::Teleport { .. }))
        {
            ui.label(self.why_not_done_moving(view));
        }
        if mine && view.phase == Phase::Split && self.split.is_none() {
            ui.label("Click one of your legions to split it.");
        }
        drop(words);
        if let Some(a) = choice {
            self.act(&a);
        }
    }

    /// Why the movement phase may not end yet, as the rules say it: split
    /// legions still sharing a land must part, or no legion has moved.
    fn why_not_done_moving(&self, view: &PlayerView) -> String {
        let words = self.words(&[]);
        let mine: Vec<&LegionView> = view
            .legions
            .iter()
            .filter(|l| l.owner == self.viewer)
            .collect();
        let together: Vec<String> = mine
            .iter()
            .filter(|l| {
                mine.iter()
                    .any(|o| o.marker != l.marker && o.land == l.land)
            })
            .map(|l| format!("{} in {}", words.marker(l.marker), words.land(l.land)))
            .collect();
        if !together.is_empty() {
            format!(
                "\"Done moving\" comes once legions that split move apart ({}): split legions must end in different lands if they can.",
                together.join(", ")
            )
        } else if !mine.iter().any(|l| l.moved) {
            "\"Done moving\" comes once you move at least one legion.".into()
        } else {
            "\"Done moving\" is not offered yet.".into()
        }
    }

    /// Every legion as the viewer knows it (what the board's markers say).
    fn legion_list(&self, ui: &mut egui::Ui, view: &PlayerView) {
        egui::CollapsingHeader::new("Legions")
            .default_open(true)
            .show(ui, |ui| {
                let words = self.words(&[]);
                for l in &view.legions {
                    ui.label(format!(
                        "{} in {}: {}",
                        words.marker(l.marker),
                        words.land(l.land),
                        self.contents(l)
                    ));
                }
            });
    }
}

/// A marker's name, small, between its number and its height, where the
/// counter is large enough (zoomed in) for it to be read; a smaller counter
/// leaves it to the tooltip and the panels, which always say it.
fn marker_name(painter: &egui::Painter, rect: Rect, name: &str) {
    let size = rect.width();
    let chars = name.chars().count().max(1) as f32;
    // About half a point of width a character: the name fits the face.
    let points = (size * 0.2).min(size * 0.9 / (0.55 * chars));
    if points < 7.0 {
        return;
    }
    painter.text(
        rect.center() - vec2(0.0, size * 0.08),
        egui::Align2::CENTER_CENTER,
        name,
        egui::FontId::proportional(points),
        Color32::WHITE,
    );
}

fn push(list: &mut Vec<(LandId, Vec<Action>)>, land: LandId, a: Action) {
    match list.iter_mut().find(|(l, _)| *l == land) {
        Some((_, v)) => v.push(a),
        None => list.push((land, vec![a])),
    }
}

/// Where the markers of `n` legions in the land `tri` sit, in board units:
/// a grid (as square as may be) around a point a little below the land's
/// centre (above it is the land's number), its markers as large as fit
/// inside the land (at most `SIDE * 0.3`), so that none spills over into
/// the next land however many legions share it.
pub fn marker_rects(tri: [Pos2; 3], n: usize) -> Vec<Rect> {
    let [a, b, c] = tri;
    let centre = centroid(a, b, c) + vec2(0.0, SIDE * 0.08);
    let cols = (1..=n.max(1)).find(|c| c * c >= n).unwrap_or(1);
    let rows = n.div_ceil(cols).max(1);
    let layout = |size: f32| -> Vec<Rect> {
        let gap = size * 0.12;
        let step = size + gap;
        (0..n)
            .map(|i| {
                let (col, row) = (i % cols, i / cols);
                // The last row, when short, is centred too.
                let in_row = if row + 1 == rows {
                    n - row * cols
                } else {
                    cols
                };
                let x = (col as f32 - (in_row - 1) as f32 / 2.0) * step;
                let y = (row as f32 - (rows - 1) as f32 / 2.0) * step;
                Rect::from_center_size(centre + vec2(x, y), vec2(size, size))
            })
            .collect()
    };
    let inside = |r: &Rect| {
        // A hair in from the land's border, which is drawn over it.
        let r = r.expand(0.5);
        [
            r.left_top(),
            r.right_top(),
            r.left_bottom(),
            r.right_bottom(),
        ]
        .into_iter()
        .all(|p| crate::draw::in_triangle(p, a, b, c))
    };
    let mut size = SIDE * 0.3;
    while size > SIDE * 0.02 {
        let rects = layout(size);
        if rects.iter().all(inside) {
            return rects;
        }
        size *= 0.95;
    }
    layout(size)
}

/// A die showing `n` pips (more than six: the number).
pub fn die(ui: &mut egui::Ui, n: u8) {
    let size = 28.0;
    let (rect, response) = ui.allocate_exact_size(vec2(size, size), Sense::hover());
    // Its number for screen readers, on the die itself: no text beside it
    // to wrap in a narrow panel.
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::accesskit::Role::Image, true, format!("die: {n}"))
    });
    let p = ui.painter();
    p.rect_filled(rect, 4.0, Color32::WHITE);
    p.rect_stroke(
        rect,
        4.0,
        Stroke::new(1.0, Color32::BLACK),
        egui::StrokeKind::Inside,
    );
    let c = rect.center();
    let d = size * 0.27;
    let spots: &[(f32, f32)] = match n {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        6 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        _ => &[],
    };
    if spots.is_empty() {
        p.text(
            c,
            egui::Align2::CENTER_CENTER,
            n.to_string(),
            egui::FontId::proportional(16.0),
            Color32::BLACK,
        );
    }
    for (x, y) in spots {
        p.circle_filled(pos2(c.x + x * d, c.y + y * d), size * 0.08, Color32::BLACK);
    }
}

/// A label kept on one line (a row of dice wraps between dice, never
/// inside a word).
pub fn one_line(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) -> egui::Response {
    ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend))
}

/// The power of `owner`'s Titan as the view shows it.
fn view_titan_power(
    view: &titan_core::game::view::PlayerView,
    owner: titan_core::game::PlayerId,
) -> Option<u8> {
    view.players
        .get(usize::from(owner.0))
        .map(|p| p.titan_power)
}
