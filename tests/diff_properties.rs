//! Sampled soundness of the contract diff, with agentc's own validator as
//! the oracle. A property test generates a tool whose parameters use every
//! construct of the types language (objects, optional properties, enums,
//! consts, integers and numbers, `unknown`, arrays, discriminated unions),
//! applies one random change to it, and generates values valid under each
//! version. Then:
//!
//! - a value the new version accepts and the old one refuses must come
//!   with a change that says the contract was not narrowed;
//! - a value the old version accepts and the new one refuses must come
//!   with a change that says it was not widened;
//! - a diff that finds nothing must mean both versions accept the same
//!   sampled values.
//!
//! So the diff never calls a breaking change compatible on the values
//! sampled. The readers are strict (`[diff] readers = "strict"`), which is
//! what the validator's closed objects mean; tolerant readers differ only
//! in the property rules, which `protocols/diff/` covers case by case.

mod common;

use agentc::diff::{Options, Reader};
use agentc::validate::Validator;
use common::generated::*;
use proptest::prelude::*;

fn compile(text: &str) -> agentc::FileReport {
    let report = agentc::compile("generated.yaml", text.as_bytes().to_vec());
    assert!(
        !report.has_errors(),
        "the generator wrote an invalid protocol:\n{text}\n{:?}",
        report.diagnostics
    );
    report
}

fn check(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed | 1);
    let mut ids = Ids(0);
    let old_params = gen_obj(&mut rng, &mut ids, 0);
    let mut new_params = old_params.clone();
    let root = Ty::Obj(new_params.clone());
    let mut target = rng.below(count(&root));
    let mut changed = Ty::Obj(new_params);
    mutate(&mut changed, &mut target, &mut rng, &mut ids);
    let Ty::Obj(changed) = changed else {
        return Ok(());
    };
    new_params = changed;
    let (old_text, new_text) = (protocol(&old_params), protocol(&new_params));
    let (old, new) = (compile(&old_text), compile(&new_text));
    let options = Options {
        readers: Reader::Strict,
        ..Options::default()
    };
    let found = agentc::diff::reports(&old, &new, "old", &options);
    let changes: Vec<_> = found.iter().filter_map(|d| d.change.as_deref()).collect();
    let old_validator =
        Validator::for_tool(old.model.as_ref().expect("model"), "t").expect("validator");
    let new_validator =
        Validator::for_tool(new.model.as_ref().expect("model"), "t").expect("validator");
    let summary = || {
        let lines: Vec<String> = found
            .iter()
            .map(|d| format!("{}[{}] {}", d.severity.as_str(), d.code.name(), d.message))
            .collect();
        format!(
            "--- old\n{old_text}--- new\n{new_text}--- found\n{}",
            lines.join("\n")
        )
    };
    let old_ty = Ty::Obj(old_params);
    let new_ty = Ty::Obj(new_params);
    for _ in 0..64 {
        for (from_new, ty) in [(false, &old_ty), (true, &new_ty)] {
            let v = value(ty, &mut rng);
            let (in_old, in_new) = (old_validator.is_valid(&v), new_validator.is_valid(&v));
            // The generator's own soundness: a value is valid where made.
            prop_assert!(if from_new { in_new } else { in_old }, "{v}\n{}", summary());
            if in_new && !in_old {
                prop_assert!(
                    changes.iter().any(|c| !c.narrowed),
                    "{v} is new, and no change says the arguments were not narrowed\n{}",
                    summary()
                );
            }
            if in_old && !in_new {
                prop_assert!(
                    changes.iter().any(|c| !c.widened),
                    "{v} is refused now, and no change says the arguments were not widened\n{}",
                    summary()
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_diff_never_calls_a_breaking_change_compatible(seed in any::<u64>()) {
        check(seed)?;
    }
}

/// The generator reaches every kind of change, so the property above is
/// not vacuous.
#[test]
fn the_generated_changes_cover_the_rules() {
    let mut codes = std::collections::BTreeSet::new();
    for seed in 1..600u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut ids = Ids(0);
        let old_params = gen_obj(&mut rng, &mut ids, 0);
        let root = Ty::Obj(old_params.clone());
        let mut target = rng.below(count(&root));
        let mut changed = root;
        mutate(&mut changed, &mut target, &mut rng, &mut ids);
        let Ty::Obj(new_params) = changed else {
            continue;
        };
        let (old, new) = (
            compile(&protocol(&old_params)),
            compile(&protocol(&new_params)),
        );
        for d in agentc::diff::reports(&old, &new, "old", &Options::default()) {
            codes.insert(d.code.name());
        }
    }
    for code in [
        "property-added",
        "required-property-added",
        "property-removed",
        "required-property-removed",
        "optional-made-required",
        "required-made-optional",
        "property-type-changed",
        "property-type-widened",
        "property-type-narrowed",
        "enum-value-added",
        "enum-value-removed",
        "const-changed",
        "variant-added",
        "variant-removed",
        "discriminator-value-changed",
    ] {
        assert!(
            codes.contains(code),
            "never generated: {code} (got {codes:?})"
        );
    }
}
