//! Drawing shared by the editor and the game window: the masterboard's
//! triangle grid and signs, battleland hexes with their hazards, and the pan
//! and zoom of a canvas.

use egui::{Color32, Pos2, Rect, Shape, Stroke, Vec2, pos2, vec2};
use titan_core::battleland::{Board, HexId};
use titan_core::format::{BattlelandDef, Edge, GridPos, Rgb, Side, Sign};

/// The side of a masterboard triangle in board units (before zooming).
pub const SIDE: f32 = 40.0;
/// The radius of a battleland hex in board units.
pub const HEX: f32 = 34.0;

/// The pan and zoom of a canvas, and where it was last drawn.
#[derive(Debug, Clone, Copy)]
pub struct View {
    pub offset: Vec2,
    pub zoom: f32,
    pub rect: Rect,
    pub fitted: bool,
}

impl Default for View {
    fn default() -> Self {
        View {
            offset: Vec2::ZERO,
            zoom: 1.0,
            rect: Rect::NOTHING,
            fitted: false,
        }
    }
}

impl View {
    pub fn to_screen(self, p: Pos2) -> Pos2 {
        self.rect.min + self.offset + p.to_vec2() * self.zoom
    }

    pub fn to_board(self, p: Pos2) -> Pos2 {
        ((p - self.rect.min - self.offset) / self.zoom).to_pos2()
    }

    /// Zooms and centres so that `bounds` (board units) fills the canvas.
    pub fn fit(&mut self, bounds: Rect) {
        if self.rect.width() <= 0.0 || bounds.width() <= 0.0 {
            return;
        }
        let zoom = (self.rect.width() / bounds.width()).min(self.rect.height() / bounds.height());
        self.zoom = zoom * 0.95;
        self.offset = self.rect.size() / 2.0 - bounds.center().to_vec2() * self.zoom;
        self.fitted = true;
    }

    /// Takes the rest of `ui` as this view's canvas: fits it to `bounds`
    /// (board units, asked for only on the first frame), pans and zooms it,
    /// and paints its background.
    pub fn canvas(
        &mut self,
        ui: &mut egui::Ui,
        bounds: impl FnOnce() -> Rect,
    ) -> (egui::Response, egui::Painter) {
        let (response, painter) =
            ui.allocate_painter(ui.available_size(), egui::Sense::click_and_drag());
        self.rect = response.rect;
        if !self.fitted {
            self.fit(bounds());
        }
        self.interact(ui, &response);
        painter.rect_filled(response.rect, 0.0, egui::Color32::from_gray(30));
        (response, painter)
    }

    /// Drag to pan, scroll or pinch to zoom about the pointer.
    pub fn interact(&mut self, ui: &egui::Ui, response: &egui::Response) {
        if response.dragged_by(egui::PointerButton::Secondary)
            || response.dragged_by(egui::PointerButton::Middle)
        {
            self.offset += response.drag_delta();
        }
        if response.hovered() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = zoom * (scroll / 400.0).exp();
            if (factor - 1.0).abs() > 1e-4
                && let Some(p) = response.hover_pos()
            {
                let board = self.to_board(p);
                self.zoom = (self.zoom * factor).clamp(0.1, 20.0);
                self.offset = p - self.rect.min - board.to_vec2() * self.zoom;
            }
        }
    }
}

/// A counter's face: filled in `fill`, outlined thick and yellow when
/// selected.
pub fn counter_face(
    painter: &egui::Painter,
    rect: Rect,
    corner: f32,
    fill: egui::Color32,
    selected: bool,
) {
    painter.rect_filled(rect, corner, fill);
    let stroke = if selected {
        egui::Stroke::new(3.0, egui::Color32::YELLOW)
    } else {
        egui::Stroke::new(1.0, egui::Color32::BLACK)
    };
    painter.rect_stroke(rect, corner, stroke, egui::StrokeKind::Outside);
}

// ---------------------------------------------------------------------------

/// The corners of a land's triangle in board units. A land at `(x, y)`
/// points down (its third border on top) when `x + y` is even.
pub fn triangle(pos: GridPos) -> [Pos2; 3] {
    let h = SIDE * 3f32.sqrt() / 2.0;
    let cx = pos.x as f32 * SIDE / 2.0;
    let top = pos.y as f32 * h;
    if (pos.x + pos.y) % 2 == 0 {
        [
            pos2(cx - SIDE / 2.0, top),
            pos2(cx + SIDE / 2.0, top),
            pos2(cx, top + h),
        ]
    } else {
        [
            pos2(cx, top),
            pos2(cx + SIDE / 2.0, top + h),
            pos2(cx - SIDE / 2.0, top + h),
        ]
    }
}

