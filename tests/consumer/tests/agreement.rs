//! The generated contract checks and the emitted JSON Schema agree with the contract test
//! vectors (`catalogc::contract::vectors`, what `catalogc export vectors` prints): for every
//! vector of every input and output of every catalog (minimal, typical and maximal instances,
//! each bound ±1, every enum value and a wrong one, missing required fields, unknown fields,
//! wrong types, non-BMP strings), each verdict below is the vector's expected one; for random
//! combinations of the vectors' edits, they agree with each other and with the runtime
//! checker over the shape of the published schema (where the vectors' verdicts come from):
//! - serde into the generated type, then its `validate()`;
//! - the runtime checker on the JSON as received (what `call` runs before serde);
//! - the `jsonschema` crate on the schema in the tool definition, formats asserted;
//! - the `jsonschema` crate on schemars' schema of the type generated with
//!   `json_schema_derive(true)`.
//!
//! The `jsonschema` crate is the independent oracle: it shares no code with catalogc.

use catalogc::contract::shape::shape_of;
use catalogc::contract::vectors::{self, Edit, Kind, apply, valid};
use catalogc::runtime::serde::{Serialize, de::DeserializeOwned};
use catalogc::runtime::serde_json::{self, Value};
use catalogc::runtime::validate::check;
use catalogc::runtime::{Shape, ToolInfo, Validate};
use catalogc_consumer::{billing, free, hostile, payments, with_schemars};
use proptest::prelude::*;

/// The three verdicts on one instance of generated type `T` with JSON Schema `schema`.
fn verdicts<T: Validate + DeserializeOwned + Serialize>(
    validator: &jsonschema::Validator,
    instance: &Value,
) -> (bool, bool, bool) {
    let typed = serde_json::from_value::<T>(instance.clone()).is_ok_and(|t| t.validate().is_ok());
    let checker = check(T::shape(), instance).is_empty();
    (typed, checker, validator.is_valid(instance))
}

/// One side of one tool: its schema and the verdict function of its generated type.
struct Side {
    label: String,
    schema: Value,
    /// The runtime checker's shape of `schema`, what the vectors' verdicts are computed with.
    shape: &'static Shape,
    validator: jsonschema::Validator,
    /// schemars' schema of the same type generated with `json_schema_derive(true)`.
    schemars: jsonschema::Validator,
    verdicts: fn(&jsonschema::Validator, &Value) -> (bool, bool, bool),
    edits: Vec<Edit>,
}

fn compile(schema: &Value, label: &str) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("{label}: {e}"))
}

fn side<T: Validate + DeserializeOwned + Serialize, S: catalogc::runtime::schemars::JsonSchema>(
    info: &ToolInfo,
    key: &str,
) -> Option<Side> {
    let schema = info.definition().get(key)?.clone();
    let label = format!("{}.{key}", info.name);
    let validator = compile(&schema, &label);
    let derived =
        serde_json::to_value(catalogc::runtime::schemars::schema_for!(S)).unwrap_or(Value::Null);
    let schemars = compile(&derived, &format!("{label} (schemars)"));
    let edits_out = vectors::edits(&schema);
    let shape = shape_of(&schema).unwrap_or_else(|e| panic!("{label}: {e}"));
    Some(Side {
        label,
        schema,
        shape,
        validator,
        schemars,
        verdicts: verdicts::<T>,
        edits: edits_out,
    })
}

macro_rules! sides {
    ($($c:ident::$m:ident),* $(,)?) => {{
        let mut v = Vec::new();
        $({
            use $c::$m as m;
            use with_schemars::$c::$m as s;
            v.extend(side::<m::Input, s::Input>(&m::INFO, "inputSchema"));
            v.extend(side::<m::Output, s::Output>(&m::INFO, "outputSchema"));
        })*
        v
    }};
}

fn all_sides() -> Vec<Side> {
    sides!(
        billing::invoice_list,
        billing::invoice_get,
        billing::invoice_send_reminder,
        payments::payment_transfer_preview,
        payments::payment_transfer_submit,
        payments::payment_transfer_status,
        hostile::r#async,
        hostile::mut_record,
        free::host_label_set,
        free::host_schedule_set,
        free::host_pool_set,
    )
}

fn agree(side: &Side, instance: &Value) -> Result<(), String> {
    let (typed, checker, schema) = (side.verdicts)(&side.validator, instance);
    let derived = side.schemars.is_valid(instance);
    if typed == schema && checker == schema && derived == schema {
        Ok(())
    } else {
        Err(format!(
            "{}: validate()+serde {typed}, checker {checker}, jsonschema {schema}, \
             schemars {derived} on {instance}",
            side.label
        ))
    }
}

#[test]
fn every_vector_gets_its_expected_verdict() {
    let mut checked = 0;
    let mut rejected = 0;
    for side in all_sides() {
        let side_vectors =
            vectors::vectors(&side.schema).unwrap_or_else(|e| panic!("{}: {e}", side.label));
        for v in side_vectors {
            if matches!(v.kind, Kind::Minimal | Kind::Typical | Kind::Maximal) {
                assert!(
                    v.accept,
                    "{}: the {:?} instance is invalid: {}",
                    side.label, v.kind, v.instance
                );
            }
            let (typed, checker, schema) = (side.verdicts)(&side.validator, &v.instance);
            let derived = side.schemars.is_valid(&v.instance);
            assert_eq!(
                (typed, checker, schema, derived),
                (v.accept, v.accept, v.accept, v.accept),
                "{}: {} ({}) on {} [validate()+serde, checker, jsonschema, schemars]",
                side.label,
                v.pointer,
                v.note,
                v.instance
            );
            checked += 1;
            rejected += usize::from(!v.accept);
        }
    }
    // Both outcomes are well represented: the comparison is not vacuous.
    assert!(
        checked > 1000 && rejected > checked / 3 && rejected < checked,
        "{rejected}/{checked}"
    );
}

#[path = "../../support/mod.rs"]
mod support;

proptest! {
    #![proptest_config(support::proptest_config(256))]

    #[test]
    fn random_combinations_of_edits_get_the_same_verdict(
        side_pick in any::<prop::sample::Index>(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let sides = SIDES.with(|s| s.clone());
        let side = &sides[side_pick.index(sides.len())];
        let mut v = valid(&side.schema, 0);
        for p in &picks {
            let edit: &Edit = &side.edits[p.index(side.edits.len())];
            apply(&mut v, edit);
        }
        prop_assert!(agree(side, &v).is_ok(), "{:?}", agree(side, &v));
        prop_assert_eq!(check(side.shape, &v).is_empty(), side.validator.is_valid(&v), "{}", v);
    }
}

thread_local! {
    static SIDES: std::rc::Rc<Vec<Side>> = std::rc::Rc::new(all_sides());
}
