//! Catalog models built by hand, for the schema and hash tests: the format guide's examples
//! plus a tool that uses every field attribute.

use crate::diag::FileId;
use crate::model::*;
use std::cell::Cell;

/// A builder whose every span is distinct and starts at a chosen offset: `Fx::new(offset)`
/// builds the same catalog "at a different place in the file", so a test can prove that
/// schemas and hashes never depend on where a declaration sits.
pub struct Fx {
    next: Cell<usize>,
}

impl Fx {
    /// A builder whose first span starts at `offset`.
    pub fn new(offset: usize) -> Fx {
        Fx {
            next: Cell::new(offset),
        }
    }

    /// The next span (five bytes wide, seven apart).
    pub fn span(&self) -> Span {
        let s = self.next.get();
        self.next.set(s + 7);
        Span::new(s, s + 5)
    }

    /// `v` at the next span.
    pub fn sp<T>(&self, v: T) -> Sp<T> {
        Sp::new(v, self.span())
    }

    /// A string at the next span.
    pub fn s(&self, v: &str) -> Sp<String> {
        self.sp(v.to_string())
    }

    /// Some string at the next span.
    pub fn os(&self, v: &str) -> Option<Sp<String>> {
        Some(self.s(v))
    }

    /// A type of `kind` at the next span.
    pub fn ty(&self, kind: TyKind) -> Ty {
        Ty {
            kind,
            span: self.span(),
        }
    }

    /// A field with no default, doc or flags.
    pub fn field(&self, name: &str, kind: TyKind, required: bool) -> Field {
        Field {
            name: self.s(name),
            ty: self.ty(kind),
            required,
            nullable: false,
            default: None,
            sensitive: false,
            deprecated: false,
            doc: None,
            title: None,
            examples: Vec::new(),
            constant: None,
            header: None,
            span: self.span(),
        }
    }

    /// `f` with a doc comment.
    pub fn doc(&self, mut f: Field, doc: &str) -> Field {
        f.doc = self.os(doc);
        f
    }

    /// An object of `fields`.
    pub fn obj(&self, fields: Vec<Field>) -> Object {
        Object {
            fields,
            span: self.span(),
            extra: None,
        }
    }

    /// A string type with an optional `max-length`.
    pub fn string(&self, max_length: Option<u64>) -> TyKind {
        TyKind::String(Box::new(StringTy {
            max_length: max_length.map(|n| self.sp(n)),
            ..StringTy::default()
        }))
    }

    /// A closed string enum of `values`.
    pub fn enum_of(&self, values: &[&str]) -> TyKind {
        TyKind::String(Box::new(StringTy {
            enum_values: Some(EnumValues {
                values: values.iter().map(|v| self.s(v)).collect(),
                extensible: false,
                span: self.span(),
            }),
            ..StringTy::default()
        }))
    }

    /// Integer bounds.
    pub fn int(&self, min: Option<i64>, max: Option<i64>) -> NumTy {
        NumTy {
            min: min.map(|n| self.sp(Num::Int(n))),
            max: max.map(|n| self.sp(Num::Int(n))),
            ..NumTy::default()
        }
    }

    /// An error declaration without message or next step.
    pub fn error(&self, code: &str, class: ErrorClass, retry: Option<Retry>) -> ErrorDef {
        ErrorDef {
            code: self.s(code),
            class: self.sp(class),
            retry: retry.map(|r| self.sp(r)),
            message: None,
            next_step: None,
            detail: None,
            span: self.span(),
        }
    }

    /// A complete read tool of `effect` with generic selection texts.
    pub fn tool(&self, name: &str, effect: Effect, input: Object) -> Tool {
        Tool {
            name: self.s(name),
            version: self.s("1.0.0"),
            summary: self.os(&format!("Summary of {name}.")),
            when: self.os(&format!("Use {name} when it fits.")),
            when_not: self.os("Not for anything else."),
            effect: self.sp(effect),
            input,
            span: self.span(),
            ..Tool::new(name, "1.0.0", effect)
        }
    }

    /// `type "Invoice"` of docs/catalog-format.md.
    pub fn invoice_type(&self) -> TypeDef {
        let mut reference = self.field("invoice_reference", self.string(Some(32)), true);
        if let TyKind::String(s) = &mut reference.ty.kind {
            s.pattern = Some(self.s("^INV-[0-9]+$"));
        }
        let mut amount = NumTy {
            unit: Some(self.sp(Unit::Minor)),
            ..self.int(Some(0), Some(100_000_000_000))
        };
        amount.unit = Some(self.sp(Unit::Minor));
        TypeDef {
            name: self.s("Invoice"),
            doc: self.os("An invoice summary."),
            fields: vec![
                reference,
                self.field("currency", self.enum_of(&["USD", "EUR", "CNY"]), true),
                self.field("amount_minor", TyKind::Integer(Box::new(amount)), true),
            ],
            span: self.span(),
        }
    }

