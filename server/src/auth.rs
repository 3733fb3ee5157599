//! Accounts: argon2 password hashes, session tokens, and the checks on
//! names and passwords. Passwords are never logged nor stored.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::RngCore;

use crate::protocol::{MAX_NAME_BYTES, MAX_PASSWORD_BYTES, MIN_PASSWORD_BYTES};

/// `n` random bytes as hex, from the thread's cryptographic generator (seeded by the system).
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new session token.
pub fn new_token() -> String {
    random_hex(32)
}

/// What the database keeps of a token: its hash, so that a copy of the
/// database does not log anyone in.
pub fn token_hash(token: &str) -> String {
    use blake2::Digest;
    blake2::Blake2b512::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The password's argon2 hash (PHC string, with its salt).
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` matches the stored `hash`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A user name: 1 to 32 letters, digits, `_`, `-` or `.` (no spaces, so
/// that no user is named like a computer seat).
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_NAME_BYTES {
        return Err(format!("a user name is 1 to {MAX_NAME_BYTES} bytes long"));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
    {
        return Err("a user name holds only letters, digits, '_', '-' and '.'".into());
    }
    Ok(())
}

pub fn check_password(password: &str) -> Result<(), String> {
    if password.len() < MIN_PASSWORD_BYTES || password.len() > MAX_PASSWORD_BYTES {
        return Err(format!(
            "a password is {MIN_PASSWORD_BYTES} to {MAX_PASSWORD_BYTES} bytes long"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_differ() {
        let a = hash_password("secret1").unwrap();
        let b = hash_password("secret1").unwrap();
        assert_ne!(a, b, "salted");
        assert!(!a.contains("secret1"));
        assert!(verify_password("secret1", &a));
        assert!(!verify_password("secret2", &a));
        assert!(!verify_password("secret1", "not a hash"));
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("ann_1").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name("Computer 2").is_err());
        assert!(check_name(&"x".repeat(33)).is_err());
        assert!(check_password("12345").is_err());
        let t = new_token();
        assert_eq!(t.len(), 64);
        assert_eq!(token_hash(&t), token_hash(&t));
        assert_ne!(token_hash(&t), t);
    }
}
