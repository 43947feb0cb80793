//! `agentc init`: the files of a new agent folder, as text. A chat agent
//! (`interactive`: triggers, handlers and the `agent:` section) or a worker
//! (`steps` and `output`), each with a `settings.json`, its prompts and an
//! `agentc.toml` whose `[[gen]]` entry writes the agent's TypeScript and
//! zod bindings. The files carry one-line comments that teach the format,
//! where the format takes comments (`settings.json` is JSON: the protocol's
//! header says what it holds).
//!
//! This is core: it names the files and their text and writes nothing.
//! Writing them, never over anything, is the disk's (`project::init`).
//!
//! ```
//! use agentc::init::{Template, files};
//! use agentc::Workspace;
//!
//! for template in [Template::Chat, Template::Worker] {
//!     let mut workspace = Workspace::new();
//!     for (path, text) in files(template, "support-bot").unwrap() {
//!         if path.as_os_str() == "agentc.toml" {
//!             assert!(workspace.set_config(&text).is_ok());
//!         } else {
//!             workspace.insert(std::path::Path::new("support-bot").join(path), text);
//!         }
//!     }
//!     let reports = workspace.check();
//!     // The protocol, its settings and its prompts: no problem in any.
//!     assert!(reports.len() >= 4);
//!     for report in &reports {
//!         assert!(report.diagnostics.is_empty(), "{}", report.source.name());
//!     }
//! }
//! // The folder's name is the agent's slug: it must be one.
//! assert!(files(Template::Chat, "Support Bot").is_err());
//! ```

use crate::check::is_slug;
use crate::diagnostic::{Code, Failure};
use std::path::PathBuf;

/// What kind of agent `agentc init` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Template {
    /// An interactive agent: a conversation, driven by triggers.
    #[default]
    Chat,
    /// A worker: runs its steps once and returns a value.
    Worker,
}

impl Template {
    /// `settings.json`'s `format` for this template.
    pub fn format(self) -> &'static str {
        match self {
            Template::Chat => "interactive",
            Template::Worker => "worker",
        }
    }
}

/// The files of a new agent folder named `name` (the agent's slug), as
/// paths relative to the folder with their text, in the order they are
/// written: the protocol, its settings, its prompts, then `agentc.toml`.
/// A `name` that is not a slug (lowercase letters, digits and single
/// dashes) is an `invalid-path` failure, at `name`.
pub fn files(template: Template, name: &str) -> Result<Vec<(PathBuf, String)>, Failure> {
    if !is_slug(name) {
        let suggestion = kebab(name);
        let example = match suggestion.is_empty() {
            true => "my-agent".to_string(),
            false => suggestion,
        };
        return Err(Failure::new(
            name,
            Code::InvalidPath,
            format!("`{name}` cannot name an agent: the folder's name is the agent's slug, which is lowercase letters, digits and single dashes"),
        )
        .with_help(format!("name the folder `{example}`: `agentc init {example}`")));
    }
    let fill = |text: &str| text.replace("{slug}", name);
    let settings = format!(
        "{{\n  \"slug\": \"{name}\",\n  \"name\": \"{}\",\n  \"description\": \"{}\",\n  \"format\": \"{}\"\n}}\n",
        title(name),
        match template {
            Template::Chat => "Answers users' questions and opens support tickets",
            Template::Worker => "Summarizes a document into a headline and its key points",
        },
        template.format()
    );
    let (protocol, prompts) = match template {
        Template::Chat => (CHAT, &CHAT_PROMPTS[..]),
        Template::Worker => (WORKER, &WORKER_PROMPTS[..]),
    };
    let mut files = vec![
        (PathBuf::from("protocol.yaml"), fill(protocol)),
        (PathBuf::from("settings.json"), settings),
    ];
    files.extend(
        prompts
            .iter()
            .map(|(prompt, text)| (PathBuf::from("prompts").join(prompt), fill(text))),
    );
    files.push((PathBuf::from("agentc.toml"), AGENTC_TOML.to_string()));
    Ok(files)
}

