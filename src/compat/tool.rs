//! Tool-level rows of docs/compatibility.md: contract attributes that have no input/output side.

use super::kinds::Kind;
use super::{Change, Loc, Standing};
use crate::model::{Catalog, Limits, Span, Tool};

struct Cx<'a> {
    old_cat: &'a Catalog,
    new_cat: &'a Catalog,
    out: &'a mut Vec<Change>,
}

impl Cx<'_> {
    fn push(
        &mut self,
        kind: Kind,
        path: &str,
        old: Option<Span>,
        new: Option<Span>,
        detail: String,
    ) {
        let message = if detail.is_empty() {
            kind.title().to_string()
        } else {
            format!("{}: {detail}", kind.title())
        };
        self.out.push(Change {
            kind,
            class: kind.class(),
            standing: Standing::Counted,
            path: path.to_string(),
            message,
            old: old.map(|span| Loc {
                file: self.old_cat.file,
                span,
            }),
            new: new.map(|span| Loc {
                file: self.new_cat.file,
                span,
            }),
        });
    }
}

/// What a result holds: `structured` JSON, a declared content kind, or `undeclared`.
fn result_kind(t: &Tool) -> &'static str {
    match (&t.content, &t.output) {
        (Some(k), _) => k.value.as_str(),
        (None, Some(_)) => "structured",
        (None, None) => "undeclared",
    }
}

fn sorted<'a>(v: impl IntoIterator<Item = &'a String>) -> Vec<&'a String> {
    let mut v: Vec<_> = v.into_iter().collect();
    v.sort();
    v
}

pub(super) fn compare(
    old_cat: &Catalog,
    old: &Tool,
    new_cat: &Catalog,
    new: &Tool,
    out: &mut Vec<Change>,
) {
    let mut cx = Cx {
        old_cat,
        new_cat,
        out,
    };
    // Each group pushes its changes in a fixed order, so the report is the same every run.
    behaviour(&mut cx, old, new);
    outcome(&mut cx, old, new);
    resource(&mut cx, old, new);
    errors(&mut cx, old, new);
    limits(&mut cx, old, new);
    needs_input(&mut cx, old, new);
    texts(&mut cx, old, new);
    deprecation(&mut cx, old, new);
    stability(&mut cx, old, new);
}

/// What calling the tool does: effect, open world and idempotency.
fn behaviour(cx: &mut Cx<'_>, old: &Tool, new: &Tool) {
    let (os, ns) = (Some(old.span), Some(new.span));
    let (oe, ne) = (old.effect.value, new.effect.value);
    if oe != ne {
        let kind = if ne > oe {
            Kind::ToolEffectIncreased
        } else {
            Kind::ToolEffectDecreased
        };
        let detail = format!("{} → {}", oe.as_str(), ne.as_str());
        cx.push(
            kind,
            "effect",
            Some(old.effect.span),
            Some(new.effect.span),
            detail,
        );
    }
    if old.open_world() != new.open_world() {
        let span = |t: &Tool| t.open_world.as_ref().map_or(t.effect.span, |o| o.span);
        let detail = format!("{} → {}", old.open_world(), new.open_world());
        cx.push(
            Kind::ToolOpenWorldChanged,
            "open-world",
            Some(span(old)),
            Some(span(new)),
            detail,
        );
    }

    match (&old.idempotency, &new.idempotency) {
        (Some(o), None) => cx.push(
            Kind::ToolIdempotencyRemoved,
            "idempotency",
            Some(o.span),
            ns,
            String::new(),
        ),
        (None, Some(n)) => cx.push(
            Kind::ToolIdempotencyAdded,
            "idempotency",
            os,
            Some(n.span),
            String::new(),
        ),
        (Some(o), Some(n)) => {
            let same = o.key.value == n.key.value
                && sorted(o.scope.iter().map(|s| &s.value))
                    == sorted(n.scope.iter().map(|s| &s.value))
                && o.ttl_s.as_ref().map(|t| t.value) == n.ttl_s.as_ref().map(|t| t.value);
            if !same {
                cx.push(
                    Kind::ToolIdempotencyChanged,
                    "idempotency",
                    Some(o.span),
                    Some(n.span),
                    String::new(),
                );
            }
        }
        (None, None) => {}
    }

    if old.naturally_idempotent() != new.naturally_idempotent() {
        let span = |t: &Tool| t.idempotent.as_ref().map_or(t.effect.span, |i| i.span);
        let kind = if new.naturally_idempotent() {
            Kind::ToolIdempotentAdded
        } else {
            Kind::ToolIdempotentRemoved
        };
        cx.push(
            kind,
            "effect.idempotent",
            Some(span(old)),
            Some(span(new)),
            String::new(),
        );
    }
}

