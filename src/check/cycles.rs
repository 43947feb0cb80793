//! Recursive types, direct or indirect, are errors: every type must be
//! inlinable, which the provider targets rely on. Each strongly connected
//! component of the type graph is reported once, with one cycle's path.

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::model::Model;
use crate::span::Span;
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::VecDeque;

/// Most references of a cycle named and labelled in its diagnostic; a longer
/// path is summarized, since nobody reads (or can render) thousands.
const MAX_SHOWN: usize = 8;

/// A cycle of `length` references, reported at its first type's name:
/// `shown` is the types along it from there (at most `MAX_SHOWN` steps),
/// `references` each shown reference (where, from, to), and `others` the
/// types of its component the path does not pass through.
fn circular_type(
    span: Span,
    length: usize,
    shown: &[&str],
    references: &[(Span, &str, &str)],
    others: &[&str],
) -> Diagnostic {
    let message = if length == 1 {
        format!("type `{}` refers to itself", shown[0])
    } else {
        let path = shown
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(" → ");
        let more = length.saturating_sub(MAX_SHOWN);
        let more = if more > 0 {
            format!(" → … ({more} more)")
        } else {
            String::new()
        };
        format!("types refer to each other in a cycle: {path}{more}")
    };
    let mut diagnostic = Diagnostic::new(Code::CircularType, span, message);
    for &(at, from, to) in references {
        diagnostic = diagnostic.with_label(at, format!("`{from}` refers to `{to}` here"));
    }
    if !others.is_empty() {
        let listed: Vec<String> = others
            .iter()
            .take(MAX_SHOWN)
            .map(|name| format!("`{name}`"))
            .collect();
        let more = match others.len().saturating_sub(MAX_SHOWN) {
            0 => String::new(),
            more => format!(" and {more} more"),
        };
        diagnostic =
            diagnostic.with_note(format!("also in this cycle: {}{more}", listed.join(", ")));
    }
    diagnostic.with_help(
        "protocol types cannot be recursive; break the cycle by typing one of these references as `unknown`, or by flattening the nested type",
    )
}

pub fn check_cycles(model: &Model, diags: &mut Diagnostics) {
    let graph = &model.graph;
    // Nearly every protocol has no cycle: told in one pass without an
    // allocation per type, where the components cost one each (at 10k
    // types 0.8 against 9.5 million instructions).
    if acyclic(graph) {
        return;
    }
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
        let name = |n: NodeIndex| model.def(graph[n]).name.text.as_str();
        let targets: Vec<NodeIndex> = path
            .iter()
            .map(|&e| graph.raw_edges()[e.index()].target())
            .collect();
        let shown: Vec<&str> = std::iter::once(start)
            .chain(targets.iter().copied().take(MAX_SHOWN))
            .map(name)
            .collect();
        let references: Vec<(Span, &str, &str)> = path
            .iter()
            .take(MAX_SHOWN)
            .map(|&edge| {
                let e = &graph.raw_edges()[edge.index()];
                (e.weight, name(e.source()), name(e.target()))
            })
            .collect();
        // Types of the component that the reported path does not pass through.
        let mut on_path = vec![false; graph.node_count()];
        for &n in &targets {
            on_path[n.index()] = true;
        }
        let others: Vec<&str> = component
            .iter()
            .copied()
            .filter(|n| !on_path[n.index()])
            .map(name)
            .collect();
        diags.push(circular_type(
            model.def(graph[start]).name.span,
            path.len(),
            &shown,
            &references,
            &others,
        ));
    }
}

/// Whether `graph` has no cycle: Kahn's topological sort removes every
/// node (each once its references from the nodes left are gone), which
/// it cannot do past a cycle.
fn acyclic<N, E>(graph: &petgraph::Graph<N, E>) -> bool {
    let mut incoming = vec![0u32; graph.node_count()];
    for edge in graph.raw_edges() {
        incoming[edge.target().index()] += 1;
    }
    let mut ready: Vec<NodeIndex> = graph
        .node_indices()
        .filter(|n| incoming[n.index()] == 0)
        .collect();
    let mut removed = 0;
    while let Some(node) = ready.pop() {
        removed += 1;
        for next in graph.neighbors(node) {
            let count = &mut incoming[next.index()];
            *count -= 1;
            if *count == 0 {
                ready.push(next);
            }
        }
    }
    removed == graph.node_count()
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

#[cfg(test)]
mod tests {
    use crate::{Code, Source, compile_source};
    use petgraph::graph::{DiGraph, NodeIndex};

    proptest::proptest! {
        /// A graph is acyclic exactly when no strongly connected component
        /// is a cycle (more than one node, or one that refers to itself):
        /// random graphs of up to 12 nodes, with parallel edges and loops.
        #[test]
        fn acyclic_is_no_component_being_a_cycle(
            nodes in 1usize..12,
            edges in proptest::collection::vec((0usize..12, 0usize..12), 0..30),
        ) {
            let mut graph = DiGraph::<(), ()>::new();
            for _ in 0..nodes {
                graph.add_node(());
            }
            for (from, to) in edges {
                graph.add_edge(NodeIndex::new(from % nodes), NodeIndex::new(to % nodes), ());
            }
            let cyclic = petgraph::algo::kosaraju_scc(&graph)
                .iter()
                .any(|c| c.len() > 1 || graph.contains_edge(c[0], c[0]));
            proptest::prop_assert_eq!(super::acyclic(&graph), !cyclic);
        }
    }

    #[test]
    fn a_long_cycle_is_summarized_not_listed_whole() {
        let n = 20;
        let text: String = std::iter::once("types:\n".to_string())
            .chain((0..n).map(|i| format!("  T{i}:\n    next: {{ type: T{} }}\n", (i + 1) % n)))
            .collect();
        let compiled = compile_source(Source::new("ring.yaml", text));
        let cycles: Vec<_> = compiled
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::CircularType)
            .collect();
        assert_eq!(cycles.len(), 1);
        assert!(
            cycles[0].message.ends_with("`T8` → … (12 more)"),
            "{}",
            cycles[0].message
        );
        assert_eq!(cycles[0].labels.len(), super::MAX_SHOWN);
    }
}
