//! What a tool does and how it fails: `effect`, `limits`, `error`, and the parts that make
//! writes safe (`idempotency`, `confirm`, `on-timeout`, `needs-input`).

use super::*;
use crate::syntax::Node;

impl Cx {
    /// The effect and, when written, its `idempotent=` flag (only on `append` and
    /// `destructive`: every other class is idempotent already).
    pub(super) fn lower_effect(&mut self, n: &Node) -> (Option<Sp<Effect>>, Option<Sp<bool>>) {
        self.check_annotations(n);
        let props = self.props(n, EFFECT_PROPS, &|_| None);
        self.no_children(n);
        let a = self.args(n, 1, 1, "effect \"read\"");
        let effect = a
            .first()
            .and_then(|e| self.keyword::<Effect>(e, "`effect`"));
        let idempotent = props
            .get("idempotent")
            .and_then(|e| self.boolean(e, "`idempotent`"));
        let idempotent = match (&effect, idempotent) {
            (Some(e), Some(i)) if !matches!(e.value, Effect::Append | Effect::Destructive) => {
                self.err(
                    "model/unknown-property",
                    i.span,
                    format!(
                        "`idempotent=` applies only to `append` and `destructive`; `{}` is idempotent already",
                        e.value.as_str()
                    ),
                    Some("remove `idempotent=`".to_string()),
                );
                None
            }
            (_, i) => i,
        };
        (effect, idempotent)
    }

    /// `output kind="…"`: an unstructured result, which has no fields.
    pub(super) fn lower_content(&mut self, n: &Node) -> Option<Sp<ContentKind>> {
        self.check_annotations(n);
        let usage = "output kind=\"text\"";
        let props = self.props(n, OUTPUT_PROPS, &|_| None);
        self.args(n, 0, 0, usage);
        if let Some(ch) = n.children()
            && let Some(first) = ch.nodes().first()
        {
            self.err(
                "model/unexpected-children",
                first.name.span,
                "an unstructured `output kind=…` has no fields: its result is not JSON",
                Some(
                    "remove `kind=` to declare a structured output, or remove the fields"
                        .to_string(),
                ),
            );
        }
        props
            .get("kind")
            .and_then(|e| self.keyword::<ContentKind>(e, "output `kind`"))
    }

    pub(super) fn lower_limits(&mut self, n: &Node) -> Option<Limits> {
        self.check_annotations(n);
        let props = self.props(n, LIMITS_PROPS, &|_| None);
        self.no_children(n);
        self.args(
            n,
            0,
            0,
            "limits max-items=50 max-result-bytes=65536 timeout-ms=5000",
        );
        let mut get = |k: &str| {
            props
                .get(k)
                .and_then(|e| self.uint(e, format_args!("`limits {k}`")))
        };
        Some(Limits {
            max_items: get("max-items"),
            max_result_bytes: get("max-result-bytes"),
            timeout_ms: get("timeout-ms"),
            span: n.span,
        })
    }

    pub(super) fn lower_error(&mut self, n: &Node) -> Option<ErrorDef> {
        self.check_annotations(n);
        let usage = "error \"CODE\" class=\"invalid-argument\" retry=\"never\" { message \"...\" next-step \"...\" }";
        let props = self.props(n, ERROR_PROPS, &|_| None);
        let a = self.args(n, 1, 1, usage);
        let code = a.first().and_then(|e| self.string(e, "error code"));
        let class = self
            .required(&props, n, "class", "`error` needs a `class`", || {
                format!("write it as `{usage}`")
            })
            .and_then(|e| self.keyword::<ErrorClass>(&e, "error `class`"));
        let retry = props
            .get("retry")
            .and_then(|e| self.keyword::<Retry>(e, "error `retry`"));
        let mut message = None;
        let mut next_step = None;
        let mut detail = None;
        let mut seen = Seen::default();
        if let Some(ch) = n.children() {
            for c in ch.nodes() {
                match c.name.value {
                    "message" => {
                        if self.once(&mut seen, &c, "`error`") {
                            message = self.text_node(&c);
                        }
                    }
                    "next-step" => {
                        if self.once(&mut seen, &c, "`error`") {
                            next_step = self.text_node(&c);
                        }
                    }
                    "detail" => {
                        if self.once(&mut seen, &c, "`error`") {
                            let root = match &code {
                                Some(code) => format!("error.{}.detail", code.value),
                                None => "detail".to_string(),
                            };
                            detail = Some(Box::new(self.lower_object_at(&c, &root)));
                        }
                    }
                    _ => {
                        self.check_annotations(&c);
                        self.unknown_node(&c, "in `error`", ERROR_CHILDREN);
                    }
                }
            }
        }
        Some(ErrorDef {
            code: code?,
            class: class?,
            retry,
            message,
            next_step,
            detail,
            span: n.span,
        })
    }