/// The three cells sharing a border with `pos`.
pub fn neighbours(pos: GridPos) -> [GridPos; 3] {
    let third = if (pos.x + pos.y) % 2 == 0 {
        pos.y - 1
    } else {
        pos.y + 1
    };
    [
        GridPos {
            x: pos.x - 1,
            y: pos.y,
        },
        GridPos {
            x: pos.x + 1,
            y: pos.y,
        },
        GridPos { x: pos.x, y: third },
    ]
}

/// The border two cells share, if they are neighbours.
pub fn shared_edge(a: GridPos, b: GridPos) -> Option<(Pos2, Pos2)> {
    if !neighbours(a).contains(&b) {
        return None;
    }
    let ta = triangle(a);
    let tb = triangle(b);
    let common: Vec<Pos2> = ta
        .into_iter()
        .filter(|p| tb.iter().any(|q| p.distance(*q) < 0.01))
        .collect();
    (common.len() == 2).then(|| (common[0], common[1]))
}

pub fn same_edge(a: (Pos2, Pos2), b: (Pos2, Pos2)) -> bool {
    let close = |p: Pos2, q: Pos2| p.distance(q) < 0.01;
    (close(a.0, b.0) && close(a.1, b.1)) || (close(a.0, b.1) && close(a.1, b.0))
}

/// The grid cell a board point lies in.
pub fn cell_at(p: Pos2) -> GridPos {
    let h = SIDE * 3f32.sqrt() / 2.0;
    let y = (p.y / h).floor() as i32;
    let guess = (p.x / (SIDE / 2.0)).round() as i32;
    (guess - 1..=guess + 1)
        .map(|x| GridPos { x, y })
        .find(|c| {
            let [a, b, cc] = triangle(*c);
            in_triangle(p, a, b, cc)
        })
        .unwrap_or(GridPos { x: guess, y })
}

pub fn in_triangle(p: Pos2, a: Pos2, b: Pos2, c: Pos2) -> bool {
    let cross = |o: Pos2, u: Pos2, v: Pos2| (u - o).x * (v - o).y - (u - o).y * (v - o).x;
    let (d1, d2, d3) = (cross(a, b, p), cross(b, c, p), cross(c, a, p));
    let neg = d1 < 0.0 || d2 < 0.0 || d3 < 0.0;
    let pos = d1 > 0.0 || d2 > 0.0 || d3 > 0.0;
    !(neg && pos)
}