/// What a call returns and how it ends: the result kind, confirmation and timeout recovery.
fn outcome(cx: &mut Cx<'_>, old: &Tool, new: &Tool) {
    let (os, ns) = (Some(old.span), Some(new.span));
    let (ok, nk) = (result_kind(old), result_kind(new));
    if ok != nk {
        let span = |t: &Tool| {
            t.content
                .as_ref()
                .map(|c| c.span)
                .or(t.output.as_ref().map(|o| o.span))
        };
        cx.push(
            Kind::ToolOutputKindChanged,
            "output.kind",
            span(old).or(os),
            span(new).or(ns),
            format!("{ok} → {nk}"),
        );
    }

    match (&old.confirm, &new.confirm) {
        (Some(o), None) => cx.push(
            Kind::ToolConfirmRemoved,
            "confirm",
            Some(o.span),
            ns,
            String::new(),
        ),
        (None, Some(n)) => cx.push(
            Kind::ToolConfirmAdded,
            "confirm",
            os,
            Some(n.span),
            String::new(),
        ),
        (Some(o), Some(n)) if o.digest.value != n.digest.value => {
            let detail = format!("{} → {}", o.digest.value.as_str(), n.digest.value.as_str());
            cx.push(
                Kind::ToolConfirmChanged,
                "confirm",
                Some(o.span),
                Some(n.span),
                detail,
            );
        }
        _ => {}
    }

    let timeout = |t: &Tool| {
        t.on_timeout
            .as_ref()
            .map(|o| (o.strategy.value, o.tool.as_ref().map(|t| t.value.clone())))
    };
    if timeout(old) != timeout(new) {
        let span = |t: &Tool| t.on_timeout.as_ref().map_or(t.span, |o| o.span);
        let show = |t: &Tool| {
            t.on_timeout.as_ref().map_or("none".to_string(), |o| {
                let s = o.strategy.value.as_str();
                o.tool
                    .as_ref()
                    .map_or(s.to_string(), |t| format!("{s} tool={}", t.value))
            })
        };
        let detail = format!("{} → {}", show(old), show(new));
        cx.push(
            Kind::ToolOnTimeoutChanged,
            "on-timeout",
            Some(span(old)),
            Some(span(new)),
            detail,
        );
    }
}

/// `resource key=`: which input field serializes the writes, added, removed or changed.
fn resource(cx: &mut Cx<'_>, old: &Tool, new: &Tool) {
    let (os, ns) = (Some(old.span), Some(new.span));
    match (old.resource.as_deref(), new.resource.as_deref()) {
        (Some(o), None) => cx.push(
            Kind::ToolResourceRemoved,
            "resource",
            Some(o.span),
            ns,
            format!("`{}`", o.key.value),
        ),
        (None, Some(n)) => cx.push(
            Kind::ToolResourceAdded,
            "resource",
            os,
            Some(n.span),
            format!("`{}`", n.key.value),
        ),
        (Some(o), Some(n)) if o.key.value != n.key.value => cx.push(
            Kind::ToolResourceChanged,
            "resource",
            Some(o.key.span),
            Some(n.key.span),
            format!("`{}` → `{}`", o.key.value, n.key.value),
        ),
        _ => {}
    }
}

/// An error's `detail` declared or removed; changes of its fields are output changes
/// (`classify::details`).
fn error_detail(
    cx: &mut Cx<'_>,
    oe: &crate::model::ErrorDef,
    ne: &crate::model::ErrorDef,
    path: &str,
) {
    let code = format!("`{}`", ne.code.value);
    match (&oe.detail, &ne.detail) {
        (None, Some(n)) => cx.push(
            Kind::ToolErrorDetailAdded,
            path,
            Some(oe.span),
            Some(n.span),
            code,
        ),
        (Some(o), None) => cx.push(
            Kind::ToolErrorDetailRemoved,
            path,
            Some(o.span),
            Some(ne.span),
            code,
        ),
        _ => {}
    }
}

