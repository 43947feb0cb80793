use super::*;

#[test]
fn every_place_is_reached_and_names_each_key_once() {
    let places = places();
    assert!(places.len() >= 30, "{} places", places.len());
    for place in places {
        let names = place.key_names();
        for (i, name) in names.iter().enumerate() {
            assert!(
                !names[..i].contains(name),
                "`{name}` twice in {}",
                place.name
            );
        }
        for key in place.keys() {
            assert!(
                !key.doc.is_empty(),
                "`{}` in {} has no doc",
                key.name,
                place.name
            );
            if key.presence.required() && place.name != "Protocol" {
                // Required keys say how to write them, or are reported
                // with a label of their own (blocks, fields, unions).
                let labelled = place.field
                    || BLOCKS.iter().any(|b| std::ptr::eq(b, place))
                    || std::ptr::eq(place, &UNION);
                assert!(
                    labelled || !key.missing.is_empty(),
                    "`{}` in {}",
                    key.name,
                    place.name
                );
            }
        }
    }
}

/// A place that shows a title shows `display` too: the shared key group.
#[test]
fn title_goes_with_display() {
    for place in places() {
        if place.key("title").is_some() {
            assert!(place.key("display").is_some(), "{}", place.name);
            assert!(place.key("description").is_some(), "{}", place.name);
        }
    }
}

#[test]
fn paths_lead_to_places() {
    let keys = |path: &[&str], kind| {
        spot_at(path, kind)
            .map(|spot| spot.keys().iter().map(|k| k.name).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert_eq!(
        keys(&["tools", "search"], None),
        ["description", "display", "title", "parameters"]
    );
    assert_eq!(
        keys(&["onDemandSkills"], None),
        ["display", "title", "description", "execution"]
    );
    assert_eq!(keys(&["agent", "anthropic"], None), ["tools", "skills"]);
    assert_eq!(
        keys(&["agent", "anthropic", "tools", "web-search"], None),
        ["display", "title", "description"]
    );
    assert_eq!(
        keys(&["onDemandMcpServers", "remote", "contextRetention"], None),
        ["toolResults"]
    );
    assert_eq!(
        keys(&["handlers", "go", "Step"], Some("tool-call"))[4..],
        ["tool", "input", "output", "thread"]
    );
    assert_eq!(
        keys(&["steps", "Step"], None),
        ["block", "display", "description", "title"]
    );
    assert_eq!(keys(&["types", "Foo", "bar", "items"], None)[0], "type");
    assert_eq!(keys(&["tools", "t", "parameters", "p"], None)[0], "type");
    assert!(spot_at(&["nope"], None).is_none());
    assert_eq!(block_on(&["handlers", "go", "Step", "input"]), Some(2));
    assert_eq!(block_on(&["steps", "Step"]), Some(1));
    assert_eq!(block_on(&["handlers", "go"]), None);
    assert_eq!(block_on(&["agent", "tools"]), None);
    let path = ["handlers", "go", "Step", "input"];
    assert_eq!(name_on(&path, Refers::Trigger), Some("go"));
    assert_eq!(name_on(&["handlers"], Refers::Trigger), None);
    assert_eq!(name_on(&["steps", "Step"], Refers::Trigger), None);
    assert_eq!(
        spot_at(&["onDemandMcpServers"], None).map(Spot::fixed_keys),
        Some(MCP_SOURCES)
    );
    let key = key_at(&["agent", "thinking"], None).map(|k| k.dynamic);
    assert_eq!(key, Some(true));
    assert!(
        key_at(
            &["handlers", "go", "Step", "uiContent"],
            Some("add-message")
        )
        .is_some_and(Key::names_variables)
    );
}

/// A named type's form, from its keys: `anyOf` makes a union wherever it
/// is, a `type` makes an array type only with a scalar value, and a key
/// alone says a form only when no other form has it.
#[test]
fn a_type_definitions_form_is_decided_by_its_keys() {
    let form = |entries: &[(&str, bool)]| TypeDefForm::of(entries, |e| e.0, |e| e.1).0;
    assert_eq!(
        form(&[("type", true), ("anyOf", false)]),
        TypeDefForm::Union
    );
    assert_eq!(
        form(&[("type", true), ("items", false)]),
        TypeDefForm::Array
    );
    assert_eq!(
        form(&[("type", false), ("name", false)]),
        TypeDefForm::Object
    );
    assert_eq!(form(&[]), TypeDefForm::Object);
    let of_key = |name| TypeDefForm::of_key(name);
    assert_eq!(of_key("anyOf"), TypeDefForm::Union);
    assert_eq!(of_key("discriminator"), TypeDefForm::Union);
    assert_eq!(of_key("items"), TypeDefForm::Array);
    // A property named `type` or `description`, as far as a key alone says.
    assert_eq!(of_key("type"), TypeDefForm::Object);
    assert_eq!(of_key("description"), TypeDefForm::Object);
    assert_eq!(of_key("name"), TypeDefForm::Object);
    for (form, marker, _) in TypeDefForm::MARKED {
        assert!(
            form.place()
                .is_some_and(|place| place.key(marker).is_some())
        );
    }
}

/// The reference's sections are the grammar's places in the order
/// [`places`] walks them, with the blocks and the named types between,
/// and no two share an anchor.
#[test]
fn the_reference_lists_every_place_in_walk_order() {
    use reference::Section;
    let sections = reference::sections();
    let in_reference: Vec<&str> = sections
        .iter()
        .filter_map(|section| match section {
            Section::Place(place) => Some(place.name),
            _ => None,
        })
        .collect();
    let walked: Vec<&str> = places().iter().map(|place| place.name).collect();
    assert_eq!(in_reference, walked);
    assert_eq!(in_reference[0], "Protocol");
    let anchors: Vec<String> = sections.iter().map(|s| s.anchor()).collect();
    for (i, anchor) in anchors.iter().enumerate() {
        assert!(!anchors[..i].contains(anchor), "two sections at #{anchor}");
        assert!(
            reference().contains(&format!("](#{anchor})")),
            "nothing links to #{anchor}"
        );
    }
    assert_eq!(reference(), reference());
}

/// What lands in Markdown cannot break out of where it is: a `|` in a
/// table cell, `<` opening HTML, a line starting a list; code spans are
/// kept, and text with backticks still makes one code span.
#[test]
fn the_reference_escapes_what_lands_in_markdown() {
    use reference::{cell, code, escape};
    assert_eq!(escape("a | b", true), "a \\| b");
    assert_eq!(escape("`a|b` c", true), "`a\\|b` c");
    assert_eq!(escape("x <b>\n- y", true), "x &lt;b> \\- y");
    assert_eq!(escape("`<name>` <", false), "`<name>` &lt;");
    assert_eq!(escape("``a ` b`` <", false), "``a ` b`` &lt;");
    assert_eq!(escape("an ` alone <", false), "an ` alone &lt;");
    assert_eq!(escape("# not a heading", false), "\\# not a heading");
    assert_eq!(escape("a\\b", false), "a\\\\b");
    assert_eq!(code("a`b"), "``a`b``");
    assert_eq!(code("`a"), "`` `a ``");
    assert_eq!(cell("a\nb|c"), "a b\\|c");
}
