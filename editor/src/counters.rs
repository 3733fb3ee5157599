//! How a character is shown wherever the app shows one (the battle's
//! counters, the legions in the side panel, the editor's character chart,
//! the legend): its name, its factors with the counters' own star for a
//! flyer ("4*3": Law of Titan 1980, 3.B, "a star between the factors means
//! such Characters can fly"), and marks drawn by the app (no font or image
//! needed): an arrow for a rangestriker, a crown for a lord, and a square of
//! each hazard it is native to, in the hazard's colour. Where a character is
//! a line of text, the marks are words ("lord", "rangestrikes").

use egui::{Color32, Painter, Pos2, Rect, Stroke, vec2};
use titan_core::model::{CharacterId, Variant};

/// The word of a rangestriker's mark.
pub const RANGESTRIKE: &str = "rangestrikes";
/// The word of a lord's mark (a class that teleports to towers: Titans,
/// Angels).
pub const LORD: &str = "lord";

/// What marks a character's counter.
#[derive(Debug, Clone, PartialEq)]
pub struct Marks {
    pub flies: bool,
    pub rangestrike: bool,
    pub lord: bool,
    /// The hazards it is native to, with their colours.
    pub natives: Vec<(String, Color32)>,
}

impl Marks {
    pub fn of(v: &Variant, c: CharacterId) -> Marks {
        let ch = v.character(c);
        let natives = v
            .hazards
            .iter()
            .enumerate()
            .filter(|(i, _)| ch.natives.contains(titan_core::model::HazardId(*i as u8)))
            .map(|(_, h)| (h.name.clone(), crate::draw::rgb(h.color)))
            .collect();
        Marks {
            flies: ch.flies,
            rangestrike: ch.rangestrike.is_some(),
            lord: v.class(ch.class).tower_teleport,
            natives,
        }
    }

    /// Of the character named `name`, if the variant has it.
    pub fn of_name(v: &Variant, name: &str) -> Option<Marks> {
        v.character_by_name(name).map(|c| Marks::of(v, c))
    }

    /// Power and skill as the counters print them: a star between them
    /// for a flyer.
    pub fn factors(&self, power: u8, skill: u8) -> String {
        let between = if self.flies { '*' } else { '-' };
        format!("{power}{between}{skill}")
    }

    /// The rangestrike and lord marks, as words.
    pub fn badges(&self) -> String {
        let mut s: Vec<&str> = Vec::new();
        if self.rangestrike {
            s.push(RANGESTRIKE);
        }
        if self.lord {
            s.push(LORD);
        }
        s.join(" ")
    }

    /// The marks in words (hover texts, screen readers).
    pub fn words(&self) -> String {
        let mut w: Vec<String> = Vec::new();
        if self.flies {
            w.push("flies".into());
        }
        if self.rangestrike {
            w.push("rangestrikes".into());
        }
        if self.lord {
            w.push("lord".into());
        }
        if !self.natives.is_empty() {
            let names: Vec<&str> = self.natives.iter().map(|(n, _)| n.as_str()).collect();
            w.push(format!("native to {}", names.join(", ")));
        }
        w.join(", ")
    }

    /// Draws the marks: an arrow (rangestriker) and a crown (lord) in the
    /// counter's top left corner, and a square of each native hazard's
    /// colour along its left side.
    pub fn draw(&self, painter: &Painter, rect: Rect, size: f32) {
        let mark = (size * 0.16).clamp(5.0, 12.0);
        let mut at = rect.left_top() + vec2(size * 0.05, size * 0.05);
        if self.rangestrike {
            arrow(painter, Rect::from_min_size(at, vec2(mark, mark)));
            at.x += mark * 1.2;
        }
        if self.lord {
            crown(painter, Rect::from_min_size(at, vec2(mark, mark)));
        }
        let side = (size * 0.1).clamp(3.0, 9.0);
        for (k, (_, colour)) in self.natives.iter().enumerate() {
            let at = Pos2::new(
                rect.left() + side * 0.3,
                rect.bottom() - side * (1.3 + 1.2 * k as f32),
            );
            square(painter, Rect::from_min_size(at, vec2(side, side)), *colour);
        }
    }
}

const INK: Stroke = Stroke {
    width: 1.0,
    color: Color32::BLACK,
};

/// A crown: a band with three points.
pub fn crown(painter: &Painter, r: Rect) {
    let (l, t, w, h) = (r.left(), r.top(), r.width(), r.height());
    let p = |x: f32, y: f32| Pos2::new(l + x * w, t + y * h);
    let points = vec![
        p(0.0, 1.0),
        p(0.0, 0.25),
        p(0.25, 0.6),
        p(0.5, 0.1),
        p(0.75, 0.6),
        p(1.0, 0.25),
        p(1.0, 1.0),
    ];
    painter.add(egui::Shape::convex_polygon(
        points.clone(),
        Color32::GOLD,
        Stroke::NONE,
    ));
    painter.add(egui::Shape::closed_line(points, INK));
}

/// An arrow flying up and right.
pub fn arrow(painter: &Painter, r: Rect) {
    let (a, b) = (r.left_bottom(), r.right_top());
    painter.line_segment([a, b], Stroke::new(2.0, Color32::WHITE));
    let head = vec![
        b,
        b + vec2(-r.width() * 0.5, 0.0),
        b + vec2(0.0, r.height() * 0.5),
    ];
    painter.add(egui::Shape::convex_polygon(head, Color32::WHITE, INK));
}

/// A native hazard's square.
pub fn square(painter: &Painter, r: Rect, colour: Color32) {
    painter.rect_filled(r, 1.0, colour);
    painter.rect_stroke(r, 1.0, INK, egui::StrokeKind::Outside);
}

/// The legend of the marks, drawn as on the counters.
pub fn legend(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.label("4*3: flies");
        let icon = |ui: &mut egui::Ui, draw: &dyn Fn(&Painter, Rect), word: &str| {
            let (r, _) = ui.allocate_exact_size(vec2(12.0, 12.0), egui::Sense::hover());
            draw(ui.painter(), r);
            ui.label(word);
        };
        icon(ui, &|p, r| arrow(p, r), RANGESTRIKE);
        icon(ui, &|p, r| crown(p, r), LORD);
        icon(
            ui,
            &|p, r| square(p, r.shrink(2.0), Color32::from_rgb(79, 122, 40)),
            "native hazard (its colour)",
        );
    });
}