    pub(super) fn lower_idempotency(&mut self, n: &Node) -> Option<Idempotency> {
        self.check_annotations(n);
        let usage =
            "idempotency key=\"idempotency_key\" scope=\"tenant\" \"operation\" ttl-s=86400";
        let props = self.props(n, IDEMPOTENCY_PROPS, &|_| None);
        self.no_children(n);
        let args = self.args(n, 0, usize::MAX, usage);
        let key = self
            .required(
                &props,
                n,
                "key",
                "`idempotency` needs a `key` naming the input field that carries the key",
                || format!("write it as `{usage}`"),
            )
            .and_then(|e| self.string(&e, "idempotency `key`"));
        let mut scope = Vec::new();
        if let Some(e) = props.get("scope")
            && let Some(s) = self.string(e, "idempotency `scope`")
        {
            scope.push(s);
        }
        for e in args {
            if let Some(s) = self.string(&e, "idempotency scope") {
                scope.push(s);
            }
        }
        let ttl_s = props
            .get("ttl-s")
            .and_then(|e| self.uint(e, "idempotency `ttl-s`"));
        Some(Idempotency {
            key: key?,
            scope,
            ttl_s,
            span: n.span,
        })
    }

    pub(super) fn lower_confirm(&mut self, n: &Node) -> Option<Confirm> {
        self.check_annotations(n);
        let usage = "confirm digest=\"arguments\"";
        let props = self.props(n, &["digest"], &|_| None);
        self.no_children(n);
        self.args(n, 0, 0, usage);
        let digest = self
            .required(&props, n, "digest", "`confirm` needs a `digest`", || {
                format!("write `{usage}` or `confirm digest=\"arguments+resource-version\"`")
            })
            .and_then(|e| self.keyword::<ConfirmDigest>(&e, "confirm `digest`"));
        Some(Confirm {
            digest: digest?,
            span: n.span,
        })
    }

    pub(super) fn lower_resource(&mut self, n: &Node) -> Option<Resource> {
        self.check_annotations(n);
        let usage = "resource key=\"invoice_reference\"";
        let props = self.props(n, &["key"], &|_| None);
        self.no_children(n);
        self.args(n, 0, 0, usage);
        let key = self
            .required(
                &props,
                n,
                "key",
                "`resource` needs a `key` naming the input field that names the resource",
                || format!("write it as `{usage}`"),
            )
            .and_then(|e| self.string(&e, "resource `key`"));
        Some(Resource {
            key: key?,
            span: n.span,
        })
    }

    pub(super) fn lower_on_timeout(&mut self, n: &Node) -> Option<OnTimeout> {
        self.check_annotations(n);
        let usage = "on-timeout \"query-status\" tool=\"STATUS_TOOL\"";
        let props = self.props(n, &["tool"], &|_| None);
        self.no_children(n);
        let a = self.args(n, 1, 1, usage);
        let strategy = a
            .first()
            .and_then(|e| self.keyword::<TimeoutStrategy>(e, "`on-timeout` strategy"))?;
        let tool = props
            .get("tool")
            .and_then(|e| self.string(e, "on-timeout `tool`"));
        match strategy.value {
            TimeoutStrategy::QueryStatus if tool.is_none() && props.get("tool").is_none() => {
                self.err(
                    "model/missing-property",
                    n.name.span,
                    "`on-timeout \"query-status\"` needs `tool=` naming the status tool",
                    Some(format!("write it as `{usage}`")),
                );
                return None;
            }
            TimeoutStrategy::RetryWithKey => {
                if let Some(t) = &tool {
                    self.err(
                        "model/unknown-property",
                        t.span,
                        "`tool=` applies only to `on-timeout \"query-status\"`",
                        Some("remove `tool=`, or use the query-status strategy".to_string()),
                    );
                }
            }
            _ => {}
        }
        let query = strategy.value == TimeoutStrategy::QueryStatus;
        Some(OnTimeout {
            strategy,
            tool: if query { tool } else { None },
            span: n.span,
        })
    }

    pub(super) fn lower_needs_input(&mut self, n: &Node) -> Option<NeedsInput> {
        self.check_annotations(n);
        let usage = "needs-input \"NAME\" kind=\"confirmation\" { doc \"...\" }";
        let props = self.props(n, &["kind"], &|_| None);
        let a = self.args(n, 1, 1, usage);
        let name = a.first().and_then(|e| self.string(e, "needs-input name"));
        let kind = self
            .required(&props, n, "kind", "`needs-input` needs a `kind`", || {
                format!("write it as `{usage}`")
            })
            .and_then(|e| self.keyword::<InputKind>(&e, "needs-input `kind`"));
        let mut doc = None;
        let mut seen = Seen::default();
        if let Some(ch) = n.children() {
            for c in ch.nodes() {
                if c.name.value == "doc" {
                    if self.once(&mut seen, &c, "`needs-input`") {
                        doc = self.text_node(&c);
                    }
                } else {
                    self.check_annotations(&c);
                    self.unknown_node(&c, "in `needs-input`", NEEDS_INPUT_CHILDREN);
                }
            }
        }
        Some(NeedsInput {
            name: name?,
            kind: kind?,
            doc,
            span: n.span,
        })
    }
}
