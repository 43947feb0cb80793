//! The protocol's sections around the types: triggers, tools, skills, MCP
//! servers, workers and the thread configuration of `agent:` (which a
//! `start-thread` block shares).
//!
//! Lowering decides form only: the keys, required keys, choices and
//! ranges come from [`crate::grammar`]; whether a name refers to something
//! declared is decided in `check`.

use super::values::{InputMapping, Setting};
use super::{Field, FieldContext, Lower, Name, Titled};
use crate::grammar::{self, Place};
use crate::span::Span;
use crate::yaml::{Entry, Node};

#[derive(Clone, Debug)]
pub struct Trigger {
    pub name: Name,
    pub description: Option<Name>,
    pub input: Vec<Field>,
}

/// How a tool, skill, server, worker or block appears in the UI.
#[derive(Clone, Debug, Default)]
pub struct Presentation {
    pub description: Option<Name>,
    pub display: Option<Name>,
    pub title: Option<Name>,
}

#[derive(Clone, Debug)]
pub struct Tool {
    pub name: Name,
    pub presentation: Presentation,
    pub parameters: Vec<Field>,
}

#[derive(Clone, Debug)]
pub struct Skill {
    pub name: Name,
    pub presentation: Presentation,
    pub execution: Option<Name>,
}

#[derive(Clone, Debug)]
pub struct McpServer {
    pub name: Name,
    pub presentation: Presentation,
    pub source: Option<Name>,
    pub connection: Option<Name>,
    pub execution: Option<Name>,
}

/// An entry of `onDemandMcpServers:`, keyed by source.
#[derive(Clone, Debug)]
pub struct OnDemandMcp {
    pub source: Name,
    pub presentation: Presentation,
    pub execution: Option<Name>,
}

/// A worker an interactive agent may call, under `workers:`.
#[derive(Clone, Debug)]
pub struct WorkerDecl {
    pub name: Name,
    pub presentation: Presentation,
    /// `worker tool → parent tool`.
    pub tools: Vec<(Name, Name)>,
}

/// The configuration of a thread: the `agent:` section (the main thread) or
/// a `start-thread` block.
#[derive(Clone, Debug, Default)]
pub struct ThreadConfig {
    pub model: Option<Setting>,
    pub backup_model: Option<Setting>,
    pub system: Option<Name>,
    pub input: Vec<InputMapping>,
    pub tools: Vec<Name>,
    pub skills: Vec<Name>,
    pub mcp_servers: Vec<Name>,
    pub on_demand_mcp_servers: Vec<Name>,
    pub workers: Vec<Name>,
    pub references: Vec<Name>,
    pub image_model: Option<Setting>,
    pub video_model: Option<Setting>,
    pub speech_model: Option<Setting>,
    pub speech_voice: Option<Setting>,
    pub transcription_model: Option<Setting>,
    pub temperature: Option<Setting>,
    pub thinking: Option<Setting>,
    pub speed: Option<Setting>,
    pub max_steps: Option<Setting>,
    pub anthropic: Option<Anthropic>,
    pub context_management: Option<ContextManagement>,
    /// Every setting given by a variable (`temperature: TEMPERATURE`), with
    /// its key, in file order: the keys the grammar marks `dynamic`.
    pub dynamic: Vec<(&'static str, Name)>,
}

/// `anthropic:`, with the presentation of its provider tools and skills.
#[derive(Clone, Debug)]
pub struct Anthropic {
    /// The `anthropic` key.
    pub key: Span,
    /// `tools:` and `skills:`, each by name.
    pub tools: Vec<(Name, Presentation)>,
    pub skills: Vec<(Name, Presentation)>,
}

#[derive(Clone, Debug)]
pub struct ContextManagement {
    pub key: Span,
    pub summarizer_worker: Option<Name>,
    pub recent_percent: Option<Span>,
}

#[derive(Clone, Debug)]
pub struct Agent {
    /// The `agent` key.
    pub key: Span,
    pub config: ThreadConfig,
}

impl Lower<'_> {
    pub(super) fn triggers(&mut self, node: &Node) -> Vec<Trigger> {
        let entries = self.mapping(node, "`triggers`");
        super::lower_each(entries, |entry| self.trigger(entry))
    }