/// `support-bot` as people read it: `Support Bot`.
fn title(slug: &str) -> String {
    slug.split('-')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The slug nearest to `name`, for the help line: ASCII letters and
/// digits lowercased, a Latin letter with a mark as its letter (`über`:
/// `uber`, not `ber`), every run of anything else one dash.
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if let Some(letters) = unmarked(c) {
            out.push_str(letters);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// A letter of Latin-1 or Latin Extended-A (U+00C0 to U+017F) without its
/// marks, lowercased: `é` and `É` are `e`, `ß` is `ss`, `æ` is `ae`;
/// `None` for anything else (`×` and `÷` among them).
fn unmarked(c: char) -> Option<&'static str> {
    // Latin-1's letters from U+00C0, then Latin Extended-A's from U+0100,
    // one entry each (`_` where there is no letter), in code point order.
    const LATIN_1: [&str; 64] = [
        "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", //
        "d", "n", "o", "o", "o", "o", "o", "_", "o", "u", "u", "u", "u", "y", "th", "ss", //
        "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", //
        "d", "n", "o", "o", "o", "o", "o", "_", "o", "u", "u", "u", "u", "y", "th", "y",
    ];
    // Runs of Latin Extended-A: how many code points, and their letter.
    const EXTENDED_A: [(u32, &str); 22] = [
        (6, "a"),
        (8, "c"),
        (4, "d"),
        (10, "e"),
        (8, "g"),
        (4, "h"),
        (10, "i"),
        (2, "ij"),
        (2, "j"),
        (3, "k"),
        (10, "l"),
        (9, "n"),
        (6, "o"),
        (2, "oe"),
        (6, "r"),
        (8, "s"),
        (6, "t"),
        (12, "u"),
        (2, "w"),
        (3, "y"),
        (6, "z"),
        (1, "s"),
    ];
    let code = u32::from(c);
    match code {
        0xC0..=0xFF => Some(LATIN_1[(code - 0xC0) as usize]).filter(|&l| l != "_"),
        0x100..=0x17F => {
            let mut first = 0x100;
            EXTENDED_A.iter().find_map(|&(run, letter)| {
                first += run;
                (code < first).then_some(letter)
            })
        }
        _ => None,
    }
}

const CHAT: &str = r#"# {slug}: an interactive agent. Each session is one conversation, driven by triggers.
# settings.json beside this file gives the agent's slug, name and format ("interactive").
# Check the folder with `agentc check`; `agentc explain CODE` says more about a problem.

# Types: PascalCase names, camelCase properties, each property with its type.
types:
  Ticket:
    subject:
      type: string
      description: One line that says what the problem is
    priority:
      type: string
      enum: [low, normal, urgent]
    contact:
      type: Contact
      optional: true # may be left out

  Contact:
    email:
      type: string
    name:
      type: string
      optional: true

# Input: what your code gives when it starts a session (UPPERCASE_SNAKE_CASE).
input:
  COMPANY_NAME:
    type: string
    description: The company the agent speaks for

# Triggers: how the agent is invoked; each one has a handler below.
triggers:
  user-message:
    description: The user sends a chat message
    input:
      USER_MESSAGE:
        type: string
        description: The user's message

# Tools: what the model may call; your code runs them (`agentc gen` types their parameters).
tools:
  create-ticket:
    description: Opens a support ticket for a problem you cannot solve in the chat
    display: title # the UI shows the title, not the arguments
    title: Opening a ticket
    parameters:
      ticket:
        type: Ticket
        description: The ticket to open

# The conversation's model and what it may use; `system: system` is prompts/system.md.
agent:
  model: anthropic/claude-sonnet-4-5
  system: system
  input: [COMPANY_NAME] # the variables prompts/system.md reads
  tools: [create-ticket]
  agentic: true # may call tools several times before it answers

# Handlers: the blocks a trigger runs, in order, each under a name of its own.
handlers:
  user-message:
    Add user message:
      block: add-message
      role: user
      prompt: user-message # prompts/user-message.md
      input: [USER_MESSAGE]

    Respond to user:
      block: next-message
"#;

const CHAT_PROMPTS: [(&str, &str); 2] = [
    (
        "system.md",
        "You are the support assistant of {{COMPANY_NAME}}.

Answer the user's questions briefly and kindly. When you cannot solve a problem in the chat, open a ticket with `create-ticket`: say what the problem is and how urgent it is.
",
    ),
    ("user-message.md", "{{USER_MESSAGE}}\n"),
];

const WORKER: &str = r#"# {slug}: a worker agent. It runs its steps once, in order, and returns its output.
# settings.json beside this file gives the agent's slug, name and format ("worker").
# Check the folder with `agentc check`; `agentc explain CODE` says more about a problem.

# Types: PascalCase names, camelCase properties, each property with its type.
types:
  Summary:
    headline:
      type: string
      description: One sentence that says what the document is about
    keyPoints:
      type: KeyPoint[] # a list of KeyPoint
      description: The 3-5 points that matter most

  KeyPoint:
    text:
      type: string
    importance:
      type: string
      enum: [high, medium, low]

# Input: what your code gives when it runs the worker (UPPERCASE_SNAKE_CASE).
input:
  DOCUMENT_URL:
    type: string
    description: Where the document to summarize is
  LANGUAGE:
    type: string
    description: The language of the summary
    optional: true
    default: English

# Variables: values the steps write and read.
variables:
  SUMMARY:
    type: Summary
    description: What the worker returns

# Tools: what the model may call; your code runs them (`agentc gen` types their parameters).
tools:
  fetch-document:
    description: Fetches the text of the document at a URL
    display: title # the UI shows the title, not the arguments
    title: Reading the document
    parameters:
      url:
        type: string
        description: The document's URL

# Steps: the blocks the worker runs, in order, each under a name of its own.
steps:
  Start summary thread:
    block: start-thread # a worker has no `agent:`; each thread names its model
    thread: summary
    model: anthropic/claude-sonnet-4-5
    system: system # prompts/system.md
    input: [LANGUAGE]
    tools: [fetch-document]
    maxSteps: 5

  Add request:
    block: add-message
    thread: summary
    role: user
    prompt: summarize # prompts/summarize.md
    input: [DOCUMENT_URL]

  Summarize:
    block: next-message
    thread: summary
    responseType: Summary # the reply is a Summary, not text
    output: SUMMARY

# Output: the variable the worker returns.
output: SUMMARY
"#;

const WORKER_PROMPTS: [(&str, &str); 2] = [
    (
        "system.md",
        "You summarize documents for people who have no time to read them.

Write in {{LANGUAGE}}. Read the document with `fetch-document` first, and mention only what it says.
",
    ),
    (
        "summarize.md",
        "Summarize the document at {{DOCUMENT_URL}}.\n",
    ),
];

const AGENTC_TOML: &str = r#"# agentc's settings for this folder and below: `agentc check` reads them.
# `agentc gen` writes the bindings each [[gen]] entry asks for.

[[gen]]
lang = ["ts", "zod"] # TypeScript types and zod schemas; or python (pydantic)
out = "generated"    # a folder below this one
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_titles_and_slugs() {
        assert_eq!(title("support-bot"), "Support Bot");
        assert_eq!(title("agent-2"), "Agent 2");
        assert_eq!(kebab("Support Bot!"), "support-bot");
        assert_eq!(kebab("tmp.Xy_1"), "tmp-xy-1");
        assert_eq!(kebab("日本"), "");
        assert_eq!(kebab("über"), "uber");
        assert_eq!(kebab("Straße Æsir"), "strasse-aesir");
        assert_eq!(kebab("Łódź×2"), "lodz-2");
        assert_eq!(kebab("ŠKODA ſ"), "skoda-s");
        // Latin Extended-A's runs cover its 128 code points, each at its
        // place: the first and last of some runs.
        for (c, letter) in [
            ('Ā', "a"),
            ('ą', "a"),
            ('Ć', "c"),
            ('Ĳ', "ij"),
            ('ŉ', "n"),
            ('Œ', "oe"),
            ('Ÿ', "y"),
            ('Ź', "z"),
            ('ſ', "s"),
        ] {
            assert_eq!(unmarked(c), Some(letter), "{c}");
        }
        assert!(('\u{100}'..='\u{17F}').all(|c| unmarked(c).is_some()));
        assert_eq!(unmarked('\u{180}'), None);
        assert_eq!(unmarked('×'), None);
        assert_eq!(unmarked('ÿ'), Some("y"));
    }

    #[test]
    fn a_name_that_is_no_slug_writes_nothing() {
        for name in ["", "Support", "a--b", "-a", "a b", "a/b", "..", "ä"] {
            let failure = files(Template::Chat, name).unwrap_err();
            assert_eq!(failure.code, Code::InvalidPath, "{name}");
        }
        let failure = files(Template::Worker, "My Agent").unwrap_err();
        assert_eq!(
            failure.help.as_deref(),
            Some("name the folder `my-agent`: `agentc init my-agent`")
        );
    }

    #[test]
    fn the_files_come_in_order_with_the_slug() {
        let files = files(Template::Worker, "doc-summarizer").unwrap();
        let paths: Vec<String> = files
            .iter()
            .map(|(p, _)| p.to_string_lossy().replace('\\', "/"))
            .collect();
        assert_eq!(
            paths,
            [
                "protocol.yaml",
                "settings.json",
                "prompts/system.md",
                "prompts/summarize.md",
                "agentc.toml"
            ]
        );
        assert!(files[0].1.starts_with("# doc-summarizer: a worker agent."));
        assert!(files[1].1.contains("\"name\": \"Doc Summarizer\""));
        assert!(files[1].1.contains("\"format\": \"worker\""));
    }
}