/// The declared errors, added, removed or changed.
fn errors(cx: &mut Cx<'_>, old: &Tool, new: &Tool) {
    let (os, ns) = (Some(old.span), Some(new.span));
    for ne in &new.errors {
        let path = format!("errors.{}", ne.code.value);
        match old.errors.iter().find(|e| e.code.value == ne.code.value) {
            None => cx.push(
                Kind::ToolErrorAdded,
                &path,
                os,
                Some(ne.span),
                format!("`{}`", ne.code.value),
            ),
            Some(oe) => {
                if oe.class.value != ne.class.value {
                    let detail = format!(
                        "`{}`: {} → {}",
                        ne.code.value,
                        oe.class.value.as_str(),
                        ne.class.value.as_str()
                    );
                    cx.push(
                        Kind::ToolErrorClassChanged,
                        &path,
                        Some(oe.class.span),
                        Some(ne.class.span),
                        detail,
                    );
                }
                if oe.retry() != ne.retry() {
                    let span =
                        |e: &crate::model::ErrorDef| e.retry.as_ref().map_or(e.span, |r| r.span);
                    let detail = format!(
                        "`{}`: {} → {}",
                        ne.code.value,
                        oe.retry().as_str(),
                        ne.retry().as_str()
                    );
                    cx.push(
                        Kind::ToolErrorRetryChanged,
                        &path,
                        Some(span(oe)),
                        Some(span(ne)),
                        detail,
                    );
                }
                let text = |e: &crate::model::ErrorDef| {
                    (
                        e.message.as_ref().map(|m| m.value.clone()),
                        e.next_step.as_ref().map(|m| m.value.clone()),
                    )
                };
                if text(oe) != text(ne) {
                    cx.push(
                        Kind::ToolErrorTextChanged,
                        &path,
                        Some(oe.span),
                        Some(ne.span),
                        format!("`{}`", ne.code.value),
                    );
                }
                error_detail(cx, oe, ne, &path);
            }
        }
    }
    for oe in &old.errors {
        if !new.errors.iter().any(|e| e.code.value == oe.code.value) {
            let path = format!("errors.{}", oe.code.value);
            cx.push(
                Kind::ToolErrorRemoved,
                &path,
                Some(oe.span),
                ns,
                format!("`{}`", oe.code.value),
            );
        }
    }
}

/// What the tool may ask the user in the middle of a call.
fn needs_input(cx: &mut Cx<'_>, old: &Tool, new: &Tool) {
    let (os, ns) = (Some(old.span), Some(new.span));
    for nn in &new.needs_input {
        let path = format!("needs-input.{}", nn.name.value);
        match old
            .needs_input
            .iter()
            .find(|n| n.name.value == nn.name.value)
        {
            None => cx.push(
                Kind::ToolNeedsInputAdded,
                &path,
                os,
                Some(nn.span),
                format!("`{}`", nn.name.value),
            ),
            Some(on) => {
                if on.kind.value != nn.kind.value {
                    let detail = format!(
                        "`{}`: {} → {}",
                        nn.name.value,
                        on.kind.value.as_str(),
                        nn.kind.value.as_str()
                    );
                    cx.push(
                        Kind::ToolNeedsInputChanged,
                        &path,
                        Some(on.kind.span),
                        Some(nn.kind.span),
                        detail,
                    );
                }
                if on.doc.as_ref().map(|d| &d.value) != nn.doc.as_ref().map(|d| &d.value) {
                    cx.push(
                        Kind::ToolNeedsInputDocChanged,
                        &path,
                        Some(on.span),
                        Some(nn.span),
                        String::new(),
                    );
                }
            }
        }
    }
    for on in &old.needs_input {
        if !new
            .needs_input
            .iter()
            .any(|n| n.name.value == on.name.value)
        {
            let path = format!("needs-input.{}", on.name.value);
            cx.push(
                Kind::ToolNeedsInputRemoved,
                &path,
                Some(on.span),
                ns,
                format!("`{}`", on.name.value),
            );
        }
    }
}

