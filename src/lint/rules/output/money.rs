//! The `output/money` rule: money is an integer with `unit="minor"` next to a currency field;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::walk::site_finding;
use crate::names::words;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding};
use crate::model::{Field, TyKind, Unit};

crate::lint::declare_rule! {
    /// ## What it does
    /// Finds money fields, at any depth of input and output and in named types, and checks that
    /// each is an `integer` with `unit="minor"` and has a currency field beside it (a sibling
    /// whose name contains the word `currency`).
    ///
    /// A money field is a scalar (`integer`, `number`, `string`) with `unit="minor"`, or whose
    /// name (by words, any case or separator) contains `amount`, `price`, `cost`, `total`,
    /// `subtotal`, `balance` or `fee` (`total`/`subtotal` only as the last word or before money
    /// words: `order_total`, `total_amount`, `total_minor`, but not `total_thoughts`), unless the name also has a word that makes it something
    /// else (`total_count`, `fee_rate`, `price_currency`, `amount_description`: count, pages,
    /// items, results, records, tokens, hits, bytes, size, percent, pct, rate, ratio, bps, id,
    /// ids, currency, code, reference, version, type, kind, status, name, description, label,
    /// text, display, units, quantity, time, at, date, days, duration) or a numeric `unit`
    /// other than `minor` (`total` with `unit="count"`).
    ///
    /// ## Why is this bad?
    /// Floating-point money rounds (`0.1 + 0.2`), a decimal string invites locale confusion
    /// (`1.000,50`), an integer without a stated unit is read as dollars by one side and cents by
    /// the other, and an amount without its currency is a number the model will happily put in
    /// the wrong one.
    ///
    /// ## Example
    /// ```kdl
    /// output {
    ///     field "total" "number" required=#true min=0 max=1000000
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// output {
    ///     field "total_minor" "integer" required=#true min=0 max=100000000 unit="minor"
    ///     field "currency" "string" required=#true { enum "USD" "EUR" }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "output/money",
        level: Level::Error,
        summary: "money is an integer with `unit=\"minor\"` next to a currency field",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

const MONEY: &[&str] = &["amount", "price", "cost", "total", "subtotal", "balance", "fee"];

const NOT_MONEY: &[&str] = &[
    "count", "pages", "items", "results", "records", "tokens", "hits", "bytes", "size", "percent", "pct", "rate",
    "ratio", "bps", "id", "ids", "currency", "code", "reference", "version", "type", "kind", "status", "name",
    "description", "label", "text", "display", "units", "quantity", "time", "at", "date", "days", "duration",
];

/// Whether a field of this name and type holds money.
fn is_money(w: &[String], kind: &TyKind) -> bool {
    let unit = match kind {
        TyKind::Integer(n) | TyKind::Number(n) => n.unit.as_ref().map(|u| u.value),
        TyKind::String(_) => None,
        _ => return false,
    };
    match unit {
        Some(Unit::Minor) => true,
        Some(_) => false,
        None => {
            let w: Vec<&str> = w.iter().map(String::as_str).collect();
            let money_word = |i: usize| {
                let x = w[i];
                // "total" before a noun counts that noun (`total_thoughts`, `totalHits`); it is
                // money only at the end or before money words (`order_total`, `total_amount`).
                MONEY.contains(&x)
                    && (!matches!(x, "total" | "subtotal")
                        || w[i + 1..].iter().all(|y| MONEY.contains(y) || matches!(*y, "minor" | "cents")))
            };
            (0..w.len()).any(money_word) && !w.iter().any(|x| NOT_MONEY.contains(x))
        }
    }
}

fn has_currency(siblings: &[Field]) -> bool {
    siblings.iter().any(|f| words(&f.name.value).iter().any(|w| w == "currency"))
}

// Once per declaration: a named type's money field is wrong wherever it is used.
fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    // Array items have no name of their own; the array field is not a scalar.
    let Some(field) = site.field else { return };
    if !is_money(site.name_words(), &site.ty.kind) {
        return;
    }
    let minor_integer = matches!(&site.ty.kind, TyKind::Integer(n) if n.unit.as_ref().is_some_and(|u| u.value == Unit::Minor));
    if !minor_integer {
        let what = match &site.ty.kind {
            TyKind::Integer(_) => "an integer without `unit=\"minor\"`".to_string(),
            k => format!("a {}", k.keyword()), // only `string` and `number` get here (`is_money`)
        };
        out.push(
            site_finding(site, site.ty.span, format!("money field `{}` is {what}", site.path))
                .help("make it `\"integer\"` with `unit=\"minor\"` (cents), e.g. `field \"amount_minor\" \"integer\" unit=\"minor\"`"),
        );
    }
    if !has_currency(site.siblings) {
        out.push(
            site_finding(site, field.name.span, format!("money field `{}` has no currency field beside it", site.path))
                .help("add a sibling `field \"currency\" \"string\" required=#true { enum \"USD\" \"EUR\" }`"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::names::words;
    use crate::lint::testkit::sites::*;
    use super::{RULE, is_money};
    use crate::model::{Effect, NumTy, TyKind, Unit};

    fn with_unit(unit: Unit) -> TyKind {
        TyKind::Integer(Box::new(NumTy { unit: Some(sp(unit)), ..NumTy::default() }))
    }

    #[test]
    fn money_by_name_or_unit() {
        let i = int(Some(0), Some(9));
        for yes in ["amount", "amount_minor", "unitPrice", "TOTAL", "total_amount", "order_total", "total_minor", "balance", "fee", "shipping_cost", "subtotal"] {
            assert!(is_money(&words(yes), &i), "{yes}");
        }
        assert!(is_money(&words("price"), &bounded_string(9)));
        assert!(is_money(&words("x"), &with_unit(Unit::Minor)));
        for no in ["totalThoughts", "total_hits", "total_count", "totalPages", "fee_rate", "price_currency", "amount_description", "price_id", "costume", "total_time"] {
            assert!(!is_money(&words(no), &i), "{no}");
        }
        assert!(!is_money(&words("total"), &with_unit(Unit::Count)));
        assert!(!is_money(&words("fee_waived"), &TyKind::Boolean));
        assert!(!is_money(&words("price"), &named("Money")));
    }

    #[test]
    fn type_unit_and_currency() {
        let minor = |name: &str| field(name, with_unit(Unit::Minor));
        let currency = field("currency", bounded_string(3));
        let ty = type_def("Money", vec![minor("amount_minor"), field("currency_code", bounded_string(3))]);
        let t = tool(
            "a_b",
            Effect::Read,
            vec![field("price", named("Money"))],
            Some(vec![
                field("total", TyKind::Number(Box::default())),
                minor("fee_minor"),
                currency,
                field("lines", array(object(vec![minor("line_total")]), Some(2))),
            ]),
        );
        let f = check(&RULE, catalog(vec![t], vec![ty]));
        assert_eq!(paths(&f), ["output.total", "output.lines[].line_total"]);
        assert!(f[0].message.contains("is a number"), "{}", f[0].message);
        assert!(f[1].message.contains("no currency"), "{}", f[1].message);
    }
}
