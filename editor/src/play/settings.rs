//! What the game window remembers between runs, in `settings.ron` in the
//! data folder (beside the autosave and the saves): the UI scale, and the
//! online log-in (server, user and session token; never the password).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The smallest and largest UI scale offered.
pub const SCALE_RANGE: (f32, f32) = (0.5, 3.0);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// egui's zoom factor: 1 is the system's size; Ctrl + and Ctrl - change
    /// it anywhere.
    pub ui_scale: f32,
    /// The last online log-in.
    pub online: OnlineLogin,
}

/// The online log-in remembered: "Play online" logs in with the token
/// (the server keeps only its hash, and it expires), or fills the form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OnlineLogin {
    pub server: String,
    pub user: String,
    /// Empty once logged out.
    pub token: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ui_scale: 1.0,
            online: OnlineLogin::default(),
        }
    }
}

impl Settings {
    pub fn path(data: &Path) -> PathBuf {
        data.join("settings.ron")
    }

    /// The settings stored in `data`; the defaults when there are none or
    /// they cannot be read (a setting is never worth refusing to start).
    pub fn read(data: &Path) -> Settings {
        let mut s: Settings = std::fs::read_to_string(Settings::path(data))
            .ok()
            .and_then(|t| titan_core::load::ron_options().from_str(&t).ok())
            .unwrap_or_default();
        if !s.ui_scale.is_finite() {
            s.ui_scale = 1.0;
        }
        s.ui_scale = s.ui_scale.clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        s
    }

    /// Writes the settings to `data` (atomically).
    pub fn write(&self, data: &Path) -> Result<(), String> {
        std::fs::create_dir_all(data).map_err(|e| e.to_string())?;
        let text = titan_core::write::to_ron(self).map_err(|e| e.to_string())?;
        let path = Settings::path(data);
        titan_core::write::write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())?;
        // The token logs in as the user: readable by him only.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