/// The model-facing texts, the examples and the example calls.
fn texts(cx: &mut Cx<'_>, old: &Tool, new: &Tool) {
    let (os, ns) = (Some(old.span), Some(new.span));
    type Text = fn(&Tool) -> Option<&crate::model::Sp<String>>;
    let texts: [(&str, Text); 4] = [
        ("title", |t| t.title.as_deref()),
        ("summary", |t| t.summary.as_ref()),
        ("when", |t| t.when.as_ref()),
        ("when-not", |t| t.when_not.as_ref()),
    ];
    for (key, get) in texts {
        let (o, n) = (get(old), get(new));
        if o.map(|x| &x.value) != n.map(|x| &x.value) {
            let detail = format!("`{key}`");
            cx.push(
                Kind::ToolSelectionTextChanged,
                key,
                o.map(|x| x.span).or(os),
                n.map(|x| x.span).or(ns),
                detail,
            );
        }
    }

    fn ex(t: &Tool) -> (Vec<&String>, Vec<&String>, Vec<&String>) {
        let e = &t.examples;
        (
            sorted(e.calls.iter().map(|s| &s.value)),
            sorted(e.no_calls.iter().map(|s| &s.value)),
            sorted(e.confusables.iter().map(|s| &s.value)),
        )
    }
    if ex(old) != ex(new) {
        cx.push(Kind::ToolExamplesChanged, "examples", os, ns, String::new());
    }
    // Example calls are documentation and mock data: by name, ignoring spans and order.
    fn calls(
        t: &Tool,
    ) -> Vec<(
        &String,
        &serde_json::Value,
        Option<&crate::model::ExampleResult>,
    )> {
        let mut v: Vec<_> = t
            .example_calls
            .iter()
            .map(|c| {
                (
                    &c.name.value,
                    &c.arguments.value,
                    c.result.as_ref().map(|r| &r.value),
                )
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(b.0));
        v
    }
    if calls(old) != calls(new) {
        cx.push(
            Kind::ToolExamplesChanged,
            "example-call",
            os,
            ns,
            String::new(),
        );
    }
}

/// Deprecation, added, removed or reworded.
fn deprecation(cx: &mut Cx<'_>, old: &Tool, new: &Tool) {
    let (os, ns) = (Some(old.span), Some(new.span));
    match (&old.deprecated, &new.deprecated) {
        (None, Some(n)) => cx.push(
            Kind::ToolDeprecatedAdded,
            "deprecated",
            os,
            Some(n.span),
            String::new(),
        ),
        (Some(o), None) => cx.push(
            Kind::ToolDeprecatedRemoved,
            "deprecated",
            Some(o.span),
            ns,
            String::new(),
        ),
        (Some(o), Some(n)) => {
            let text = |d: &crate::model::Deprecated| {
                (
                    d.reason.as_ref().map(|r| r.value.clone()),
                    d.replacement.as_ref().map(|r| r.value.clone()),
                    d.since.as_ref().map(|r| r.value.clone()),
                    d.sunset.as_ref().map(|r| r.value),
                )
            };
            if text(o) != text(n) {
                cx.push(
                    Kind::ToolDeprecatedChanged,
                    "deprecated",
                    Some(o.span),
                    Some(n.span),
                    String::new(),
                );
            }
        }
        (None, None) => {}
    }
}

/// `stability` raised or lowered (absent is `stable`).
fn stability(cx: &mut Cx<'_>, old: &Tool, new: &Tool) {
    let (o, n) = (old.stability(), new.stability());
    let kind = match o.cmp(&n) {
        std::cmp::Ordering::Less => Kind::ToolStabilityPromoted,
        std::cmp::Ordering::Greater => Kind::ToolStabilityDemoted,
        std::cmp::Ordering::Equal => return,
    };
    let span = |t: &Tool| Some(t.stability.as_ref().map_or(t.span, |s| s.span));
    let detail = format!("`{}` → `{}`", o.as_str(), n.as_str());
    cx.push(kind, "stability", span(old), span(new), detail);
}

fn limits(cx: &mut Cx<'_>, old: &Tool, new: &Tool) {
    type Get = fn(&Limits) -> Option<&crate::model::Sp<u64>>;
    let keys: [(&str, Get); 3] = [
        ("max-items", |l| l.max_items.as_ref()),
        ("max-result-bytes", |l| l.max_result_bytes.as_ref()),
        ("timeout-ms", |l| l.timeout_ms.as_ref()),
    ];
    for (key, get) in keys {
        let o = old.limits.as_deref().and_then(get);
        let n = new.limits.as_deref().and_then(get);
        let kind = match (o.map(|x| x.value), n.map(|x| x.value)) {
            (Some(a), Some(b)) if b > a => Kind::ToolLimitsLoosened,
            (Some(a), Some(b)) if b < a => Kind::ToolLimitsTightened,
            (Some(_), None) => Kind::ToolLimitsLoosened,
            (None, Some(_)) => Kind::ToolLimitsTightened,
            _ => continue,
        };
        let show = |x: Option<&crate::model::Sp<u64>>| {
            x.map_or("none".to_string(), |x| x.value.to_string())
        };
        let detail = format!("`{key}` {} → {}", show(o), show(n));
        let span = |t: &Tool, x: Option<&crate::model::Sp<u64>>| {
            x.map(|x| x.span)
                .or(t.limits.as_ref().map(|l| l.span))
                .unwrap_or(t.span)
        };
        let path = format!("limits.{key}");
        cx.push(kind, &path, Some(span(old, o)), Some(span(new, n)), detail);
    }
}
