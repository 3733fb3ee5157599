use std::sync::Arc;
use titan_core::ai::*;
use titan_core::battle::*;
use titan_core::format::Edge;
use titan_core::model::CharacterId;
use titan_core::rng::GameRng;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    let v = Arc::new(titan_core::load(&dir, &Default::default()).unwrap());
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args[2].parse().unwrap();
    if args[1] == "calibrate" {
        println!("{:?}", titan_core::ai::odds::calibrate(&v, n, 0));
        return;
    }
    if args[1] == "battles" {
        let pool: Vec<CharacterId> = (0..v.characters.len())
            .map(|i| CharacterId(i as u16))
            .filter(|&c| c != v.rules.titan.character && v.character(c).count > 0)
            .collect();
        for (a, d) in [
            ("simple", "simple"),
            ("strong", "simple"),
            ("simple", "strong"),
            ("strong", "strong"),
        ] {
            let mut aw = 0;
            for i in 0..n {
                let mut r = GameRng::new(i);
                let mut leg = |r: &mut GameRng| {
                    (0..7)
                        .map(|_| {
                            let c = pool[r.int_in(0, pool.len() as i64 - 1) as usize];
                            Fighter {
                                character: c,
                                power: v.character(c).power,
                            }
                        })
                        .collect::<Vec<_>>()
                };
                let setup = BattleSetup {
                    terrain: titan_core::model::TerrainId(
                        r.int_in(0, v.terrains.len() as i64 - 1) as u8
                    ),
                    attacker: leg(&mut r),
                    defender: leg(&mut r),
                    attacker_edge: Edge::SouthWest,
                    summonable: vec![],
                    reinforcements: vec![],
                    teleported: false,
                };
                let mut pa = player(a, i).unwrap();
                let mut pd = player(d, i + 1).unwrap();
                let (res, _) = play::play_battle(&v, setup, pa.as_mut(), pd.as_mut(), i).unwrap();
                if res.winner == Winner::Attacker {
                    aw += 1;
                }
            }
            println!(
                "{a} vs {d}: attacker wins {:.1}%",
                100.0 * aw as f64 / n as f64
            );
        }
    } else {
        let seats: Vec<&str> = args[3].split(',').collect();
        let k = seats.len();
        let names: Vec<String> = (0..k).map(|i| format!("p{i}")).collect();
        let mut wins = vec![0; k];
        let mut turns = 0;
        for g in 0..n {
            let (mut game, _) =
                titan_core::game::Game::new(v.clone(), Default::default(), &names, g).unwrap();
            let mut players: Vec<Box<dyn Player>> = (0..k)
                .map(|s| player(seats[(s + g as usize) % k], g * 7 + s as u64).unwrap())
                .collect();
            let r = play::play_game(&mut game, &mut players, 300);
            turns += r.turns;
            if let Some(titan_core::game::Outcome::Winner(p)) = r.outcome {
                wins[(p.0 as usize + g as usize) % k] += 1;
            }
        }
        println!(
            "{seats:?} wins {wins:?} turns {:.1}",
            turns as f64 / n as f64
        );
    }
}
#[allow(dead_code)]
fn cal() {}
