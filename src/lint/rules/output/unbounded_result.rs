//! The `output/unbounded-result` rule: tools state `limits max-result-bytes`; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::lint::walk::Types;
use crate::model::{Field, Format, StringTy, Tool, Ty, TyKind};
use crate::FastMap;

/// The computed bound of a result at or below which no `max-result-bytes` is asked for.
pub const SMALL_RESULT_BYTES: u64 = 65_536;

/// Worst-case bytes of one character in JSON (`\u001f`).
const ESCAPED: u64 = 6;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags a tool without `limits max-result-bytes=N`, unless its `output` is small and fully
    /// bounded: every string, array and nested object has a bound (`max-length`, an `enum`, a
    /// bounded `format` or an anchored finite `pattern`; `max-items`, or the tool's `limits
    /// max-items` for arrays), and the largest JSON those bounds allow is at most 65536 bytes
    /// (counting 6 bytes per character, the worst case of JSON escaping).
    ///
    /// 65536 is not a percentile of the corpus of public MCP servers (tests/corpus/): the rule
    /// needs `limits`, which a published tool list does not state, so `catalogc lint FILE.json`
    /// skips it. It is the largest `max-result-bytes` the bundled catalogs declare (billing's
    /// `invoice_list`).
    ///
    /// ## Why is this bad?
    /// A result with no size limit can fill the model's context window in one call, push out the
    /// conversation, and cost more than the whole task; the server has no stated point at which
    /// to truncate or paginate.
    ///
    /// ## Example
    /// ```kdl
    /// limits max-items=50 timeout-ms=5000
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// limits max-items=50 max-result-bytes=65536 timeout-ms=5000
    /// ```
    pub static RULE = Rule {
        id: "output/unbounded-result",
        level: Level::Warn,
        summary: "tools state `limits max-result-bytes`",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        let types = Types::new(catalog);
        let mut memo = Memo::default();
        for tool in &catalog.tools {
            if result_bound(&types, &mut memo, tool).is_some_and(|n| n <= SMALL_RESULT_BYTES) {
                continue;
            }
            let span = match &tool.limits {
                Some(l) if l.max_result_bytes.is_some() => continue,
                Some(l) => l.span,
                None => tool.name.span,
            };
            out.push(
                Finding::in_tool(catalog, tool, span, format!("tool `{}` has no `limits max-result-bytes`", tool.name.value))
                    .help("add `limits max-result-bytes=N` (e.g. 65536) and truncate or paginate results above it"),
            );
        }
    }
}

/// The bound of each named type already computed in a catalog, by (type index, `limits
/// max-items`, depth): the tools of a catalog share their types, and computing a type again
/// for each use made the rule quadratic in the nesting.
type Memo = FastMap<(usize, Option<u64>, usize), Option<u64>>;

/// The most bytes the tool's `output` can serialize to, when every part of it is bounded.
fn result_bound(types: &Types, memo: &mut Memo, tool: &Tool) -> Option<u64> {
    let out = tool.output.as_ref()?;
    let items = tool.limits.as_ref().and_then(|l| l.max_items.as_ref()).map(|m| m.value);
    Bound { types, items, memo }.object(&out.fields, 0)
}

struct Bound<'t, 'a, 'm> {
    types: &'t Types<'a>,
    /// `limits max-items`: the bound of an output array that states none.
    items: Option<u64>,
    memo: &'m mut Memo,
}

