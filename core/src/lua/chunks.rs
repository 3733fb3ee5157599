//! Compiled chunks shared by the VMs of one variant.
//!
//! A game starts a VM, and so do each battle played alone and each
//! computer player's search; each loads the engine's Lua (the prelude, the
//! library, the context API and the dispatchers it generates) and the
//! variant's scripts. Compiling that text again in every VM cost more than
//! a whole game of random players, so the first VM keeps each chunk's
//! bytecode here, by its name and text, and the next ones load that.
//!
//! Only text the engine compiled itself goes in: a script's own bytecode is
//! still refused ([`super::LuaHost::load_script`]), and a chunk is found
//! only by the very text it was compiled from. Lines and names are kept, so
//! errors read the same either way.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua};

/// At most this many chunks are kept (the engine's, each event shape's
/// dispatcher and the scripts: a few dozen); past it, new text is compiled
/// each time and not kept.
const MAX_CHUNKS: usize = 4096;

/// Compiled chunks by text (then name); clones share them.
#[derive(Clone, Default)]
pub struct Chunks(Arc<Mutex<HashMap<String, Vec<Kept>>>>);

/// One chunk's bytecode, under its name.
struct Kept {
    name: String,
    bytecode: Arc<[u8]>,
    /// A script whose top level ran to its end in an earlier VM.
    ran: bool,
}

impl std::fmt::Debug for Chunks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.len();
        write!(f, "Chunks({n})")
    }
}

impl Chunks {
    /// How many chunks are kept.
    pub fn len(&self) -> usize {
        self.0.lock().map_or(0, |m| m.values().map(Vec::len).sum())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `text` compiled in `lua` as chunk `name` (the `=name` form Lua
    /// prints as it is), from the kept bytecode when there is one.
    pub(crate) fn load(&self, lua: &Lua, name: &str, text: &str) -> mlua::Result<Function> {
        let kept = self.0.lock().ok().and_then(|m| {
            m.get(text)?
                .iter()
                .find(|k| k.name == name)
                .map(|k| Arc::clone(&k.bytecode))
        });
        if let Some(bytecode) = kept {
            return lua
                .load(&*bytecode)
                .set_name(name)
                .set_mode(ChunkMode::Binary)
                .into_function();
        }
        let func = lua
            .load(text)
            .set_name(name)
            .set_mode(ChunkMode::Text)
            .into_function()?;
        // `dump` panics only when the Lua stack cannot grow: the next VM
        // then compiles the text again.
        let dumped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| func.dump(false)));
        if let (Ok(bytecode), Ok(mut m)) = (dumped, self.0.lock())
            && m.values().map(Vec::len).sum::<usize>() < MAX_CHUNKS
        {
            m.entry(text.to_string()).or_default().push(Kept {
                name: name.to_string(),
                bytecode: bytecode.into(),
                ran: false,
            });
        }
        Ok(func)
    }

    /// Whether the top level of chunk `name` of `text` ran to its end in
    /// an earlier VM (and would again: a script's top level sees nothing
    /// of a game).
    pub(crate) fn ran(&self, name: &str, text: &str) -> bool {
        self.0.lock().ok().is_some_and(|m| {
            m.get(text)
                .is_some_and(|v| v.iter().any(|k| k.name == name && k.ran))
        })
    }

    /// Notes that the top level of chunk `name` of `text` ran to its end.
    pub(crate) fn set_ran(&self, name: &str, text: &str) {
        if let Ok(mut m) = self.0.lock()
            && let Some(k) = m
                .get_mut(text)
                .and_then(|v| v.iter_mut().find(|k| k.name == name))
        {
            k.ran = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_is_compiled_once_and_loaded_after() {
        let chunks = Chunks::default();
        let text = "local a, b = ...\nreturn a + b";
        for _ in 0..3 {
            let lua = Lua::new();
            let f = chunks.load(&lua, "=sum", text).unwrap();
            assert_eq!(f.call::<i64>((2, 3)).unwrap(), 5);
        }
        assert_eq!(chunks.len(), 1);
        // Another text under the same name is another chunk.
        let lua = Lua::new();
        let f = chunks.load(&lua, "=sum", "return 7").unwrap();
        assert_eq!(f.call::<i64>(()).unwrap(), 7);
        assert_eq!(chunks.len(), 2);
    }

    #[test]
    fn an_error_names_the_same_line_from_bytecode() {
        let chunks = Chunks::default();
        let text = "local x = 1\n\nerror('here')";
        let mut messages = Vec::new();
        for _ in 0..2 {
            let lua = Lua::new();
            let f = chunks.load(&lua, "=s.lua", text).unwrap();
            messages.push(f.call::<()>(()).unwrap_err().to_string());
        }
        assert!(messages[0].contains("s.lua:3:"), "{}", messages[0]);
        assert_eq!(messages[0], messages[1]);
    }
}
