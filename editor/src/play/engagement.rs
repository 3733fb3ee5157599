//! The engagement being resolved in the side panel: who fights whom as far
//! as the viewer knows, the step it is at, handing the screen to the other
//! side, and the battle odds (fought on another thread, plotted).

use titan_core::game::view::PlayerView;
use titan_core::game::{Action, EngagementStep, PlayerId};
use titan_core::model::CharacterId;

use super::GameScreen;

/// Battles fought for the engagement dialog's odds.
const ODDS_BATTLES: u64 = 100;

impl GameScreen {
    /// The engagement being resolved: who fights whom, as far as the viewer
    /// knows them.
    pub(super) fn engagement_box(
        &mut self,
        ui: &mut egui::Ui,
        view: &PlayerView,
        _actions: &[Action],
    ) {
        let Some(e) = &view.engagement else {
            return;
        };
        ui.separator();
        let words = self.words(&[]);
        ui.label(egui::RichText::new(format!("Engagement in {}", words.land(e.land))).strong());
        for m in [e.attacker, e.defender] {
            if let Some(l) = view.legions.iter().find(|l| l.marker == m) {
                ui.label(format!("{}: {}", words.legion(m), self.contents(l)));
            }
        }
        let step = match &e.step {
            EngagementStep::DefenderChoice => "The defender may flee or stand.".to_string(),
            EngagementStep::Negotiate { proposal: None } => {
                "Either side may concede, propose an agreement, or fight.".into()
            }
            EngagementStep::Negotiate { proposal: Some(p) } => format!(
                "{} proposes: attacker loses {}, defender loses {}.",
                words.player(p.by),
                words.characters(&p.attacker_losses),
                words.characters(&p.defender_losses)
            ),
            EngagementStep::Battle => "The battle is being fought.".into(),
            EngagementStep::After(a) => format!(
                "{} won: {}{}{}",
                a.winner,
                if a.summon { "may summon; " } else { "" },
                if a.acquisitions.is_empty() {
                    ""
                } else {
                    "may acquire; "
                },
                if a.reinforce { "may reinforce" } else { "" }
            ),
        };
        ui.label(step);
        self.odds_panel(ui, view, e);
        // Both sides may decide while negotiating: the one in front of the
        // screen may hand it over (after a proposal, say).
        if self.replay.is_none() {
            let others: Vec<PlayerId> = self
                .session
                .to_act()
                .into_iter()
                .filter(|p| {
                    *p != self.viewer && self.seats.get(p.0 as usize).is_some_and(|s| !s.computer)
                })
                .collect();
            if let Some(&p) = others.first() {
                let name = self.seats[p.0 as usize].name.clone();
                if ui
                    .button(format!("Let {name} decide (pass the screen)"))
                    .clicked()
                {
                    self.pass_to = Some(p);
                    self.selected = None;
                    self.split = None;
                }
            }
        }
    }