    /// `tool "invoice_list"` of docs/catalog-format.md.
    pub fn invoice_list(&self) -> Tool {
        let mut page_size = self.doc(
            self.field(
                "page_size",
                TyKind::Integer(Box::new(self.int(Some(1), Some(50)))),
                false,
            ),
            "How many invoices to return at most.",
        );
        page_size.default = Some(Box::new(self.sp(Literal::Int(20))));
        let input = self.obj(vec![
            self.doc(
                self.field("status", self.enum_of(&["open", "overdue"]), true),
                "Invoice status to filter by.",
            ),
            page_size,
            self.doc(
                self.field("cursor", TyKind::Cursor(Box::default()), false),
                "Opaque cursor from a previous next_cursor.",
            ),
        ]);
        let items = self.doc(
            self.field(
                "items",
                TyKind::Array(Box::new(ArrayTy {
                    min_items: None,
                    max_items: Some(self.sp(50)),
                    unique: false,
                    items_nullable: false,
                    items: Box::new(self.ty(TyKind::Named(self.s("Invoice")))),
                })),
                true,
            ),
            "Invoices, oldest due date first.",
        );
        let output = self.obj(vec![
            items,
            self.doc(
                self.field("next_cursor", TyKind::Cursor(Box::default()), false),
                "Empty when there are no more pages.",
            ),
        ]);
        let mut t = self.tool("invoice_list", Effect::Read, input);
        t.version = self.s("1.2.0");
        t.title = self.os("List invoices").map(Box::new);
        t.summary = self.os("List open or overdue invoices visible to the authenticated tenant.");
        t.when = self.os("Use to look up invoices of the current tenant by status.");
        t.when_not = self.os("Not for payments or reminders; use invoice_send_reminder to remind.");
        t.limits = Some(Box::new(Limits {
            max_items: Some(self.sp(50)),
            max_result_bytes: Some(self.sp(65536)),
            timeout_ms: Some(self.sp(5000)),
            span: self.span(),
        }));
        t.output = Some(output);
        t.errors = vec![
            self.error("INVALID_STATUS", ErrorClass::InvalidArgument, None),
            self.error(
                "BILLING_UNAVAILABLE",
                ErrorClass::Unavailable,
                Some(Retry::Backoff),
            ),
        ];
        t.examples = Examples {
            calls: vec![self.s("Which of our invoices are overdue?")],
            no_calls: vec![self.s("How do refunds work?")],
            confusables: vec![self.s("invoice_get")],
        };
        t
    }

    /// `tool "payment_transfer_submit"` of docs/catalog-format.md.
    pub fn transfer_submit(&self) -> Tool {
        let mut amount = NumTy {
            exclusive_min: Some(self.sp(Num::Int(0))),
            max: Some(self.sp(Num::Int(1_000_000))),
            ..NumTy::default()
        };
        amount.unit = Some(self.sp(Unit::Minor));
        let key = TyKind::String(Box::new(StringTy {
            min_length: Some(self.sp(16)),
            max_length: Some(self.sp(128)),
            ..StringTy::default()
        }));
        let input = self.obj(vec![
            self.field("source_account_reference", self.string(Some(34)), true),
            self.field("destination_account_reference", self.string(Some(34)), true),
            self.field("amount_minor", TyKind::Integer(Box::new(amount)), true),
            self.field("currency", self.enum_of(&["USD", "EUR"]), true),
            self.field("idempotency_key", key, true),
        ]);
        let mut t = self.tool("payment_transfer_submit", Effect::Destructive, input);
        t.version = self.s("2.0.0");
        t.summary = self.os("Transfer money between two accounts of the authenticated tenant.");
        t.when = self.os("Use after the user confirmed amount, source and destination.");
        t.when_not =
            self.os("Not for quotes or balance checks; use payment_transfer_preview first.");
        t.idempotency = Some(Box::new(Idempotency {
            key: self.s("idempotency_key"),
            scope: vec![self.s("tenant"), self.s("operation")],
            ttl_s: Some(self.sp(86400)),
            span: self.span(),
        }));
        t.confirm = Some(Box::new(Confirm {
            digest: self.sp(ConfirmDigest::ArgumentsResourceVersion),
            span: self.span(),
        }));
        t.on_timeout = Some(Box::new(OnTimeout {
            strategy: self.sp(TimeoutStrategy::QueryStatus),
            tool: self.os("payment_transfer_status"),
            span: self.span(),
        }));
        t.needs_input = vec![NeedsInput {
            name: self.s("approval"),
            kind: self.sp(InputKind::Confirmation),
            doc: self.os("The user approves the exact transfer."),
            span: self.span(),
        }];
        t.output = Some(self.obj(vec![
            self.field("transfer_reference", self.string(Some(40)), true),
            self.field("status", self.enum_of(&["accepted", "settled"]), true),
        ]));
        t.errors = vec![
            self.error("INSUFFICIENT_FUNDS", ErrorClass::BusinessRejected, None),
            self.error("PERMISSION_DENIED", ErrorClass::PermissionDenied, None),
            self.error(
                "LEDGER_UNAVAILABLE",
                ErrorClass::Unavailable,
                Some(Retry::Backoff),
            ),
        ];
        t
    }