impl Bound<'_, '_, '_> {
    fn object(&mut self, fields: &[Field], depth: usize) -> Option<u64> {
        let mut total: u64 = 2;
        for f in fields {
            let key = (f.name.value.chars().count() as u64).checked_mul(ESCAPED)? + 4;
            total = total.checked_add(key)?.checked_add(self.ty(&f.ty, depth)?)?;
        }
        Some(total)
    }

    fn ty(&mut self, ty: &Ty, depth: usize) -> Option<u64> {
        // Lowering rejects recursive and too-deep types; a hand-built model is cut off.
        if depth > crate::model::inline::MAX_INLINED_DEPTH {
            return None;
        }
        match &ty.kind {
            TyKind::String(s) => string(s, None),
            TyKind::Cursor(s) => string(s, Some(crate::model::CURSOR_DEFAULT_MAX_LENGTH)),
            TyKind::Timestamp => Format::DateTime.max_len(),
            TyKind::Integer(_) => Some(20),
            TyKind::Number(_) => Some(24),
            TyKind::Boolean => Some(5),
            TyKind::Array(a) => {
                let n = a.max_items.as_ref().map(|m| m.value).or(self.items)?;
                let each = self.ty(&a.items, depth + 1)?.checked_add(1)?;
                n.checked_mul(each)?.checked_add(2)
            }
            // Keys of any length, values of any size: no bound to compute (an open object
            // has such keys besides its fields).
            TyKind::Object(o) if o.extra.is_some() => None,
            TyKind::Object(o) => self.object(&o.fields, depth + 1),
            TyKind::Map(_) | TyKind::Json => None,
            // The largest variant, with its discriminator property.
            TyKind::Union(u) => {
                let len = |s: &str| (s.chars().count() as u64).checked_mul(ESCAPED);
                let key = len(&u.discriminator.value)?.checked_add(4)?;
                let mut most = 0;
                for v in &u.variants {
                    let tag = len(&v.name.value)?.checked_add(3)?;
                    let body = self.object(&v.fields.fields, depth + 1)?;
                    most = most.max(body.checked_add(key)?.checked_add(tag)?);
                }
                Some(most)
            }
            TyKind::Named(_) => {
                let (i, def) = self.types.named(ty)?;
                let key = (i, self.items, depth);
                if let Some(&bound) = self.memo.get(&key) {
                    return bound;
                }
                let bound = self.object(&def.fields, depth + 1);
                self.memo.insert(key, bound);
                bound
            }
        }
    }
}

fn string(s: &StringTy, default_max: Option<u64>) -> Option<u64> {
    let chars = if let Some(e) = &s.enum_values {
        e.values.iter().map(|v| v.value.chars().count() as u64).max().unwrap_or(0)
    } else if let Some(m) = s.max_length.as_ref().map(|m| m.value).or(default_max) {
        m
    } else if let Some(f) = &s.format {
        f.value.max_len()?
    } else {
        let p = s.pattern.as_ref()?;
        crate::lint::shared::pattern_max_len(&p.value)? as u64
    };
    chars.checked_mul(ESCAPED)?.checked_add(2)
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::model::{Effect, Limits, Span};

    #[test]
    fn needs_max_result_bytes() {
        let limits = |bytes: Option<u64>| Limits { max_items: None, max_result_bytes: bytes.map(sp), timeout_ms: None, span: Span::new(3, 9) };
        let mut a = tool("a_none", Effect::Read, vec![], None);
        let mut b = tool("a_other", Effect::Read, vec![], None);
        let mut c = tool("a_ok", Effect::Read, vec![], None);
        a.limits = None;
        b.limits = Some(Box::new(limits(None)));
        c.limits = Some(Box::new(limits(Some(1024))));
        let f = check(&RULE, catalog(vec![a, b, c], vec![]));
        let tools: Vec<_> = f.iter().map(|f| f.tool.clone().unwrap_or_default()).collect();
        assert_eq!(tools, ["a_none", "a_other"]);
        assert_eq!(f[1].span, Span::new(3, 9));
    }

    #[test]
    fn a_small_fully_bounded_output_needs_no_byte_limit() {
        let small = tool("a_small", Effect::Read, vec![], Some(vec![
            field("name", bounded_string(64)),
            field("count", int(Some(0), Some(10))),
            field("tags", array(bounded_string(16), Some(10))),
        ]));
        let open = tool("a_open", Effect::Read, vec![], Some(vec![field("body", string())]));
        let big = tool("a_big", Effect::Read, vec![], Some(vec![field("rows", array(bounded_string(1000), Some(1000)))]));
        let f = check(&RULE, catalog(vec![small, open, big], vec![]));
        let tools: Vec<_> = f.iter().map(|f| f.tool.clone().unwrap_or_default()).collect();
        assert_eq!(tools, ["a_open", "a_big"]);
    }
}
