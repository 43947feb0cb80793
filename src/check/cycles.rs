//! Recursive types, direct or indirect, are errors: every type must be
//! inlinable, which the provider targets rely on. Each strongly connected
//! component of the type graph is reported once, with one cycle's path.

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::model::Model;
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::VecDeque;

pub fn check_cycles(model: &Model, diags: &mut Diagnostics) {
    let graph = &model.graph;
    // Kosaraju's algorithm runs on petgraph's iterative DFS; Tarjan's recurses
    // once per node, and a long reference chain would overflow the stack.
    let mut components: Vec<Vec<NodeIndex>> = kosaraju_scc(graph)
        .into_iter()
        .filter(|c| c.len() > 1 || graph.contains_edge(c[0], c[0]))
        .map(|mut c| {
            c.sort();
            c
        })
        .collect();
    // Report in declaration order of each cycle's first type.
    components.sort_by_key(|c| c[0]);

    for component in components {
        let start = component[0];
        let path = cycle_through(model, &component, start);
        let names: Vec<&str> = std::iter::once(start)
            .chain(path.iter().map(|&e| graph.raw_edges()[e.index()].target()))
            .map(|n| model.def(graph[n]).name.text.as_str())
            .collect();
        let start_def = model.def(graph[start]);
        let mut diagnostic = Diagnostic::new(
            Code::CircularType,
            start_def.name.span,
            if names.len() == 2 {
                format!("type `{}` refers to itself", names[0])
            } else {
                format!(
                    "types refer to each other in a cycle: {}",
                    names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(" → ")
                )
            },
        );
        for &edge in &path {
            let e = &graph.raw_edges()[edge.index()];
            let from = &model.def(graph[e.source()]).name.text;
            let to = &model.def(graph[e.target()]).name.text;
            diagnostic = diagnostic.with_label(e.weight, format!("`{from}` refers to `{to}` here"));
        }
        if component.len() > names.len() - 1 {
            let others: Vec<String> = component
                .iter()
                .map(|&n| model.def(graph[n]).name.text.as_str())
                .filter(|n| !names.contains(n))
                .map(|n| format!("`{n}`"))
                .collect();
            diagnostic = diagnostic.with_note(format!("also in this cycle: {}", others.join(", ")));
        }
        diags.push(diagnostic.with_help(
            "protocol types cannot be recursive; break the cycle by typing one of these references as `unknown`, or by flattening the nested type",
        ));
    }
}

/// The edges of a shortest cycle from `start` back to itself, staying
/// inside the component (breadth-first, in edge order, so deterministic).
fn cycle_through(model: &Model, component: &[NodeIndex], start: NodeIndex) -> Vec<EdgeIndex> {
    let graph = &model.graph;
    let mut parent: Vec<Option<EdgeIndex>> = vec![None; graph.node_count()];
    let mut queue = VecDeque::from([start]);
    let mut closing = None;
    'search: while let Some(node) = queue.pop_front() {
        let mut edges: Vec<_> = graph.edges(node).collect();
        edges.sort_by_key(|e| e.id());
        for edge in edges {
            let next = edge.target();
            if next == start {
                closing = Some(edge.id());
                break 'search;
            }
            if component.binary_search(&next).is_ok()
                && parent[next.index()].is_none()
                && next != start
            {
                parent[next.index()] = Some(edge.id());
                queue.push_back(next);
            }
        }
    }
    let mut path = Vec::new();
    let Some(mut edge) = closing else {
        return path;
    };
    loop {
        path.push(edge);
        let source = graph.raw_edges()[edge.index()].source();
        if source == start {
            break;
        }
        match parent[source.index()] {
            Some(previous) => edge = previous,
            None => break,
        }
    }
    path.reverse();
    path
}