    /// A tool using every field type and attribute, with nesting three objects deep.
    pub fn kitchen_sink(&self) -> Tool {
        let ratio = NumTy {
            min: Some(self.sp(Num::Float(0.5))),
            exclusive_max: Some(self.sp(Num::Float(99.5))),
            multiple_of: Some(self.sp(Num::Float(0.25))),
            unit: Some(self.sp(Unit::Percent)),
            ..NumTy::default()
        };
        let mut ratio_f = self.field("ratio", TyKind::Number(Box::new(ratio)), false);
        ratio_f.default = Some(Box::new(self.sp(Literal::Float(1.5))));
        let mut flag = self.field("include_archived", TyKind::Boolean, false);
        flag.default = Some(Box::new(self.sp(Literal::Bool(false))));
        let mut old = self.field("legacy_mode", self.string(Some(10)), false);
        old.deprecated = true;
        old.default = Some(Box::new(self.sp(Literal::String("off".into()))));
        let mut email = self.field(
            "contact_email",
            TyKind::String(Box::new(StringTy {
                format: Some(self.sp(Format::Email)),
                max_length: Some(self.sp(254)),
                ..StringTy::default()
            })),
            false,
        );
        email.sensitive = true;
        let tags = self.field(
            "tags",
            TyKind::Array(Box::new(ArrayTy {
                min_items: Some(self.sp(1)),
                max_items: Some(self.sp(10)),
                unique: true,
                items_nullable: false,
                items: Box::new(self.ty(self.string(Some(20)))),
            })),
            false,
        );
        let matrix = self.field(
            "matrix",
            TyKind::Array(Box::new(ArrayTy {
                min_items: None,
                max_items: Some(self.sp(3)),
                unique: false,
                items_nullable: false,
                items: Box::new(self.ty(TyKind::Array(Box::new(ArrayTy {
                    min_items: None,
                    max_items: Some(self.sp(3)),
                    unique: false,
                    items_nullable: false,
                    items: Box::new(self.ty(TyKind::Integer(Box::new(self.int(None, None))))),
                })))),
            })),
            false,
        );
        let deep = self.obj(vec![
            self.field("at", TyKind::Timestamp, true),
            self.field("invoice", TyKind::Named(self.s("Invoice")), false),
        ]);
        let middle = self.obj(vec![
            self.field("label", self.string(Some(64)), true),
            self.doc(
                self.field("deep", TyKind::Object(deep), true),
                "Deepest level.",
            ),
        ]);
        let cursor = self.field(
            "page",
            TyKind::Cursor(Box::new(StringTy {
                max_length: Some(self.sp(128)),
                ..StringTy::default()
            })),
            false,
        );
        let day = self.field(
            "day",
            TyKind::String(Box::new(StringTy {
                format: Some(self.sp(Format::Date)),
                ..StringTy::default()
            })),
            false,
        );
        let input = self.obj(vec![
            self.doc(
                self.field("nested", TyKind::Object(middle), true),
                "Two levels of nesting.",
            ),
            ratio_f,
            flag,
            old,
            email,
            tags,
            matrix,
            cursor,
            day,
        ]);
        let mut t = self.tool("report_export", Effect::Append, input);
        t.open_world = Some(Box::new(self.sp(true)));
        t.on_timeout = Some(Box::new(OnTimeout {
            strategy: self.sp(TimeoutStrategy::RetryWithKey),
            tool: None,
            span: self.span(),
        }));
        t.limits = Some(Box::new(Limits {
            max_items: Some(self.sp(1)),
            max_result_bytes: None,
            timeout_ms: Some(self.sp(30000)),
            span: self.span(),
        }));
        t.deprecated = Some(Box::new(Deprecated {
            reason: self.os("Exports move to the reports catalog."),
            replacement: self.os("reports_export"),
            since: None,
            sunset: None,
            span: self.span(),
        }));
        t
    }

    /// A tool whose input is empty and which has no output.
    pub fn ping(&self) -> Tool {
        let mut t = self.tool("service_ping", Effect::ExternalRead, self.obj(vec![]));
        t.summary = self.os("Check that the billing service answers.");
        t
    }

    /// The billing catalog: `Invoice` and the four tools above.
    pub fn billing(&self) -> Catalog {
        Catalog {
            file: FileId(0),
            name: self.s("billing"),
            version: self.s("1.4.0"),
            summary: self.os("Invoices and payments for the authenticated tenant."),
            types: vec![self.invoice_type()],
            tools: vec![
                self.invoice_list(),
                self.transfer_submit(),
                self.kitchen_sink(),
                self.ping(),
            ],
            left_out: Vec::new(),
            span: self.span(),
        }
    }
}
