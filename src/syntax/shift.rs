//! Moving what was lowered from a text to where it is after an edit
//! before it: every span of a declaration shifted by the bytes the edit
//! added or removed (`crate::incremental`). Each type is taken apart
//! field by field, without `..`, so a field added to the AST does not
//! compile until it is shifted here too; `tests::every_span_moves` holds
//! the rest, over every fixture.

use super::*;
use crate::yaml::{Entry, Key, Node, NodeKind};

/// What holds spans into the text it was lowered from.
pub(crate) trait Shift {
    /// Moves every span by `by` bytes.
    fn shift(&mut self, by: i64);
}

impl Shift for Span {
    fn shift(&mut self, by: i64) {
        *self = self.shifted(by);
    }
}

impl<T: Shift> Shift for Option<T> {
    fn shift(&mut self, by: i64) {
        if let Some(inner) = self {
            inner.shift(by);
        }
    }
}

impl<T: Shift> Shift for Vec<T> {
    fn shift(&mut self, by: i64) {
        for item in self {
            item.shift(by);
        }
    }
}

impl<T: Shift> Shift for Box<T> {
    fn shift(&mut self, by: i64) {
        (**self).shift(by);
    }
}

impl<A: Shift, B: Shift> Shift for (A, B) {
    fn shift(&mut self, by: i64) {
        self.0.shift(by);
        self.1.shift(by);
    }
}

/// Text that is not a span.
impl Shift for &'static str {
    fn shift(&mut self, _: i64) {}
}

impl Shift for u32 {
    fn shift(&mut self, _: i64) {}
}

impl Shift for usize {
    fn shift(&mut self, _: i64) {}
}

impl Shift for Name {
    fn shift(&mut self, by: i64) {
        let Name { text: _, span } = self;
        span.shift(by);
    }
}

impl Shift for TypeDef {
    fn shift(&mut self, by: i64) {
        let TypeDef { name, kind } = self;
        name.shift(by);
        match kind {
            TypeDefKind::Object(fields) => fields.shift(by),
            TypeDefKind::Array(field) => field.shift(by),
            TypeDefKind::Union(union) => union.shift(by),
            TypeDefKind::Invalid => {}
        }
    }
}

impl Shift for Union {
    fn shift(&mut self, by: i64) {
        let Union {
            any_of,
            variants,
            discriminator,
            description,
        } = self;
        any_of.shift(by);
        variants.shift(by);
        discriminator.shift(by);
        description.shift(by);
    }
}

impl Shift for Field {
    fn shift(&mut self, by: i64) {
        let Field {
            name,
            ty,
            items,
            description,
            optional: _,
            enum_values,
            const_value,
            default,
            readonly: _,
        } = self;
        name.shift(by);
        ty.shift(by);
        items.shift(by);
        description.shift(by);
        enum_values.shift(by);
        const_value.shift(by);
        default.shift(by);
    }
}

impl Shift for EnumValues {
    fn shift(&mut self, by: i64) {
        let EnumValues {
            span,
            values,
            repeats,
            over,
        } = self;
        span.shift(by);
        values.shift(by);
        repeats.shift(by);
        over.shift(by);
    }
}

impl Shift for Literal {
    fn shift(&mut self, by: i64) {
        let Literal { scalar: _, span } = self;
        span.shift(by);
    }
}

impl Shift for TypeExpr {
    fn shift(&mut self, by: i64) {
        let TypeExpr { span, kind } = self;
        span.shift(by);
        match kind {
            TypeExprKind::List(inner) => inner.shift(by),
            TypeExprKind::Builtin(_)
            | TypeExprKind::Named(_)
            | TypeExprKind::Array
            | TypeExprKind::Object => {}
        }
    }
}

impl Shift for Node<'static> {
    fn shift(&mut self, by: i64) {
        let Node { span, kind } = self;
        span.shift(by);
        match kind {
            NodeKind::Scalar(_) => {}
            NodeKind::Mapping(entries) => {
                for Entry { key, value } in entries {
                    let Key { text: _, span } = key;
                    span.shift(by);
                    value.shift(by);
                }
            }
            NodeKind::Sequence(items) => items.shift(by),
        }
    }
}

impl Shift for Trigger {
    fn shift(&mut self, by: i64) {
        let Trigger {
            name,
            description,
            input,
        } = self;
        name.shift(by);
        description.shift(by);
        input.shift(by);
    }
}

impl Shift for Presentation {
    fn shift(&mut self, by: i64) {
        let Presentation {
            description,
            display,
            title,
        } = self;
        description.shift(by);
        display.shift(by);
        title.shift(by);
    }
}

impl Shift for Tool {
    fn shift(&mut self, by: i64) {
        let Tool {
            name,
            presentation,
            parameters,
        } = self;
        name.shift(by);
        presentation.shift(by);
        parameters.shift(by);
    }
}

impl Shift for Skill {
    fn shift(&mut self, by: i64) {
        let Skill {
            name,
            presentation,
            execution,
        } = self;
        name.shift(by);
        presentation.shift(by);
        execution.shift(by);
    }
}

impl Shift for McpServer {
    fn shift(&mut self, by: i64) {
        let McpServer {
            name,
            presentation,
            source,
            connection,
            execution,
        } = self;
        name.shift(by);
        presentation.shift(by);
        source.shift(by);
        connection.shift(by);
        execution.shift(by);
    }
}

impl Shift for OnDemandMcp {
    fn shift(&mut self, by: i64) {
        let OnDemandMcp {
            source,
            presentation,
            execution,
        } = self;
        source.shift(by);
        presentation.shift(by);
        execution.shift(by);
    }
}