pub fn centroid(a: Pos2, b: Pos2, c: Pos2) -> Pos2 {
    pos2((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0)
}

pub fn dist_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

pub fn rgb(c: Rgb) -> Color32 {
    let [r, g, b] = c.0;
    Color32::from_rgb(r, g, b)
}

/// Draws a sign on the border from `from` to `to`, inside `from`, as the
/// sign chart shows it: a block, an arch, an arrow or three arrows pointing
/// across.
pub fn draw_sign(painter: &egui::Painter, view: &View, from: GridPos, to: GridPos, sign: Sign) {
    if sign == Sign::Gate {
        draw_gate(painter, view, from, to);
        return;
    }
    let Some((a, b)) = shared_edge(from, to) else {
        return;
    };
    let [x, y, z] = triangle(from);
    let c = centroid(x, y, z);
    let mid = a + (b - a) / 2.0;
    let out = (mid - c).normalized(); // towards the neighbour
    let along = (b - a).normalized();
    let at = mid - out * SIDE * 0.1;
    let s = SIDE * 0.09;
    let screen = |p: Pos2| view.to_screen(p);
    let ink = Color32::BLACK;
    let stroke = Stroke::new((1.2 * view.zoom).clamp(0.5, 3.0), ink);
    let arrow = |tip: Pos2| {
        Shape::convex_polygon(
            vec![
                screen(tip),
                screen(tip - out * s * 1.4 + along * s * 0.8),
                screen(tip - out * s * 1.4 - along * s * 0.8),
            ],
            Color32::WHITE,
            stroke,
        )
    };
    match sign {
        Sign::Block => {
            let corners = [
                at + along * s + out * s * 0.6,
                at - along * s + out * s * 0.6,
                at - along * s - out * s * 0.6,
                at + along * s - out * s * 0.6,
            ];
            painter.add(Shape::convex_polygon(
                corners.iter().map(|p| screen(*p)).collect(),
                Color32::WHITE,
                stroke,
            ));
        }
        Sign::Arch => {
            let pts: Vec<Pos2> = (0..=12)
                .map(|i| {
                    let t = std::f32::consts::PI * i as f32 / 12.0;
                    screen(at + along * s * t.cos() + out * s * t.sin() - out * s * 0.4)
                })
                .collect();
            painter.add(Shape::line(
                pts,
                Stroke::new(stroke.width * 2.0, Color32::WHITE),
            ));
            painter.add(Shape::line(
                vec![
                    screen(at - along * s - out * s * 0.4),
                    screen(at + along * s - out * s * 0.4),
                ],
                stroke,
            ));
        }
        Sign::Arrow => {
            painter.add(arrow(at + out * s));
        }
        Sign::TripleArrow => {
            for k in [-1.0, 0.0, 1.0] {
                painter.add(arrow(at + out * s + along * s * 1.6 * k));
            }
        }
        Sign::Gate => {}
    }
}

/// A gate (a free passage, often to a land far off): a dashed line from the
/// land's centre toward the gate's land, ending in a small ring.
fn draw_gate(painter: &egui::Painter, view: &View, from: GridPos, to: GridPos) {
    let [a, b, c] = triangle(from);
    let [x, y, z] = triangle(to);
    let (p, q) = (centroid(a, b, c), centroid(x, y, z));
    let (p, q) = (view.to_screen(p), view.to_screen(q));
    let stroke = Stroke::new((1.0 * view.zoom).clamp(0.5, 2.0), Color32::WHITE);
    let end = p + (q - p) * 0.8;
    painter.extend(Shape::dashed_line(&[p, end], stroke, 6.0, 4.0));
    painter.circle(
        end,
        (SIDE * 0.05 * view.zoom).clamp(2.0, 8.0),
        Color32::from_rgba_unmultiplied(255, 255, 255, 40),
        stroke,
    );
}

// ---------------------------------------------------------------------------
// Geometry of battlelands
// ---------------------------------------------------------------------------

/// A hex's centre in board units (flat-topped, r growing downward), from
/// its board's axial coordinates.
pub fn hex_centre(board: &Board, hex: HexId) -> Pos2 {
    let c = board.coord(hex);
    let (q, r) = (c.x as f32, c.y as f32);
    pos2(HEX * 1.5 * q, HEX * 3f32.sqrt() * (r + q / 2.0))
}

pub fn corner(c: Pos2, i: usize) -> Pos2 {
    // Corner 0 is at the east; corners go clockwise on screen (y down).
    let angle = std::f32::consts::PI / 3.0 * i as f32;
    c + vec2(angle.cos(), angle.sin()) * HEX
}

/// The two corners of a side: N is the top edge, then clockwise.
pub fn side_corners(c: Pos2, side: Side) -> (Pos2, Pos2) {
    let (i, j) = match side {
        Side::N => (4, 5),
        Side::NE => (5, 0),
        Side::SE => (0, 1),
        Side::S => (1, 2),
        Side::SW => (2, 3),
        Side::NW => (3, 4),
    };
    (corner(c, i), corner(c, j))
}

/// The axial coordinates `(q, r)` of the hex place under a board point
/// (the inverse of [`hex_centre`], rounded to the nearest hex).
pub fn axial_at(p: Pos2) -> (i32, i32) {
    let q = p.x / (HEX * 1.5);
    let r = p.y / (HEX * 3f32.sqrt()) - q / 2.0;
    let (x, z) = (q, r);
    let y = -x - z;
    let (mut rx, mut ry, mut rz) = (x.round(), y.round(), z.round());
    let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy > dz {
        ry = -rx - rz;
    } else {
        rz = -rx - ry;
    }
    let _ = ry;
    (rx as i32, rz as i32)
}

/// The hex under a board point, and the side it is near (if near one).
pub fn hex_at(board: &Board, p: Pos2) -> Option<(HexId, Option<Side>)> {
    let hex = board.ids().min_by(|a, b| {
        hex_centre(board, *a)
            .distance(p)
            .total_cmp(&hex_centre(board, *b).distance(p))
    })?;
    let c = hex_centre(board, hex);
    if c.distance(p) > HEX {
        return None;
    }
    let side = Side::ALL.into_iter().min_by(|a, b| {
        let d = |s: Side| {
            let (x, y) = side_corners(c, s);
            dist_to_segment(p, x, y)
        };
        d(*a).total_cmp(&d(*b))
    });
    let near = side.filter(|s| {
        let (x, y) = side_corners(c, *s);
        dist_to_segment(p, x, y) < HEX * 0.3
    });
    Some((hex, near))
}

pub fn draw_battleland(
    painter: &egui::Painter,
    view: &View,
    land: &BattlelandDef,
    colour: &dyn Fn(&str) -> Color32,
    selected: Option<&str>,
) {
    // A board being edited may not be one yet: nothing to draw.
    let Ok(board) = Board::of(land) else {
        return;
    };
    let board = &*board;
    let font = egui::FontId::proportional((8.0 * view.zoom).clamp(6.0, 24.0));
    for hex in board.ids() {
        let c = hex_centre(board, hex);
        let label = board.label(hex).to_string();
        let def = land.hexes.get(&label);
        let fill = def.map_or(Color32::DARK_GRAY, |d| colour(&d.hazard));
        let pts: Vec<Pos2> = (0..6).map(|i| view.to_screen(corner(c, i))).collect();
        painter.add(Shape::convex_polygon(
            pts,
            fill,
            Stroke::new(1.0, Color32::BLACK),
        ));
        // Elevation as contour lines: one ring inside the hex per level.
        let level = def.map_or(0, |d| d.elevation);
        for k in 1..=level.min(4) {
            let shrink = 1.0 - 0.13 * f32::from(k);
            let ring: Vec<Pos2> = (0..6)
                .map(|i| view.to_screen(c + (corner(c, i) - c) * shrink))
                .collect();
            painter.add(Shape::closed_line(
                ring,
                Stroke::new(1.5, Color32::from_black_alpha(110)),
            ));
        }
        let sc = view.to_screen(c);
        let mut text = label.clone();
        if let Some(d) = def {
            text = format!("{label}\n{}", d.hazard);
            if d.elevation > 0 {
                text.push_str(&format!("\nelev. {}", d.elevation));
            }
        }
        painter.text(
            sc,
            egui::Align2::CENTER_CENTER,
            text,
            font.clone(),
            Color32::BLACK,
        );
    }
    // Hexside hazards, drawn inside their top hex.
    for hex in board.ids() {
        let Some(def) = land.hexes.get(board.label(hex)) else {
            continue;
        };
        let c = hex_centre(board, hex);
        for (side, hazard) in &def.sides {
            let (a, b) = side_corners(c, *side);
            let inset = |p: Pos2| view.to_screen(p + (c - p) * 0.08);
            // A white casing so that dark hazards show on dark hexes.
            let width = (5.0 * view.zoom).clamp(3.0, 12.0);
            painter.line_segment(
                [inset(a), inset(b)],
                Stroke::new(width + 3.0, Color32::WHITE),
            );
            painter.line_segment([inset(a), inset(b)], Stroke::new(width, colour(hazard)));
        }
    }
    if let Some(sel) = selected.and_then(|l| board.hex(l)) {
        let c = hex_centre(board, sel);
        let pts: Vec<Pos2> = (0..=6).map(|i| view.to_screen(corner(c, i % 6))).collect();
        painter.add(Shape::line(pts, Stroke::new(3.0, Color32::YELLOW)));
    }
    // Entry edges: the attacker's fixed edge, else every edge the board
    // has, beyond its hexes along it from the board's centre.
    let centres: Vec<Pos2> = board.ids().map(|h| hex_centre(board, h)).collect();
    let board_centre =
        (centres.iter().fold(Vec2::ZERO, |s, p| s + p.to_vec2()) / centres.len() as f32).to_pos2();
    for edge in Edge::ALL {
        let hexes: Vec<Pos2> = board
            .edge_hexes(edge)
            .map(|h| hex_centre(board, h))
            .collect();
        if hexes.is_empty() {
            continue;
        }
        let mid = hexes.iter().fold(Vec2::ZERO, |s, p| s + p.to_vec2()) / hexes.len() as f32;
        let out = (mid.to_pos2() - board_centre).normalized();
        let at = mid.to_pos2() + out * HEX * 1.3;
        let fixed = land.attacker_edge == Some(edge);
        let text = if fixed {
            format!("{edge:?}\n(attacker)")
        } else {
            format!("{edge:?}")
        };
        painter.text(
            view.to_screen(at),
            egui::Align2::CENTER_CENTER,
            text,
            font.clone(),
            if fixed {
                Color32::RED
            } else {
                Color32::LIGHT_GRAY
            },
        );
    }
    for label in &land.defender_area {
        if let Some(h) = board.hex(label) {
            painter.circle_stroke(
                view.to_screen(hex_centre(board, h)),
                HEX * 0.8 * view.zoom,
                Stroke::new(1.0, Color32::from_rgb(40, 40, 160)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_share_a_border_both_ways() {
        for x in 0..6 {
            for y in 0..4 {
                let a = GridPos { x, y };
                for b in neighbours(a) {
                    assert!(neighbours(b).contains(&a));
                    assert!(shared_edge(a, b).is_some(), "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_point_is_in_its_own_cell() {
        for x in -2..6 {
            for y in -2..4 {
                let pos = GridPos { x, y };
                let [a, b, c] = triangle(pos);
                assert_eq!(cell_at(centroid(a, b, c)), pos);
            }
        }
    }

    #[test]
    fn hex_clicks_find_the_hex_and_side() {
        let board = Board::standard();
        for hex in board.ids() {
            let c = hex_centre(&board, hex);
            assert_eq!(hex_at(&board, c), Some((hex, None)));
            for side in Side::ALL {
                let (a, b) = side_corners(c, side);
                let mid = a + (b - a) / 2.0;
                let p = mid + (c - mid) * 0.15;
                assert_eq!(
                    hex_at(&board, p),
                    Some((hex, Some(side))),
                    "{} {side:?}",
                    board.label(hex)
                );
            }
        }
    }

    #[test]
    fn sides_point_at_their_neighbours() {
        // The hex across a side is where the side's corners say it is.
        let board = Board::standard();
        let d3 = board.hex("D3").unwrap();
        for side in Side::ALL {
            if let Some(n) = board.neighbour(d3, side) {
                let (a, b) = side_corners(hex_centre(&board, d3), side);
                let mid = a + (b - a) / 2.0;
                let mirrored = mid + (mid - hex_centre(&board, d3));
                assert!(mirrored.distance(hex_centre(&board, n)) < 0.5, "{side:?}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Hexside hazards drawn as what they are
// ---------------------------------------------------------------------------

/// How a hexside hazard is drawn, read from what it does (the app knows no
/// hazard by name): a barrier walkers cannot cross gets a cliff's hachures,
/// one that slows everybody and changes strikes gets a wall's merlons, one
/// crossed both ways gets a river's waves, any other (a rise that favours
/// the striker above) gets chevrons pointing downhill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HexsideStyle {
    Cliff,
    Wall,
    Waves,
    Chevrons,
}

pub fn hexside_style(h: &titan_core::format::HazardDef) -> HexsideStyle {
    use titan_core::format::{Crossing, Effect, Move};
    let g = h.movement.ground;
    if g.others == Move::Block {
        return HexsideStyle::Cliff;
    }
    let strikes = h.effects.iter().any(|e| {
        matches!(
            e,
            Effect::Strike { skill, .. } if *skill != 0
        )
    });
    if g.natives == Move::Slow && g.others == Move::Slow && strikes {
        return HexsideStyle::Wall;
    }
    if h.movement.crossing == Crossing::Both {
        return HexsideStyle::Waves;
    }
    HexsideStyle::Chevrons
}

/// Draws a hexside hazard on the side from `a` to `b` of the hex centred at
/// `c` (its top side), in board units.
pub fn draw_hexside(
    painter: &egui::Painter,
    view: &View,
    c: Pos2,
    (a, b): (Pos2, Pos2),
    style: HexsideStyle,
    colour: Color32,
) {
    let s = |p: Pos2| view.to_screen(p);
    let along = b - a;
    let len = along.length();
    let dir = along / len;
    // Towards the lower side (away from the top hex's centre).
    let mid = a + along / 2.0;
    let out = (mid - c).normalized();
    let w = (3.0 * view.zoom).clamp(2.0, 8.0);
    let casing = Stroke::new(w + 3.0, Color32::WHITE);
    let ink = Stroke::new(w, colour);
    let a = a + (c - a) * 0.06;
    let b = b + (c - b) * 0.06;
    match style {
        HexsideStyle::Cliff => {
            painter.line_segment([s(a), s(b)], casing);
            painter.line_segment([s(a), s(b)], ink);
            // Hachures hanging down the face.
            for k in 1..6 {
                let p = a + (b - a) * (k as f32 / 6.0);
                painter.line_segment(
                    [s(p), s(p + out * HEX * 0.16)],
                    Stroke::new((w * 0.6).max(1.5), colour),
                );
            }
        }
        HexsideStyle::Wall => {
            painter.line_segment([s(a), s(b)], casing);
            painter.line_segment([s(a), s(b)], ink);
            // Merlons on the outer face.
            for k in 0..4 {
                let t0 = (2 * k) as f32 / 8.0 + 0.06;
                let p0 = a + (b - a) * t0;
                let p1 = a + (b - a) * (t0 + 0.125);
                let q = out * HEX * 0.1;
                painter.add(Shape::convex_polygon(
                    vec![s(p0), s(p1), s(p1 + q), s(p0 + q)],
                    colour,
                    Stroke::new(1.0, Color32::WHITE),
                ));
            }
        }
        HexsideStyle::Waves => {
            let pts: Vec<Pos2> = (0..=24)
                .map(|i| {
                    let t = i as f32 / 24.0;
                    let wave = (t * std::f32::consts::TAU * 3.0).sin() * HEX * 0.05;
                    s(a + (b - a) * t + out * wave)
                })
                .collect();
            painter.add(Shape::line(pts.clone(), casing));
            painter.add(Shape::line(pts, ink));
        }
        HexsideStyle::Chevrons => {
            painter.line_segment([s(a), s(b)], Stroke::new(w * 0.6 + 2.0, Color32::WHITE));
            painter.line_segment([s(a), s(b)], Stroke::new(w * 0.6, colour));
            // Chevrons pointing downhill.
            for k in [0.25, 0.5, 0.75] {
                let p = a + (b - a) * k;
                let tip = p + out * HEX * 0.14;
                painter.add(Shape::line(
                    vec![s(p + dir * HEX * 0.08), s(tip), s(p - dir * HEX * 0.08)],
                    Stroke::new((w * 0.7).max(1.5), colour),
                ));
            }
        }
    }
}

/// A colour lightened towards white by `t` (0..1): higher ground is paler.
pub fn lighten(c: Color32, t: f32) -> Color32 {
    let f = |x: u8| (x as f32 + (255.0 - x as f32) * t).round() as u8;
    Color32::from_rgb(f(c.r()), f(c.g()), f(c.b()))
}

/// The screen polygon of a hex.
pub fn hex_polygon(view: &View, board: &Board, hex: HexId) -> Vec<Pos2> {
    let c = hex_centre(board, hex);
    (0..6).map(|i| view.to_screen(corner(c, i))).collect()
}

/// A legend in the top left corner of a canvas: a swatch and a name per
/// entry, a filled square for an area colour (a terrain, a hex hazard) or
/// a thick line for a hexside hazard (`true`). The canvas is named by it
/// for screen readers (and the tests): "Terrains: Brush, Desert, ...".
pub fn draw_legend(
    painter: &egui::Painter,
    canvas: &egui::Response,
    title: &str,
    entries: &[(String, Color32, bool)],
) {
    let names: Vec<&str> = entries.iter().map(|(n, _, _)| n.as_str()).collect();
    let said = format!("{title}: {}", names.join(", "));
    canvas.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, &said));
    let canvas = canvas.rect;
    let font = egui::FontId::proportional(12.0);
    let row = 16.0;
    let width = entries
        .iter()
        .map(|(n, _, _)| n.len())
        .chain(std::iter::once(title.len()))
        .max()
        .unwrap_or(0) as f32
        * 7.0
        + 34.0;
    let height = row * (entries.len() as f32 + 1.0) + 8.0;
    let frame = Rect::from_min_size(canvas.min + egui::vec2(8.0, 8.0), egui::vec2(width, height));
    painter.rect_filled(frame, 4.0, Color32::from_black_alpha(190));
    painter.text(
        frame.min + egui::vec2(6.0, 4.0),
        egui::Align2::LEFT_TOP,
        title,
        font.clone(),
        Color32::from_gray(230),
    );
    for (i, (name, colour, side)) in entries.iter().enumerate() {
        let top = frame.min.y + 4.0 + row * (i as f32 + 1.0);
        let swatch = Rect::from_min_size(
            egui::pos2(frame.min.x + 6.0, top + 2.0),
            egui::vec2(16.0, 11.0),
        );
        if *side {
            painter.line_segment(
                [swatch.left_center(), swatch.right_center()],
                Stroke::new(4.0, *colour),
            );
        } else {
            painter.rect_filled(swatch, 2.0, *colour);
        }
        painter.text(
            egui::pos2(swatch.max.x + 6.0, top),
            egui::Align2::LEFT_TOP,
            name,
            font.clone(),
            Color32::from_gray(230),
        );
    }
}
