//! Data that names Lua hooks: the names resolve to hook ids when the variant
//! loads, and the hooks run in the sandbox with the game's dice.

mod common;

use titan_core::compile::run_scripts;
use titan_core::model::{Effect, RangeStrength};

fn hooked() -> titan_core::Variant {
    let dir = common::root().join("tests/fixtures/hooked");
    titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}"))
}

#[test]
fn hook_names_resolve_to_registered_hooks() {
    let v = hooked();
    assert_eq!(v.summary().scripts, 2);
    assert_eq!(v.hooks, ["hydra_heads", "quicksand_hits", "regrow_head"]);
    let quicksand = v.hazard(v.hazard_by_name("Quicksand").unwrap());
    let [Effect::Hook(h)] = quicksand.effects[..] else {
        panic!("{:?}", quicksand.effects)
    };
    assert_eq!(v.hooks[h.index()], "quicksand_hits");
    let hydra = v.character(v.character_by_name("Hydra").unwrap());
    let RangeStrength::Hook(h) = hydra.rangestrike.as_ref().unwrap().strength else {
        panic!()
    };
    assert_eq!(v.hooks[h.index()], "hydra_heads");
    assert_eq!(v.hooks[hydra.abilities[0].index()], "regrow_head");
    assert!(v.is_native(
        v.character_by_name("Hydra").unwrap(),
        v.hazard_by_name("Quicksand").unwrap()
    ));
}

#[test]
fn hooks_run_with_shared_scripts_and_the_games_dice() {
    let v = hooked();
    let host = run_scripts(&v.data, 7).unwrap();
    assert_eq!(host.call_hook::<_, i64>("quicksand_hits", 5).unwrap(), 2);
    assert_eq!(host.call_hook::<_, i64>("quicksand_hits", 12).unwrap(), 3);
    assert_eq!(host.call_hook::<_, i64>("hydra_heads", 10).unwrap(), 2);
    // The same seed gives the same rolls; the rolls are real dice.
    let rolls = |seed| {
        let host = run_scripts(&v.data, seed).unwrap();
        (0..60)
            .map(|_| host.call_hook::<_, bool>("regrow_head", ()).unwrap())
            .collect::<Vec<bool>>()
    };
    assert_eq!(rolls(7), rolls(7));
    assert!(rolls(7).contains(&true) && rolls(7).contains(&false));
    assert_ne!(rolls(7), rolls(8));
}
