//! Agent folders: `protocol.yaml` with `settings.json`, `prompts/` and
//! `references/` beside it.

pub mod template;
