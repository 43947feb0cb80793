//! Text the printers share.

/// `text` as a JSON string literal, which TypeScript and JavaScript read
/// as the same string (and Python too: JSON's escapes are Python's).
pub fn json_string(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}