impl Shift for WorkerDecl {
    fn shift(&mut self, by: i64) {
        let WorkerDecl {
            name,
            presentation,
            tools,
        } = self;
        name.shift(by);
        presentation.shift(by);
        tools.shift(by);
    }
}

impl Shift for ThreadConfig {
    fn shift(&mut self, by: i64) {
        let ThreadConfig {
            model,
            backup_model,
            system,
            input,
            tools,
            skills,
            mcp_servers,
            on_demand_mcp_servers,
            workers,
            references,
            image_model,
            video_model,
            speech_model,
            speech_voice,
            transcription_model,
            temperature,
            thinking,
            speed,
            max_steps,
            anthropic,
            context_management,
            dynamic,
        } = self;
        model.shift(by);
        backup_model.shift(by);
        system.shift(by);
        input.shift(by);
        tools.shift(by);
        skills.shift(by);
        mcp_servers.shift(by);
        on_demand_mcp_servers.shift(by);
        workers.shift(by);
        references.shift(by);
        image_model.shift(by);
        video_model.shift(by);
        speech_model.shift(by);
        speech_voice.shift(by);
        transcription_model.shift(by);
        temperature.shift(by);
        thinking.shift(by);
        speed.shift(by);
        max_steps.shift(by);
        anthropic.shift(by);
        context_management.shift(by);
        dynamic.shift(by);
    }
}

impl Shift for Anthropic {
    fn shift(&mut self, by: i64) {
        let Anthropic { key, tools, skills } = self;
        key.shift(by);
        tools.shift(by);
        skills.shift(by);
    }
}

impl Shift for ContextManagement {
    fn shift(&mut self, by: i64) {
        let ContextManagement {
            key,
            summarizer_worker,
            recent_percent,
        } = self;
        key.shift(by);
        summarizer_worker.shift(by);
        recent_percent.shift(by);
    }
}

impl Shift for Agent {
    fn shift(&mut self, by: i64) {
        let Agent { key, config } = self;
        key.shift(by);
        config.shift(by);
    }
}

impl Shift for Handler {
    fn shift(&mut self, by: i64) {
        let Handler { trigger, blocks } = self;
        trigger.shift(by);
        blocks.shift(by);
    }
}

impl Shift for Read {
    fn shift(&mut self, by: i64) {
        let Read { name, key: _ } = self;
        name.shift(by);
    }
}

impl Shift for Argument {
    fn shift(&mut self, by: i64) {
        let Argument { parameter, value } = self;
        parameter.shift(by);
        match value {
            ArgumentValue::Variable(name) => name.shift(by),
            ArgumentValue::Literal(node) => node.shift(by),
        }
    }
}

impl Shift for Block {
    fn shift(&mut self, by: i64) {
        let Block {
            name,
            kind: _,
            kind_span,
            presentation,
            thread,
            output,
            input,
            reads,
            response_type,
            prompt,
            tool,
            arguments,
            resource,
            worker,
            config,
            models,
        } = self;
        name.shift(by);
        kind_span.shift(by);
        presentation.shift(by);
        thread.shift(by);
        output.shift(by);
        input.shift(by);
        reads.shift(by);
        response_type.shift(by);
        prompt.shift(by);
        tool.shift(by);
        arguments.shift(by);
        resource.shift(by);
        worker.shift(by);
        config.shift(by);
        models.shift(by);
    }
}

impl Shift for Setting {
    fn shift(&mut self, by: i64) {
        match self {
            Setting::Variable(name) | Setting::Literal(name) => name.shift(by),
        }
    }
}

impl Shift for InputMapping {
    fn shift(&mut self, by: i64) {
        let InputMapping { label, source } = self;
        label.shift(by);
        source.shift(by);
    }
}

/// Shifts each item that starts at or after `at`, where `start` says where
/// an item starts; items before `at` stay.
fn shift_from<T: Shift>(items: &mut [T], at: u32, by: i64, start: impl Fn(&T) -> u32) {
    for item in items {
        if start(item) >= at {
            item.shift(by);
        }
    }
}

impl Protocol {
    /// Moves every declaration that starts at or after `at` by `by` bytes:
    /// what follows an edit of `by` bytes made before `at`.
    pub(crate) fn shift_from(&mut self, at: u32, by: i64) {
        let Protocol {
            sections,
            types,
            input,
            resources,
            variables,
            triggers,
            tools,
            skills,
            mcp_servers,
            on_demand_skills,
            on_demand_mcp_servers,
            workers,
            agent,
            handlers,
            steps,
            output,
        } = self;
        shift_from(sections, at, by, |n| n.span.start);
        shift_from(types, at, by, |t| t.name.span.start);
        for fields in [input, resources, variables] {
            shift_from(fields, at, by, |f| f.name.span.start);
        }
        shift_from(triggers, at, by, |t| t.name.span.start);
        shift_from(tools, at, by, |t| t.name.span.start);
        shift_from(skills, at, by, |s| s.name.span.start);
        shift_from(mcp_servers, at, by, |s| s.name.span.start);
        if let Some(skill) = on_demand_skills
            .as_mut()
            .filter(|s| s.name.span.start >= at)
        {
            skill.shift(by);
        }
        shift_from(on_demand_mcp_servers, at, by, |s| s.source.span.start);
        shift_from(workers, at, by, |w| w.name.span.start);
        if let Some(agent) = agent.as_mut().filter(|a| a.key.start >= at) {
            agent.shift(by);
        }
        shift_from(handlers, at, by, |h| h.trigger.span.start);
        shift_from(steps, at, by, |b| b.name.span.start);
        if let Some(output) = output.as_mut().filter(|o| o.span.start >= at) {
            output.shift(by);
        }
    }
}
