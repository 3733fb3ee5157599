//! What each land of the masterboard is: its terrain written on it, the
//! legend of the variant's terrains, and on hover the land's number, its
//! terrain, its battleland and what the selected legion could muster there.

use egui::{Color32, Pos2, Rect, Sense, vec2};
use titan_core::game::view::PlayerView;
use titan_core::model::{CharacterId, LandId, TerrainId, Variant};

use super::GameScreen;
use crate::draw::{SIDE, View, centroid, rgb, triangle};

/// Black or white, whichever reads better on `fill`.
fn ink_on(fill: Color32) -> Color32 {
    let [r, g, b, _] = fill.to_array();
    let luma = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
    if luma > 140.0 {
        Color32::BLACK
    } else {
        Color32::WHITE
    }
}

/// The terrains the masterboard's lands are of, in the variant's order.
fn board_terrains(v: &Variant) -> Vec<TerrainId> {
    let mut used = vec![false; v.terrains.len()];
    for id in v.board.lands() {
        used[v.board.land(id).terrain.index()] = true;
    }
    (0..v.terrains.len())
        .filter(|&i| used[i])
        .map(|i| TerrainId(i as u8))
        .collect()
}

/// The legend: a swatch of each terrain's colour and its name.
pub(super) fn legend(ui: &mut egui::Ui, v: &Variant) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Terrains:");
        for t in board_terrains(v) {
            let terrain = &v.terrains[t.index()];
            let (rect, _) = ui.allocate_exact_size(vec2(14.0, 14.0), Sense::hover());
            ui.painter().rect_filled(rect, 2.0, rgb(terrain.color));
            ui.painter().rect_stroke(
                rect,
                2.0,
                egui::Stroke::new(1.0, ui.visuals().text_color()),
                egui::StrokeKind::Inside,
            );
            ui.label(&terrain.name);
            ui.add_space(6.0);
        }
    });
}

/// Writes each land's terrain under its number, as wide as the land allows
/// (its first letters when the whole name does not fit).
pub(super) fn draw_terrain_names(painter: &egui::Painter, v: &Variant, bv: View) {
    let font = egui::FontId::proportional((4.5 * bv.zoom).clamp(5.0, 18.0));
    // The width of a land a little above its centre, where the name goes,
    // narrowest on a land pointing up.
    let room = SIDE * 0.5 * bv.zoom;
    for id in v.board.lands() {
        let land = v.board.land(id);
        let terrain = &v.terrains[land.terrain.index()];
        let ink = ink_on(rgb(terrain.color));
        let mut galley = painter.layout_no_wrap(terrain.name.clone(), font.clone(), ink);
        if galley.size().x > room {
            let short: String = terrain.name.chars().take(3).collect();
            galley = painter.layout_no_wrap(short, font.clone(), ink);
        }
        let [a, b, c] = triangle(land.position);
        let at = bv.to_screen(centroid(a, b, c) + vec2(0.0, -SIDE * 0.06));
        let r = Rect::from_center_size(at, galley.size());
        painter.galley(r.min, galley, ink);
    }
}

/// The land under `board` (a point in board units), if any.
pub(super) fn land_at(v: &Variant, board: Pos2) -> Option<LandId> {
    v.board.lands().find(|&id| {
        let [a, b, c] = triangle(v.board.land(id).position);
        crate::draw::in_triangle(board, a, b, c)
    })
}

/// The recruits a legion of `characters` could muster in `terrain` by the
/// variant's mustering tables (a need a script decides counts as unmet),
/// each once, in the tables' order.
pub fn muster_list(
    v: &Variant,
    terrain: TerrainId,
    characters: &[CharacterId],
) -> Vec<CharacterId> {
    let mut legion = characters.to_vec();
    legion.sort_unstable();
    let mut judge = |_, _, _: &[CharacterId]| false;
    let mut out: Vec<CharacterId> = Vec::new();
    for o in titan_core::model::muster::options(v, terrain, &legion, &mut judge) {
        if !out.contains(&o.recruit) {
            out.push(o.recruit);
        }
    }
    out
}

impl GameScreen {
    /// What the pointer's land is: its number, terrain and battleland, and
    /// what the selected legion could muster there (when the viewer knows
    /// its characters).
    pub fn land_info(&self, land: LandId, view: &PlayerView) -> String {
        let v = self.session.variant();
        let l = v.board.land(land);
        let terrain = &v.terrains[l.terrain.index()];
        let mut text = format!("Land {}: {}", l.number, terrain.name);
        // A land's own name, where the variant gives one beyond its
        // terrain and number.
        if !l.name.is_empty() && l.name != format!("{} {}", terrain.name, l.number) {
            text.push_str(&format!(" ({})", l.name));
        }
        let words = self.words(&[]);
        if let Some(sel) = self.selected
            && let Some(legion) = view.legions.iter().find(|x| x.marker == sel)
            && let Some(cs) = &legion.characters
        {
            let recruits = muster_list(v, l.terrain, cs);
            let list = if recruits.is_empty() {
                "nothing".to_string()
            } else {
                recruits
                    .iter()
                    .map(|&c| {
                        let left = view.caretaker.get(c.index()).copied().unwrap_or(0);
                        if left == 0 {
                            format!("{} (none left)", words.character(c))
                        } else {
                            words.character(c)
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            text.push_str(&format!("\n{sel} could muster here: {list}"));
        }
        text.push_str(&format!("\nBattleland: {}", terrain.name));
        text
    }
}