    pub(super) fn trigger(&mut self, entry: &Entry) -> Trigger {
        let name = Name::of(&entry.key);
        let place = Titled::new("trigger", &entry.key.text);
        let mut trigger = Trigger {
            name,
            description: None,
            input: Vec::new(),
        };
        let body = self.mapping(&entry.value, &place);
        self.keys_of(body, &grammar::TRIGGER, &place);
        for field in body.iter() {
            match field.key.text.as_ref() {
                "description" => trigger.description = self.description(&field.value),
                "input" => {
                    trigger.input = self.fields(&field.value, "input", FieldContext::TriggerInput)
                }
                // Not a trigger's: reported by `keys_of`.
                key if grammar::TRIGGER.key(key).is_none() => {}
                _ => self.unread(field, &place),
            }
        }
        trigger
    }

    /// A declaration's body: its keys checked against `place`, its
    /// presentation read, and each of its other scalars checked.
    fn declaration<'e, 's>(
        &mut self,
        entry: &'e Entry<'s>,
        place: &'static Place,
        what: &(impl std::fmt::Display + ?Sized),
    ) -> (&'e [Entry<'s>], Presentation) {
        let body = self.mapping(&entry.value, what);
        self.keys_of(body, place, what);
        let presentation = self.presentation(body, place);
        (body, presentation)
    }

    /// Reads `display`, `title` and `description` where `place` has them,
    /// checking each.
    pub(super) fn presentation(&mut self, body: &[Entry], place: &Place) -> Presentation {
        let mut presentation = Presentation::default();
        for entry in body.iter() {
            let Some(key) = place.key(&entry.key.text) else {
                continue;
            };
            // The shared rows, so no other spelling can slip in.
            let slot = if key.name == grammar::DESCRIPTION_KEY.name {
                &mut presentation.description
            } else if key.name == grammar::TITLE_KEY.name {
                &mut presentation.title
            } else if key.name == grammar::DISPLAY_KEY.name {
                &mut presentation.display
            } else {
                continue;
            };
            *slot = self.literal(key, &entry.value);
        }
        presentation
    }

    /// The value of key `name` in `body`, checked against `place`'s row.
    fn scalar_of(&mut self, body: &[Entry], place: &Place, name: &str) -> Option<Name> {
        let entry = body.iter().find(|e| e.key.text == name)?;
        let key = place.key(name)?;
        self.literal(key, &entry.value)
    }

    pub(super) fn tools(&mut self, node: &Node) -> Vec<Tool> {
        let entries = self.mapping(node, "`tools`");
        super::lower_each(entries, |entry| self.tool(entry))
    }

    pub(super) fn tool(&mut self, entry: &Entry) -> Tool {
        let name = Name::of(&entry.key);
        let place = Titled::new("tool", &entry.key.text);
        let (body, presentation) = self.declaration(entry, &grammar::TOOL, &place);
        self.required_of(body, &grammar::TOOL, name.span, &place);
        let parameters = body
            .iter()
            .find(|e| e.key.text == "parameters")
            .map(|e| self.parameters(&e.value, &name))
            .unwrap_or_default();
        Tool {
            name,
            presentation,
            parameters,
        }
    }

    pub(super) fn skills(&mut self, node: &Node) -> Vec<Skill> {
        let mut skills = Vec::new();
        for entry in self.mapping(node, "`skills`").iter() {
            let name = Name::of(&entry.key);
            let place = format!("skill `{}`", name.text);
            let (body, presentation) = self.declaration(entry, &grammar::SKILL, &place);
            let execution = self.scalar_of(body, &grammar::SKILL, "execution");
            skills.push(Skill {
                name,
                presentation,
                execution,
            });
        }
        skills
    }

    /// `onDemandSkills:` is one declaration, not a mapping of skills.
    pub(super) fn on_demand_skills(&mut self, entry: &Entry) -> Skill {
        let (body, presentation) = self.declaration(entry, &grammar::SKILL, "`onDemandSkills`");
        let execution = self.scalar_of(body, &grammar::SKILL, "execution");
        Skill {
            name: Name::of(&entry.key),
            presentation,
            execution,
        }
    }

    pub(super) fn mcp_servers(&mut self, node: &Node) -> Vec<McpServer> {
        let place = &grammar::MCP_SERVER;
        let mut servers = Vec::new();
        for entry in self.mapping(node, "`mcpServers`").iter() {
            let name = Name::of(&entry.key);
            let what = format!("MCP server `{}`", name.text);
            let (body, presentation) = self.declaration(entry, place, &what);
            self.required_of(body, place, name.span, &what);
            servers.push(McpServer {
                source: self.scalar_of(body, place, "source"),
                connection: self.scalar_of(body, place, "connection"),
                execution: self.scalar_of(body, place, "execution"),
                name,
                presentation,
            });
        }
        servers
    }

    pub(super) fn on_demand_mcp_servers(&mut self, node: &Node) -> Vec<OnDemandMcp> {
        let place = &grammar::ON_DEMAND_MCP;
        let mut sources = Vec::new();
        for entry in self.mapping(node, "`onDemandMcpServers`").iter() {
            let source = Name::of(&entry.key);
            // Only the three sources are kept, so lookups stay trivial.
            let valid = grammar::MCP_SOURCES.contains(&source.text.as_str());
            if !valid {
                self.invalid_choice(
                    &source,
                    "an `onDemandMcpServers` source",
                    grammar::MCP_SOURCES,
                );
            }
            let what = format!("on-demand MCP source `{}`", source.text);
            let (body, presentation) = self.declaration(entry, place, &what);
            let execution = self.scalar_of(body, place, "execution");
            if let Some(retention) = body.iter().find(|e| e.key.text == "contextRetention") {
                self.context_retention(&retention.value);
            }
            if !valid {
                continue;
            }
            sources.push(OnDemandMcp {
                source,
                presentation,
                execution,
            });
        }
        sources
    }

    /// `contextRetention: { toolResults: { retainLast: N } }`.
    fn context_retention(&mut self, node: &Node) {
        let body = self.mapping(node, "`contextRetention`");
        self.keys_of(body, &grammar::CONTEXT_RETENTION, "`contextRetention`");
        for entry in body.iter() {
            let inner = self.mapping(&entry.value, "`toolResults`");
            self.keys_of(inner, &grammar::TOOL_RESULTS, "`toolResults`");
            for field in inner.iter() {
                if let Some(key) = grammar::TOOL_RESULTS.key(&field.key.text) {
                    self.literal(key, &field.value);
                }
            }
        }
    }

    pub(super) fn workers(&mut self, node: &Node) -> Vec<WorkerDecl> {
        let mut workers = Vec::new();
        for entry in self.mapping(node, "`workers`").iter() {
            let name = Name::of(&entry.key);
            let place = format!("worker `{}`", name.text);
            let (body, presentation) = self.declaration(entry, &grammar::WORKER, &place);
            let mut tools = Vec::new();
            if let Some(mapping) = body.iter().find(|e| e.key.text == "tools") {
                for tool in self.mapping(&mapping.value, "worker `tools`").iter() {
                    if let Some(parent) = self.text(&tool.value, "a worker tool mapping") {
                        tools.push((Name::of(&tool.key), parent));
                    }
                }
            }
            workers.push(WorkerDecl {
                name,
                presentation,
                tools,
            });
        }
        workers
    }

    pub(super) fn agent(&mut self, entry: &Entry) -> Agent {
        let body = self.mapping(&entry.value, "`agent`");
        self.keys_of(body, &grammar::AGENT, "`agent`");
        let mut config = ThreadConfig::default();
        for field in body.iter() {
            self.config_key(&grammar::AGENT, field, &mut config);
        }
        let key = entry.key.span;
        self.required_of(body, &grammar::AGENT, key, "`agent`");
        Agent { key, config }
    }

    /// One key of a thread configuration (`agent:` or `start-thread`),
    /// checked against `place`'s row. Keys that are not configuration
    /// are left to the caller.
    pub(super) fn config_key(&mut self, place: &Place, entry: &Entry, config: &mut ThreadConfig) {
        let Some(key) = place.key(&entry.key.text) else {
            return;
        };
        let value = &entry.value;
        let what = format!("`{}`", key.name);
        match key.name {
            "input" => config.input = self.input_mapping(value),
            "tools" => config.tools = self.names(value, &what),
            "skills" => config.skills = self.names(value, &what),
            "mcpServers" => config.mcp_servers = self.names(value, &what),
            "onDemandMcpServers" => config.on_demand_mcp_servers = self.names(value, &what),
            "workers" => config.workers = self.names(value, &what),
            "references" => config.references = self.names(value, &what),
            "anthropic" => config.anthropic = Some(self.anthropic(entry)),
            "contextManagement" => config.context_management = Some(self.context_management(entry)),
            "system" => config.system = self.literal(key, value),
            name => {
                let setting = self.scalar(key, value);
                if let Some(Setting::Variable(variable)) = &setting {
                    config.dynamic.push((key.name, variable.clone()));
                }
                let slot = match name {
                    "model" => &mut config.model,
                    "backupModel" => &mut config.backup_model,
                    "imageModel" => &mut config.image_model,
                    "videoModel" => &mut config.video_model,
                    "speechModel" => &mut config.speech_model,
                    "speechVoice" => &mut config.speech_voice,
                    "transcriptionModel" => &mut config.transcription_model,
                    "temperature" => &mut config.temperature,
                    "thinking" => &mut config.thinking,
                    "speed" => &mut config.speed,
                    "maxSteps" => &mut config.max_steps,
                    // Checked, not kept: later stages do not read them.
                    "sandboxTimeout"
                    | "webSearch"
                    | "todoList"
                    | "agentic"
                    | "cache"
                    | "maxToolOutputTokens"
                    | "maxImageDimension"
                    | "maxOutputTokens"
                    | "loopGuard" => return,
                    _ => return self.unread(entry, place.name),
                };
                *slot = setting;
            }
        }
    }

    fn anthropic(&mut self, entry: &Entry) -> Anthropic {
        let body = self.mapping(&entry.value, "`anthropic`");
        self.keys_of(body, &grammar::ANTHROPIC, "`anthropic`");
        let mut anthropic = Anthropic {
            key: entry.key.span,
            tools: Vec::new(),
            skills: Vec::new(),
        };
        for entry in body.iter() {
            match entry.key.text.as_ref() {
                "tools" => {
                    for tool in self.mapping(&entry.value, "`anthropic.tools`").iter() {
                        let name = Name::of(&tool.key);
                        if !grammar::ANTHROPIC_TOOLS.contains(&name.text.as_str()) {
                            self.invalid_choice(
                                &name,
                                "an Anthropic provider tool",
                                grammar::ANTHROPIC_TOOLS,
                            );
                        }
                        let what = format!("Anthropic tool `{}`", name.text);
                        let (_, presentation) =
                            self.declaration(tool, &grammar::ANTHROPIC_TOOL, &what);
                        anthropic.tools.push((name, presentation));
                    }
                }
                "skills" => {
                    let place = &grammar::ANTHROPIC_SKILL;
                    for skill in self.mapping(&entry.value, "`anthropic.skills`").iter() {
                        let name = Name::of(&skill.key);
                        let what = format!("Anthropic skill `{}`", name.text);
                        let (body, presentation) = self.declaration(skill, place, &what);
                        self.scalar_of(body, place, "version");
                        self.scalar_of(body, place, "type");
                        self.required_of(body, place, name.span, &what);
                        anthropic.skills.push((name, presentation));
                    }
                }
                // Not `anthropic`'s: reported by `keys_of`.
                key if grammar::ANTHROPIC.key(key).is_none() => {}
                _ => self.unread(entry, "`anthropic`"),
            }
        }
        anthropic
    }

    fn context_management(&mut self, entry: &Entry) -> ContextManagement {
        let place = &grammar::CONTEXT_MANAGEMENT;
        let body = self.mapping(&entry.value, "`contextManagement`");
        self.keys_of(body, place, "`contextManagement`");
        let mut management = ContextManagement {
            key: entry.key.span,
            summarizer_worker: None,
            recent_percent: None,
        };
        for field in body.iter() {
            let Some(key) = place.key(&field.key.text) else {
                continue;
            };
            let value = self.literal(key, &field.value);
            match key.name {
                "summarizerWorker" => management.summarizer_worker = value,
                "recentPercent" => management.recent_percent = Some(field.key.span),
                // Checked, not kept: later stages do not read them.
                "thresholdPercent" | "recentWindow" => {}
                _ => self.unread(field, "`contextManagement`"),
            }
        }
        management
    }
}