    /// Battle odds for the engaged viewer who knows both legions: a button
    /// fights the battle many times between computer players (`simple`) and
    /// plots who wins.
    fn odds_panel(
        &mut self,
        ui: &mut egui::Ui,
        view: &PlayerView,
        e: &titan_core::game::Engagement,
    ) {
        let legion = |m| view.legions.iter().find(|l| l.marker == m);
        let (Some(a), Some(d)) = (legion(e.attacker), legion(e.defender)) else {
            return;
        };
        if a.owner != self.viewer && d.owner != self.viewer {
            return;
        }
        let (Some(ac), Some(dc)) = (&a.characters, &d.characters) else {
            return;
        };
        if matches!(e.step, EngagementStep::After(_)) {
            return;
        }
        let key = format!("{:?} {ac:?} {dc:?}", e.land);
        let v = self.variant();
        // A result that arrived from the thread computing it.
        if let Some((k, rx)) = &self.odds_pending {
            match rx.try_recv() {
                Ok(Ok(o)) => {
                    self.odds = Some((k.clone(), o));
                    self.odds_pending = None;
                }
                Ok(Err(err)) => {
                    self.status = format!("No odds: {err}");
                    self.odds_pending = None;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => {
                    ui.ctx()
                        .request_repaint_after(std::time::Duration::from_millis(50));
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.odds_pending = None,
            }
        }
        let busy = self.odds_pending.is_some();
        if busy {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("fighting {ODDS_BATTLES} battles..."));
            });
        } else if ui.button("Estimate the battle odds").clicked() {
            let power = |owner: PlayerId, c: CharacterId| {
                if c == v.rules.titan.character {
                    view.players[usize::from(owner.0)].titan_power
                } else {
                    v.character(c).power
                }
            };
            let fighters = |owner, chars: &[CharacterId]| {
                chars
                    .iter()
                    .map(|&c| titan_core::battle::Fighter {
                        character: c,
                        power: power(owner, c),
                    })
                    .collect()
            };
            let terrain = v.board.land(e.land).terrain;
            // The attacker enters by the side it came from (Law of the
            // Battlelands 25.A): its move into the land, a public action
            // (a session without the actions, as online, falls back on the
            // variant's first side, as a teleport does).
            let from = self
                .session
                .save_file()
                .actions
                .iter()
                .rev()
                .find_map(|(_, a)| match a {
                    Action::Move {
                        legion,
                        to,
                        entered_from,
                    } if *legion == e.attacker && *to == e.land => Some(Some(*entered_from)),
                    Action::Teleport { legion, to, .. }
                        if *legion == e.attacker && *to == e.land =>
                    {
                        Some(None)
                    }
                    _ => None,
                })
                .flatten();
            let edge = (!v.rules.battle.attacker_edges.is_empty()
                || v.battleland(terrain).attacker_edge.is_some())
            .then(|| titan_core::game::attacker_entry_edge(&v, e.land, from));
            if let Some(edge) = edge {
                let setup = titan_core::battle::BattleSetup {
                    terrain,
                    attacker: fighters(a.owner, ac),
                    defender: fighters(d.owner, dc),
                    attacker_edge: edge,
                    summonable: vec![],
                    reinforcements: vec![],
                    teleported: false,
                };
                let (tx, rx) = std::sync::mpsc::channel();
                let v = v.clone();
                std::thread::spawn(move || {
                    let budget = titan_core::ai::Budget::DEFAULT;
                    let odds = titan_core::ai::odds::odds(
                        &v,
                        &setup,
                        "simple",
                        budget,
                        ODDS_BATTLES,
                        0,
                        &mut |_| {},
                    )
                    .map_err(|e| e.to_string());
                    let _ = tx.send(odds);
                });
                self.odds_pending = Some((key.clone(), rx));
                ui.ctx().request_repaint();
            }
        }
        let Some((k, o)) = &self.odds else {
            return;
        };
        if *k != key {
            return;
        }
        let n = o.battles.max(1) as f64;
        let share = |x: u64| 100.0 * x as f64 / n;
        ui.label(format!(
            "Odds over {} battles: attacker wins {:.0}%, defender {:.0}% ({} on time), mutual {:.0}%; survivors {:.1} : {:.1}",
            o.battles,
            share(o.attacker_wins),
            share(o.defender_wins),
            o.time_losses,
            share(o.mutual),
            o.attacker_survivors,
            o.defender_survivors
        ));
        let shares = [
            ("attacker wins", share(o.attacker_wins)),
            ("defender wins", share(o.defender_wins)),
            ("mutual", share(o.mutual)),
        ];
        let bars = shares
            .iter()
            .enumerate()
            .map(|(i, (name, v))| egui_plot::Bar::new(i as f64, *v).name(*name))
            .collect();
        egui_plot::Plot::new("battle odds")
            .height(130.0)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .include_y(0.0)
            .include_y(118.0)
            .show_axes([false, true])
            .show(ui, |plot| {
                plot.bar_chart(egui_plot::BarChart::new("odds", bars).width(0.6));
                // Each bar says what it counts, above it.
                for (i, (name, v)) in shares.iter().enumerate() {
                    plot.text(egui_plot::Text::new(
                        *name,
                        egui_plot::PlotPoint::new(i as f64, v + 9.0),
                        format!("{name} {v:.0}%"),
                    ));
                }
            });
    }
}
