//! The classifier. Field-level rules are written once, from the reader's side: given the
//! schema a writer produces values for and the schema a reader accepts, does every value the
//! writer could produce still fit? Inputs are written by the model against the old schema and
//! read by the new server (writer = old, reader = new); outputs are written by the new server
//! and read by old clients (writer = new, reader = old). [`map`] turns each reader-side
//! event into the change kind of the side it happened on.

use super::kinds::{Kind, Side};
use super::{Change, Loc, Standing};
use crate::model::{
    ArrayTy, CURSOR_DEFAULT_MAX_LENGTH, Catalog, EnumValues, Extra, Field, Format, Literal, MapTy,
    Num, NumTy, Span, StringTy, Tool, Ty, TyKind, UnionTy, Unit,
};

/// What the reader sees compared with the writer, independent of the side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ev {
    /// A field the writer knows and the reader does not.
    WriterOnlyField {
        required: bool,
    },
    /// A field the reader knows and the writer does not.
    ReaderOnlyField {
        required: bool,
    },
    /// The reader requires a field the writer may omit.
    ReaderRequires,
    /// The writer always sends a field the reader treats as optional.
    ReaderRelaxes,
    TypeDiffers,
    /// The reader takes any JSON value (`json`), the writer a typed one.
    ReaderAny,
    /// The writer may produce any JSON value (`json`), the reader wants a type.
    WriterAny,
    /// The reader's object takes extra properties (`extra`), the writer's is closed.
    ReaderOpen,
    /// The writer's object may have extra properties, the reader's is closed.
    WriterOpen,
    /// `nullable` differs: the writer may produce `null` (`writer_has`) or only the reader
    /// accepts it.
    NullableDiffers {
        writer_has: bool,
    },
    /// The writer may produce an enum value the reader does not list.
    WriterEnumValueUnknown {
        reader_extensible: bool,
    },
    /// The reader lists an enum value the writer never produces.
    ReaderEnumValueUnused,
    /// `extensible=#true` on one enum only (`writer_has`: on the writer's).
    ExtensibleDiffers {
        writer_has: bool,
    },
    /// The writer may produce a union variant the reader does not have.
    WriterVariantUnknown,
    /// The reader has a union variant the writer never produces.
    ReaderVariantUnused,
    /// The union's discriminator property differs.
    DiscriminatorDiffers,
    /// The reader's bound rejects some values the writer may produce.
    Narrower,
    /// The reader's bound accepts more than the writer produces.
    Wider,
    /// Neither bound contains the other.
    Incomparable,
    PatternReaderOnly,
    PatternWriterOnly,
    PatternDiffers,
    FormatReaderOnly,
    FormatWriterOnly,
    FormatDiffers,
    DefaultDiffers {
        writer_has: bool,
        reader_has: bool,
    },
    UnitDiffers,
    DocDiffers,
    SensitiveDiffers,
    /// `header=` differs: present on one side only, or with another name (`case_only` when
    /// the names are equal ignoring ASCII case).
    HeaderDiffers {
        writer_has: bool,
        reader_has: bool,
        case_only: bool,
    },
    /// `deprecated` differs; `in_new` says which version has it.
    DeprecatedDiffers {
        in_new: bool,
    },
}

/// The one place where a side gives a reader-side event its name and class.
fn map(side: Side, ev: Ev) -> Option<Kind> {
    use Kind::*;
    Some(match side {
        Side::Input => match ev {
            Ev::WriterOnlyField { .. } => InputFieldRemoved,
            Ev::ReaderOnlyField { required: true } => InputFieldRequiredAdded,
            Ev::ReaderOnlyField { required: false } => InputFieldOptionalAdded,
            Ev::ReaderRequires => InputFieldMadeRequired,
            Ev::ReaderRelaxes => InputFieldMadeOptional,
            Ev::TypeDiffers => InputTypeChanged,
            Ev::ReaderAny => InputTypeOpened,
            Ev::WriterAny => InputTypeClosed,
            Ev::ReaderOpen => InputObjectOpened,
            Ev::WriterOpen => InputObjectClosed,
            Ev::NullableDiffers { writer_has: false } => InputNullableAdded,
            Ev::NullableDiffers { writer_has: true } => InputNullableRemoved,
            Ev::WriterEnumValueUnknown { .. } => InputEnumValueRemoved,
            Ev::ReaderEnumValueUnused => InputEnumValueAdded,
            // See kinds::EXTENSIBLE_ONE_SIDED.
            Ev::ExtensibleDiffers { .. } => return None,
            Ev::WriterVariantUnknown => InputVariantRemoved,
            Ev::ReaderVariantUnused => InputVariantAdded,
            Ev::DiscriminatorDiffers => InputDiscriminatorChanged,
            Ev::Narrower => InputBoundTightened,
            Ev::Wider => InputBoundLoosened,
            Ev::Incomparable => InputBoundChanged,
            Ev::PatternReaderOnly => InputPatternAdded,
            Ev::PatternWriterOnly => InputPatternRemoved,
            Ev::PatternDiffers => InputPatternChanged,
            Ev::FormatReaderOnly => InputFormatAdded,
            Ev::FormatWriterOnly => InputFormatRemoved,
            Ev::FormatDiffers => InputFormatChanged,
            Ev::DefaultDiffers {
                writer_has: true,
                reader_has: true,
            } => InputDefaultChanged,
            Ev::DefaultDiffers {
                writer_has: true, ..
            } => InputDefaultRemoved,
            Ev::DefaultDiffers { .. } => InputDefaultAdded,
            Ev::UnitDiffers => InputUnitChanged,
            Ev::DocDiffers => InputDocChanged,
            Ev::SensitiveDiffers => InputSensitiveChanged,
            Ev::HeaderDiffers {
                writer_has: false, ..
            } => InputHeaderAdded,
            Ev::HeaderDiffers {
                reader_has: false, ..
            } => InputHeaderRemoved,
            Ev::HeaderDiffers {
                case_only: true, ..
            } => InputHeaderCaseChanged,
            Ev::HeaderDiffers { .. } => InputHeaderRenamed,
            Ev::DeprecatedDiffers { in_new: true } => InputFieldDeprecatedAdded,
            Ev::DeprecatedDiffers { in_new: false } => InputFieldDeprecatedRemoved,
        },
        Side::Output => match ev {
            // Output readers ignore fields they do not know (tolerant reader), but rely on
            // every field they were written to read, optional or not.
            Ev::WriterOnlyField { required: true } => OutputFieldRequiredAdded,
            Ev::WriterOnlyField { required: false } => OutputFieldOptionalAdded,
            Ev::ReaderOnlyField { .. } => OutputFieldRemoved,
            Ev::ReaderRequires => OutputFieldMadeOptional,
            Ev::ReaderRelaxes => OutputFieldMadeRequired,
            Ev::TypeDiffers => OutputTypeChanged,
            Ev::ReaderAny => OutputTypeClosed,
            Ev::WriterAny => OutputTypeOpened,
            Ev::ReaderOpen => OutputObjectClosed,
            Ev::WriterOpen => OutputObjectOpened,
            Ev::NullableDiffers { writer_has: true } => OutputNullableAdded,
            Ev::NullableDiffers { writer_has: false } => OutputNullableRemoved,
            Ev::WriterEnumValueUnknown {
                reader_extensible: true,
            } => OutputEnumValueAddedExtensible,
            Ev::WriterEnumValueUnknown { .. } => OutputEnumValueAdded,
            Ev::ReaderEnumValueUnused => OutputEnumValueRemoved,
            Ev::ExtensibleDiffers { writer_has: true } => OutputEnumMadeExtensible,
            Ev::ExtensibleDiffers { writer_has: false } => OutputEnumMadeClosed,
            Ev::WriterVariantUnknown => OutputVariantAdded,
            Ev::ReaderVariantUnused => OutputVariantRemoved,
            Ev::DiscriminatorDiffers => OutputDiscriminatorChanged,
            Ev::Narrower => OutputBoundLoosened,
            Ev::Wider => OutputBoundTightened,
            Ev::Incomparable => OutputBoundChanged,
            Ev::PatternReaderOnly => OutputPatternRemoved,
            Ev::PatternWriterOnly => OutputPatternAdded,
            Ev::PatternDiffers => OutputPatternChanged,
            Ev::FormatReaderOnly => OutputFormatRemoved,
            Ev::FormatWriterOnly => OutputFormatAdded,
            Ev::FormatDiffers => OutputFormatChanged,
            // See kinds::DEFAULT_ONE_SIDED.
            Ev::DefaultDiffers { .. } => return None,
            Ev::UnitDiffers => OutputUnitChanged,
            Ev::DocDiffers => OutputDocChanged,
            Ev::SensitiveDiffers => OutputSensitiveChanged,
            // Output schemas never carry `x-mcp-header` (see kinds::HEADER_ONE_SIDED).
            Ev::HeaderDiffers { .. } => return None,
            Ev::DeprecatedDiffers { in_new: true } => OutputFieldDeprecatedAdded,
            Ev::DeprecatedDiffers { in_new: false } => OutputFieldDeprecatedRemoved,
        },
    })
}

/// A type with its sugar removed: `cursor` is a bounded string, `timestamp` a `date-time`
/// string, a named type the object it names. Equivalent spellings compare equal.
enum Norm<'a> {
    Str(StrView<'a>),
    Int(&'a NumTy),
    Num(&'a NumTy),
    Bool,
    Arr(&'a ArrayTy),
    /// An object's fields and, when open, its `extra`.
    Obj(&'a [Field], Option<&'a Extra>),
    Map(&'a MapTy),
    Json,
    Union(&'a UnionTy),
}

#[derive(Default)]
struct StrView<'a> {
    min_length: Option<(u64, Span)>,
    max_length: Option<(u64, Span)>,
    pattern: Option<(&'a str, Span)>,
    format: Option<(Format, Span)>,
    enumeration: Option<&'a EnumValues>,
}

impl<'a> StrView<'a> {
    fn of(s: &'a StringTy) -> Self {
        StrView {
            min_length: s.min_length.as_ref().map(|v| (v.value, v.span)),
            max_length: s.max_length.as_ref().map(|v| (v.value, v.span)),
            pattern: s.pattern.as_ref().map(|p| (p.value.as_str(), p.span)),
            format: s.format.as_ref().map(|f| (f.value, f.span)),
            enumeration: s.enum_values.as_ref(),
        }
    }
}

fn normalize<'a>(cat: &'a Catalog, ty: &'a Ty) -> Norm<'a> {
    match &ty.kind {
        TyKind::String(s) => Norm::Str(StrView::of(s)),
        TyKind::Cursor(s) => {
            let mut v = StrView::of(s);
            if v.max_length.is_none() {
                v.max_length = Some((CURSOR_DEFAULT_MAX_LENGTH, ty.span));
            }
            Norm::Str(v)
        }
        TyKind::Timestamp => Norm::Str(StrView {
            format: Some((Format::DateTime, ty.span)),
            ..StrView::default()
        }),
        TyKind::Integer(n) => Norm::Int(n),
        TyKind::Number(n) => Norm::Num(n),
        TyKind::Boolean => Norm::Bool,
        TyKind::Array(a) => Norm::Arr(a),
        TyKind::Object(o) => Norm::Obj(&o.fields, o.extra.as_deref()),
        TyKind::Map(m) => Norm::Map(m),
        TyKind::Json => Norm::Json,
        TyKind::Union(u) => Norm::Union(u),
        // Lowering guarantees the type exists; an unresolved one (never from a lowered
        // catalog) reads as an empty object rather than a panic.
        TyKind::Named(n) => Norm::Obj(cat.type_def(&n.value).map_or(&[], |t| &t.fields), None),
    }
}

fn norm_name(n: &Norm<'_>) -> &'static str {
    match n {
        Norm::Str(_) => "string",
        Norm::Int(_) => "integer",
        Norm::Num(_) => "number",
        Norm::Bool => "boolean",
        Norm::Arr(_) => "array",
        Norm::Obj(..) => "object",
        Norm::Map(_) => "map",
        Norm::Json => "json",
        Norm::Union(_) => "union",
    }
}

/// Walks one side (input or output) of a tool.
struct Reader<'a, 'o> {
    side: Side,
    writer: &'a Catalog,
    reader: &'a Catalog,
    out: &'o mut Vec<Change>,
    /// The innermost enclosing node on each side (field, or the `input`/`output` block):
    /// where a change is shown on the side it does not exist on (a removed field is shown
    /// in the object it was removed from).
    w_anchor: Span,
    r_anchor: Span,
}

impl<'a> Reader<'a, '_> {
    fn loc(&self, cat: &Catalog, span: Option<Span>) -> Option<Loc> {
        span.map(|span| Loc {
            file: cat.file,
            span,
        })
    }

    fn emit(&mut self, ev: Ev, path: &str, w: Option<Span>, r: Option<Span>, detail: String) {
        let Some(kind) = map(self.side, ev) else {
            return;
        };
        let wl = self.loc(self.writer, w.or(Some(self.w_anchor)));
        let rl = self.loc(self.reader, r.or(Some(self.r_anchor)));
        let (old, new) = match self.side {
            Side::Input => (wl, rl),
            Side::Output => (rl, wl),
        };
        let message = if detail.is_empty() {
            format!("{}: `{path}`", kind.title())
        } else {
            format!("{}: `{path}` {detail}", kind.title())
        };
        self.out.push(Change {
            kind,
            class: kind.class(),
            standing: Standing::Counted,
            path: path.to_string(),
            message,
            old,
            new,
        });
    }

    /// `(old, new)` of a writer/reader pair, for messages that read old → new.
    fn on<T>(&self, w: T, r: T) -> (T, T) {
        match self.side {
            Side::Input => (w, r),
            Side::Output => (r, w),
        }
    }

    fn object(&mut self, w: &'a [Field], r: &'a [Field], path: &str) {
        for rf in r {
            let p = join(path, &rf.name.value);
            match w.iter().find(|f| f.name.value == rf.name.value) {
                Some(wf) => {
                    let saved = (self.w_anchor, self.r_anchor);
                    (self.w_anchor, self.r_anchor) = (wf.span, rf.span);
                    self.field(wf, rf, &p);
                    (self.w_anchor, self.r_anchor) = saved;
                }
                None => self.emit(
                    Ev::ReaderOnlyField {
                        required: rf.required,
                    },
                    &p,
                    None,
                    Some(rf.span),
                    String::new(),
                ),
            }
        }
        for wf in w {
            if !r.iter().any(|f| f.name.value == wf.name.value) {
                let p = join(path, &wf.name.value);
                self.emit(
                    Ev::WriterOnlyField {
                        required: wf.required,
                    },
                    &p,
                    Some(wf.span),
                    None,
                    String::new(),
                );
            }
        }
    }

    /// The extra properties of two objects (`extra`): opened, closed, or their type and
    /// count bounds. A field one side declares and the other reads as an extra compares
    /// with the extras' type, at the field's path.
    fn extras(
        &mut self,
        (wf, wx): (&'a [Field], Option<&'a Extra>),
        (rf, rx): (&'a [Field], Option<&'a Extra>),
        path: &str,
        ws: Option<Span>,
        rs: Option<Span>,
    ) {
        let at = sub(path, "extra");
        match (wx, rx) {
            (None, None) => return,
            (None, Some(_)) => self.emit(Ev::ReaderOpen, &at, ws, rs, String::new()),
            (Some(_), None) => self.emit(Ev::WriterOpen, &at, ws, rs, String::new()),
            (Some(w), Some(r)) => {
                let values = format!("{path}{{}}");
                self.element_nullable(w.nullable, r.nullable, &values, ws, rs);
                self.ty(&w.values, &r.values, &values);
            }
        }
        // A closed object states no count: the bounds of the open side compare with none.
        let n = |x: Option<&'a Extra>, min: bool| {
            x.and_then(|x| if min { &x.min_entries } else { &x.max_entries }.as_ref())
                .map(u)
        };
        self.lower("min-entries", n(wx, true), n(rx, true), path);
        self.upper("max-entries", n(wx, false), n(rx, false), path);
        let named = |fields: &[Field], name: &str| fields.iter().any(|f| f.name.value == name);
        if let Some(w) = wx {
            for f in rf.iter().filter(|f| !named(wf, &f.name.value)) {
                let p = join(path, &f.name.value);
                if w.nullable && !f.nullable && w.values.kind != TyKind::Json {
                    let ev = Ev::NullableDiffers { writer_has: true };
                    self.emit(ev, &sub(&p, "nullable"), ws, Some(f.span), String::new());
                }
                self.ty(&w.values, &f.ty, &p);
                self.one_sided_headers(std::slice::from_ref(f), path, false, ws, rs);
            }
        }
        if let Some(r) = rx {
            for f in wf.iter().filter(|f| !named(rf, &f.name.value)) {
                self.one_sided_headers(std::slice::from_ref(f), path, true, ws, rs);
                let p = join(path, &f.name.value);
                if f.nullable && !r.nullable && r.values.kind != TyKind::Json {
                    let ev = Ev::NullableDiffers { writer_has: true };
                    self.emit(ev, &sub(&p, "nullable"), Some(f.span), rs, String::new());
                }
                self.ty(&f.ty, &r.values, &p);
            }
        }
    }

    /// `null` as an array item, map value or extra property (`nullable=#true` on `items`,
    /// `values`, `extra`), classified as a nullable field's `null` is, at `path.nullable`.
    fn element_nullable(
        &mut self,
        writer: bool,
        reader: bool,
        path: &str,
        ws: Option<Span>,
        rs: Option<Span>,
    ) {
        if writer != reader {
            let ev = Ev::NullableDiffers { writer_has: writer };
            self.emit(ev, &sub(path, "nullable"), ws, rs, String::new());
        }
    }

    /// Clients mirror headers only through declared properties: where one side declares
    /// `fields` and the other reads the same values as extras or free JSON, every header of
    /// `fields` and the objects below them exists on the declaring side only (`writer_has`
    /// says which side that is).
    fn one_sided_headers(
        &mut self,
        fields: &'a [Field],
        path: &str,
        writer_has: bool,
        ws: Option<Span>,
        rs: Option<Span>,
    ) {
        let cat = if writer_has { self.writer } else { self.reader };
        let mut headers = Vec::new();
        nested_headers(cat, fields, path, 0, &mut headers);
        for (p, h) in headers {
            let ev = Ev::HeaderDiffers {
                writer_has,
                reader_has: !writer_has,
                case_only: false,
            };
            let (ws, rs, detail) = if writer_has {
                (Some(h.span), rs, format!("(`{}` → none)", h.value))
            } else {
                (ws, Some(h.span), format!("(none → `{}`)", h.value))
            };
            self.emit(ev, &sub(&p, "header"), ws, rs, detail);
        }
    }

    fn field(&mut self, w: &'a Field, r: &'a Field, path: &str) {
        let (ws, rs) = (Some(w.span), Some(r.span));
        match (w.required, r.required) {
            (false, true) => self.emit(Ev::ReaderRequires, path, ws, rs, String::new()),
            (true, false) => self.emit(Ev::ReaderRelaxes, path, ws, rs, String::new()),
            _ => {}
        }
        let (wd, rd) = (w.default.as_ref(), r.default.as_ref());
        if wd.map(|d| &d.value) != rd.map(|d| &d.value) {
            let (o, n) = self.on(wd, rd);
            let detail = format!(
                "({} → {})",
                o.map_or("none".to_string(), |d| literal(&d.value)),
                n.map_or("none".to_string(), |d| literal(&d.value))
            );
            let ev = Ev::DefaultDiffers {
                writer_has: wd.is_some(),
                reader_has: rd.is_some(),
            };
            self.emit(
                ev,
                &sub(path, "default"),
                wd.map(|d| d.span),
                rd.map(|d| d.span),
                detail,
            );
        }
        let (wdoc, rdoc) = (effective_doc(self.writer, w), effective_doc(self.reader, r));
        if wdoc.map(|d| &d.value) != rdoc.map(|d| &d.value) {
            let span =
                |f: &Field, d: Option<&crate::model::Sp<String>>| d.map_or(f.span, |d| d.span);
            let (ws, rs) = (span(w, wdoc), span(r, rdoc));
            self.emit(
                Ev::DocDiffers,
                &sub(path, "doc"),
                Some(ws),
                Some(rs),
                String::new(),
            );
        }
        let descriptive = [
            (
                "title",
                w.title.as_ref().map(|t| &t.value) != r.title.as_ref().map(|t| &t.value),
            ),
            (
                "examples",
                w.examples
                    .iter()
                    .map(|e| &e.value)
                    .ne(r.examples.iter().map(|e| &e.value)),
            ),
        ];
        for (key, differs) in descriptive {
            if differs {
                self.emit(Ev::DocDiffers, &sub(path, key), ws, rs, String::new());
            }
        }
        self.constant(w, r, path);
        if w.sensitive != r.sensitive {
            self.emit(
                Ev::SensitiveDiffers,
                &sub(path, "sensitive"),
                ws,
                rs,
                String::new(),
            );
        }
        let (wh, rh) = (w.header.as_deref(), r.header.as_deref());
        if wh.map(|h| &h.value) != rh.map(|h| &h.value) {
            let (o, n) = self.on(wh, rh);
            let name = |h: Option<&crate::model::Sp<String>>| {
                h.map_or("none".to_string(), |h| format!("`{}`", h.value))
            };
            let ev = Ev::HeaderDiffers {
                writer_has: wh.is_some(),
                reader_has: rh.is_some(),
                case_only: wh
                    .zip(rh)
                    .is_some_and(|(a, b)| a.value.eq_ignore_ascii_case(&b.value)),
            };
            self.emit(
                ev,
                &sub(path, "header"),
                wh.map(|h| h.span),
                rh.map(|h| h.span),
                format!("({} → {})", name(o), name(n)),
            );
        }
        if w.nullable != r.nullable {
            let ev = Ev::NullableDiffers {
                writer_has: w.nullable,
            };
            self.emit(ev, &sub(path, "nullable"), ws, rs, String::new());
        }
        if w.deprecated != r.deprecated {
            let (_, new) = self.on(w, r);
            let ev = Ev::DeprecatedDiffers {
                in_new: new.deprecated,
            };
            self.emit(ev, &sub(path, "deprecated"), ws, rs, String::new());
        }
        self.ty(&w.ty, &r.ty, path);
    }

    fn ty(&mut self, w: &'a Ty, r: &'a Ty, path: &str) {
        let (wn, rn) = (normalize(self.writer, w), normalize(self.reader, r));
        let (ws, rs) = (Some(w.span), Some(r.span));
        match (wn, rn) {
            (Norm::Str(a), Norm::Str(b)) => self.string(a, b, path),
            (Norm::Int(a), Norm::Int(b)) => self.number((a, b), true, path, ws, rs),
            (Norm::Num(a), Norm::Num(b)) => self.number((a, b), false, path, ws, rs),
            (Norm::Bool, Norm::Bool) => {}
            (Norm::Arr(a), Norm::Arr(b)) => {
                self.lower(
                    "min-items",
                    a.min_items.as_ref().map(u),
                    b.min_items.as_ref().map(u),
                    path,
                );
                self.upper(
                    "max-items",
                    a.max_items.as_ref().map(u),
                    b.max_items.as_ref().map(u),
                    path,
                );
                self.flag("unique", a.unique, b.unique, path, ws, rs);
                let items = format!("{path}[]");
                self.element_nullable(a.items_nullable, b.items_nullable, &items, ws, rs);
                self.ty(&a.items, &b.items, &items);
            }
            (Norm::Obj(a, ax), Norm::Obj(b, bx)) => {
                self.object(a, b, path);
                self.extras((a, ax), (b, bx), path, ws, rs);
            }
            (Norm::Map(a), Norm::Map(b)) => {
                let n = |v: &Option<crate::model::Sp<u64>>| v.as_ref().map(u);
                self.lower("min-entries", n(&a.min_entries), n(&b.min_entries), path);
                self.upper("max-entries", n(&a.max_entries), n(&b.max_entries), path);
                let values = format!("{path}{{}}");
                self.element_nullable(a.values_nullable, b.values_nullable, &values, ws, rs);
                self.ty(&a.values, &b.values, &values);
            }
            (Norm::Union(a), Norm::Union(b)) => self.union(a, b, path, ws, rs),
            (Norm::Json, Norm::Json) => {}
            (a, Norm::Json) => {
                let (o, n) = self.on(norm_name(&a), "json");
                self.emit(Ev::ReaderAny, path, ws, rs, format!("({o} → {n})"));
                if let Norm::Obj(fields, _) = a {
                    self.one_sided_headers(fields, path, true, ws, rs);
                }
            }
            (Norm::Json, b) => {
                let (o, n) = self.on("json", norm_name(&b));
                self.emit(Ev::WriterAny, path, ws, rs, format!("({o} → {n})"));
            }
            (a, b) => {
                let (o, n) = self.on(norm_name(&a), norm_name(&b));
                self.emit(Ev::TypeDiffers, path, ws, rs, format!("({o} → {n})"));
            }
        }
    }

    fn string(&mut self, w: StrView<'a>, r: StrView<'a>, path: &str) {
        let f = |o: Option<(u64, Span)>| o.map(|(v, s)| (v as f64, s));
        self.lower("min-length", f(w.min_length), f(r.min_length), path);
        self.upper("max-length", f(w.max_length), f(r.max_length), path);
        let pp = sub(path, "pattern");
        let path_pattern = pp.as_str();
        match (w.pattern, r.pattern) {
            (None, Some((_, s))) => self.emit(
                Ev::PatternReaderOnly,
                path_pattern,
                None,
                Some(s),
                String::new(),
            ),
            (Some((_, s)), None) => self.emit(
                Ev::PatternWriterOnly,
                path_pattern,
                Some(s),
                None,
                String::new(),
            ),
            (Some((a, sa)), Some((b, sb))) if a != b => {
                let (o, n) = self.on(a, b);
                self.emit(
                    Ev::PatternDiffers,
                    path_pattern,
                    Some(sa),
                    Some(sb),
                    format!("(`{o}` → `{n}`)"),
                );
            }
            _ => {}
        }
        let fp = sub(path, "format");
        let path_format = fp.as_str();
        match (w.format, r.format) {
            (None, Some((fmt, s))) => self.emit(
                Ev::FormatReaderOnly,
                path_format,
                None,
                Some(s),
                format!("(`{}`)", fmt.as_str()),
            ),
            (Some((fmt, s)), None) => self.emit(
                Ev::FormatWriterOnly,
                path_format,
                Some(s),
                None,
                format!("(`{}`)", fmt.as_str()),
            ),
            (Some((a, sa)), Some((b, sb))) if a != b => {
                let (o, n) = self.on(a.as_str(), b.as_str());
                self.emit(
                    Ev::FormatDiffers,
                    path_format,
                    Some(sa),
                    Some(sb),
                    format!("({o} → {n})"),
                );
            }
            _ => {}
        }
        let listed = |e: &'a EnumValues| EnumList {
            values: Values::Strings(&e.values),
            extensible: e.extensible,
            span: e.span,
        };
        self.enumeration(w.enumeration.map(listed), r.enumeration.map(listed), path);
    }

    /// The `enum` of a string or number: a restriction added or removed, or values each side
    /// lacks.
    fn enumeration(&mut self, w: Option<EnumList<'a>>, r: Option<EnumList<'a>>, path: &str) {
        match (w, r) {
            (None, Some(e)) => self.emit(
                Ev::Narrower,
                &sub(path, "enum"),
                None,
                Some(e.span),
                "(`enum` restriction)".into(),
            ),
            (Some(e), None) => self.emit(
                Ev::Wider,
                &sub(path, "enum"),
                Some(e.span),
                None,
                "(`enum` restriction)".into(),
            ),
            (Some(we), Some(re)) => {
                if we.extensible != re.extensible {
                    let ev = Ev::ExtensibleDiffers {
                        writer_has: we.extensible,
                    };
                    let (o, n) = self.on(we.extensible, re.extensible);
                    let detail = format!("(`extensible` {o} → {n})");
                    let p = sub(path, "extensible");
                    self.emit(ev, &p, Some(we.span), Some(re.span), detail);
                }
                // The model holds no value twice in one list, so a common prefix holds every
                // value both sides share up to there, and no value after it equals one in it:
                // only the rest is looked up, each side's values as keys (linear in the values,
                // where comparing them pairwise would be quadratic; an unchanged enum needs no
                // keys at all).
                let (wn, rn) = (we.values.len(), re.values.len());
                let same = (0..wn.min(rn))
                    .take_while(|&i| we.values.get(i).0.key() == re.values.get(i).0.key())
                    .count();
                let keys = |list: &EnumList<'a>, n: usize| -> crate::FastSet<ValueKey<'a>> {
                    (same..n).map(|i| list.values.get(i).0.key()).collect()
                };
                let (wk, rk) = (keys(&we, wn), keys(&re, rn));
                for (v, span) in (same..wn).map(|i| we.values.get(i)) {
                    if !rk.contains(&v.key()) {
                        let ev = Ev::WriterEnumValueUnknown {
                            reader_extensible: re.extensible,
                        };
                        let v = v.literal();
                        let p = format!("{path}.enum[{}]", enum_key(&v));
                        let detail = format!("(`{}`)", enum_text(&v));
                        self.emit(ev, &p, Some(span), Some(re.span), detail);
                    }
                }
                for (v, span) in (same..rn).map(|i| re.values.get(i)) {
                    if !wk.contains(&v.key()) {
                        let ev = Ev::ReaderEnumValueUnused;
                        let v = v.literal();
                        let p = format!("{path}.enum[{}]", enum_key(&v));
                        let detail = format!("(`{}`)", enum_text(&v));
                        self.emit(ev, &p, Some(we.span), Some(span), detail);
                    }
                }
            }
            (None, None) => {}
        }
    }

    /// A union's variants are the values of its discriminator: one the writer alone has is
    /// a shape the reader does not know, one the reader alone has a shape never sent.
    /// Variants in both compare as objects (their docs as a field's); another discriminator
    /// shares no value.
    fn union(
        &mut self,
        w: &'a UnionTy,
        r: &'a UnionTy,
        path: &str,
        ws: Option<Span>,
        rs: Option<Span>,
    ) {
        if w.discriminator.value != r.discriminator.value {
            let (o, n) = self.on(&w.discriminator.value, &r.discriminator.value);
            let detail = format!("(discriminator `{o}` → `{n}`)");
            let p = sub(path, "discriminator");
            self.emit(Ev::DiscriminatorDiffers, &p, ws, rs, detail);
            return;
        }
        for wv in &w.variants {
            let p = format!("{path}<{}>", wv.name.value);
            match r.variants.iter().find(|v| v.name.value == wv.name.value) {
                Some(rv) => {
                    let saved = (self.w_anchor, self.r_anchor);
                    (self.w_anchor, self.r_anchor) = (wv.fields.span, rv.fields.span);
                    let (wd, rd) = (wv.doc.as_ref(), rv.doc.as_ref());
                    if wd.map(|d| &d.value) != rd.map(|d| &d.value) {
                        let (ws, rs) = (wd.map(|d| d.span), rd.map(|d| d.span));
                        self.emit(Ev::DocDiffers, &sub(&p, "doc"), ws, rs, String::new());
                    }
                    self.object(&wv.fields.fields, &rv.fields.fields, &p);
                    (self.w_anchor, self.r_anchor) = saved;
                }
                None => {
                    let detail = format!("(variant `{}`)", wv.name.value);
                    let ev = Ev::WriterVariantUnknown;
                    self.emit(ev, &p, Some(wv.name.span), rs, detail);
                }
            }
        }
        for rv in &r.variants {
            if !w.variants.iter().any(|v| v.name.value == rv.name.value) {
                let p = format!("{path}<{}>", rv.name.value);
                let detail = format!("(variant `{}`)", rv.name.value);
                let ev = Ev::ReaderVariantUnused;
                self.emit(ev, &p, ws, Some(rv.name.span), detail);
            }
        }
    }

    /// `const=`: a constant the reader alone has narrows what it accepts, one the writer
    /// alone has widens it, and two different ones share no value.
    fn constant(&mut self, w: &Field, r: &Field, path: &str) {
        let (wc, rc) = (w.constant.as_deref(), r.constant.as_deref());
        let ev = match (wc, rc) {
            (None, Some(_)) => Ev::Narrower,
            (Some(_), None) => Ev::Wider,
            (Some(a), Some(b)) if !same_value(&a.value, &b.value) => Ev::Incomparable,
            _ => return,
        };
        let (o, n) = self.on(wc, rc);
        let show =
            |c: Option<&crate::model::Sp<Literal>>| c.map_or("none".into(), |c| literal(&c.value));
        let detail = format!("(`const` {} → {})", show(o), show(n));
        self.emit(
            ev,
            &sub(path, "const"),
            wc.map_or(Some(w.span), |c| Some(c.span)),
            rc.map_or(Some(r.span), |c| Some(c.span)),
            detail,
        );
    }

    fn number(
        &mut self,
        (w, r): (&'a NumTy, &'a NumTy),
        integer: bool,
        path: &str,
        ws: Option<Span>,
        rs: Option<Span>,
    ) {
        let f = |o: &Option<crate::model::Sp<Num>>| o.as_ref().map(|v| (v.value.as_f64(), v.span));
        for end in [End::Lower, End::Upper] {
            let (wb, rb) = (Bound::of(w, end, integer), Bound::of(r, end, integer));
            self.bound(wb, rb, path);
        }
        let listed = |e: &'a crate::model::NumEnum| EnumList {
            values: Values::Numbers(&e.values),
            extensible: false,
            span: e.span,
        };
        self.enumeration(
            w.enum_values.as_ref().map(listed),
            r.enum_values.as_ref().map(listed),
            path,
        );
        let (wm, rm) = (f(&w.multiple_of), f(&r.multiple_of));
        let ev = match (wm, rm) {
            (None, Some(_)) => Some(Ev::Narrower),
            (Some(_), None) => Some(Ev::Wider),
            (Some((a, _)), Some((b, _))) if a != b => Some(if divides(b, a) {
                Ev::Wider
            } else if divides(a, b) {
                Ev::Narrower
            } else {
                Ev::Incomparable
            }),
            _ => None,
        };
        if let Some(ev) = ev {
            let detail = self.bound_detail("multiple-of", wm.map(|x| x.0), rm.map(|x| x.0));
            self.emit(
                ev,
                &sub(path, "multiple-of"),
                wm.map(|x| x.1).or(ws),
                rm.map(|x| x.1).or(rs),
                detail,
            );
        }
        let (wu, ru) = (w.unit.as_ref(), r.unit.as_ref());
        if wu.map(|x| x.value) != ru.map(|x| x.value) {
            let (o, n) = self.on(wu, ru);
            let name = |x: Option<&crate::model::Sp<Unit>>| x.map_or("none", |x| x.value.as_str());
            let detail = format!("({} → {})", name(o), name(n));
            self.emit(
                Ev::UnitDiffers,
                &sub(path, "unit"),
                wu.map(|x| x.span).or(ws),
                ru.map(|x| x.span).or(rs),
                detail,
            );
        }
    }

    /// One end of a number's range, however each side spells it: the reader is narrower
    /// when its bound is tighter. On an `integer`, `min=1` and `exclusive-min=0` are one
    /// bound, as are `max=9` and `exclusive-max=10`.
    fn bound(&mut self, w: Option<Bound>, r: Option<Bound>, path: &str) {
        let ev = match (w, r) {
            (None, Some(_)) => Ev::Narrower,
            (Some(_), None) => Ev::Wider,
            (Some(a), Some(b)) => match b.at.partial_cmp(&a.at) {
                Some(std::cmp::Ordering::Greater) => Ev::Narrower,
                Some(std::cmp::Ordering::Less) => Ev::Wider,
                _ => return,
            },
            (None, None) => return,
        };
        let (o, n) = self.on(w, r);
        // The new side's keyword names the change, else the old side's.
        let key = n.or(o).map_or("min", |b| b.key);
        let show = |b: Option<Bound>, with_key: bool| match b {
            None => "none".to_string(),
            Some(b) if with_key => format!("`{}` {}", b.key, fmt_num(b.shown)),
            Some(b) => fmt_num(b.shown),
        };
        let same_key = o.zip(n).is_none_or(|(o, n)| o.key == n.key);
        let detail = if same_key {
            format!("(`{key}` {} → {})", show(o, false), show(n, false))
        } else {
            format!("({} → {})", show(o, true), show(n, true))
        };
        let (wspan, rspan) = (w.map(|b| b.span), r.map(|b| b.span));
        self.emit(ev, &sub(path, key), wspan, rspan, detail);
    }

    fn bound_detail(&self, key: &str, w: Option<f64>, r: Option<f64>) -> String {
        let (o, n) = self.on(w, r);
        let show = |x: Option<f64>| x.map_or("none".to_string(), fmt_num);
        format!("(`{key}` {} → {})", show(o), show(n))
    }

    /// A lower bound (`min`, `min-length`, …): the reader is narrower when its bound is higher.
    fn lower(&mut self, key: &str, w: Option<(f64, Span)>, r: Option<(f64, Span)>, path: &str) {
        let ev = match (w, r) {
            (None, Some(_)) => Ev::Narrower,
            (Some(_), None) => Ev::Wider,
            (Some((a, _)), Some((b, _))) if b > a => Ev::Narrower,
            (Some((a, _)), Some((b, _))) if b < a => Ev::Wider,
            _ => return,
        };
        let detail = self.bound_detail(key, w.map(|x| x.0), r.map(|x| x.0));
        self.emit(ev, &sub(path, key), w.map(|x| x.1), r.map(|x| x.1), detail);
    }

    /// An upper bound (`max`, `max-length`, …): the reader is narrower when its bound is lower.
    fn upper(&mut self, key: &str, w: Option<(f64, Span)>, r: Option<(f64, Span)>, path: &str) {
        let ev = match (w, r) {
            (None, Some(_)) => Ev::Narrower,
            (Some(_), None) => Ev::Wider,
            (Some((a, _)), Some((b, _))) if b < a => Ev::Narrower,
            (Some((a, _)), Some((b, _))) if b > a => Ev::Wider,
            _ => return,
        };
        let detail = self.bound_detail(key, w.map(|x| x.0), r.map(|x| x.0));
        self.emit(ev, &sub(path, key), w.map(|x| x.1), r.map(|x| x.1), detail);
    }

    /// A restriction that is on or off (`unique`).
    fn flag(
        &mut self,
        key: &str,
        w: bool,
        r: bool,
        path: &str,
        ws: Option<Span>,
        rs: Option<Span>,
    ) {
        let ev = match (w, r) {
            (false, true) => Ev::Narrower,
            (true, false) => Ev::Wider,
            _ => return,
        };
        let (o, n) = self.on(w, r);
        self.emit(ev, &sub(path, key), ws, rs, format!("(`{key}` {o} → {n})"));
    }
}

/// Which end of a number's range.
#[derive(Clone, Copy, PartialEq)]
enum End {
    Lower,
    Upper,
}

/// Where a bound sits, in an order where greater is tighter (for either end).
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Tightness {
    /// An `integer`'s bound as the inclusive whole number it admits, negated for an upper
    /// bound.
    Whole(i128),
    /// A `number`'s bound, negated for an upper bound, then whether it is exclusive.
    Real(f64, bool),
}

/// The effective bound at one end of a number's range: the tighter of the inclusive and the
/// exclusive keyword.
#[derive(Clone, Copy)]
struct Bound {
    /// The keyword that sets it (`min`, `exclusive-min`, `max`, `exclusive-max`).
    key: &'static str,
    /// Its value as written, for messages.
    shown: f64,
    span: Span,
    at: Tightness,
}

impl Bound {
    fn of(n: &NumTy, end: End, integer: bool) -> Option<Bound> {
        let (inclusive, exclusive, keys) = match end {
            End::Lower => (&n.min, &n.exclusive_min, ("min", "exclusive-min")),
            End::Upper => (&n.max, &n.exclusive_max, ("max", "exclusive-max")),
        };
        let one = |v: &Option<crate::model::Sp<Num>>, key: &'static str, excl: bool| {
            v.as_ref().map(|v| Bound {
                key,
                shown: v.value.as_f64(),
                span: v.span,
                at: tightness(v.value, end, excl, integer),
            })
        };
        let (a, b) = (one(inclusive, keys.0, false), one(exclusive, keys.1, true));
        match (a, b) {
            // On a tie the inclusive keyword, the plainer spelling, names the bound.
            (Some(a), Some(b)) => Some(if b.at > a.at { b } else { a }),
            (a, b) => a.or(b),
        }
    }
}

/// A bound's place in the order of [`Tightness`]. An `integer` admits whole numbers only, so
/// its bound is the first whole number inside: `exclusive-min=0` is `min=1`, `min=0.5` is
/// `min=1`, `exclusive-max=10` is `max=9` (exact for every `i64`; a float bound beyond the
/// `i128` range saturates, still ordered).
fn tightness(v: Num, end: End, exclusive: bool, integer: bool) -> Tightness {
    if !integer {
        let x = v.as_f64();
        return match end {
            End::Lower => Tightness::Real(x, exclusive),
            End::Upper => Tightness::Real(-x, exclusive),
        };
    }
    let whole = match (v, end) {
        (Num::Int(i), End::Lower) => i128::from(i) + i128::from(exclusive),
        (Num::Int(i), End::Upper) => i128::from(i) - i128::from(exclusive),
        (Num::Float(f), End::Lower) if exclusive => (f.floor() as i128).saturating_add(1),
        (Num::Float(f), End::Lower) => f.ceil() as i128,
        (Num::Float(f), End::Upper) if exclusive => (f.ceil() as i128).saturating_sub(1),
        (Num::Float(f), End::Upper) => f.floor() as i128,
    };
    Tightness::Whole(match end {
        End::Lower => whole,
        End::Upper => whole.saturating_neg(),
    })
}

/// The values of a string or numeric `enum`, borrowed from the model.
struct EnumList<'a> {
    values: Values<'a>,
    extensible: bool,
    span: Span,
}

#[derive(Clone, Copy)]
enum Values<'a> {
    Strings(&'a [crate::model::Sp<String>]),
    Numbers(&'a [crate::model::Sp<Num>]),
}

impl<'a> Values<'a> {
    fn len(self) -> usize {
        match self {
            Values::Strings(v) => v.len(),
            Values::Numbers(v) => v.len(),
        }
    }

    /// The value at `i < len()`, with its span.
    fn get(self, i: usize) -> (EnumValue<'a>, Span) {
        match self {
            Values::Strings(v) => (EnumValue::Str(&v[i].value), v[i].span),
            Values::Numbers(v) => (EnumValue::Num(v[i].value), v[i].span),
        }
    }
}

/// One value of an [`EnumList`].
#[derive(Clone, Copy, Debug)]
enum EnumValue<'a> {
    Str(&'a str),
    Num(Num),
}

impl<'a> EnumValue<'a> {
    /// [`same_value`]'s equality as a key: numbers by [`Num::key`], strings as themselves.
    fn key(self) -> ValueKey<'a> {
        match self {
            EnumValue::Str(s) => ValueKey::String(s),
            EnumValue::Num(n) => ValueKey::Number(n.key()),
        }
    }

    fn literal(self) -> Literal {
        match self {
            EnumValue::Str(s) => Literal::String(s.to_string()),
            EnumValue::Num(n) => num_literal(n),
        }
    }
}

#[derive(PartialEq, Eq, Hash)]
enum ValueKey<'a> {
    Number(u64),
    String(&'a str),
}

fn num_literal(n: Num) -> Literal {
    match n {
        Num::Int(i) => Literal::Int(i),
        Num::Float(f) => Literal::Float(f),
    }
}

/// Equal as JSON values: `1` and `1.0` are one number. (The model holds finite numbers only,
/// so no NaN reaches here or [`EnumValue::key`].)
fn same_value(a: &Literal, b: &Literal) -> bool {
    let as_f64 = |l: &Literal| match l {
        Literal::Int(i) => Some(*i as f64),
        Literal::Float(f) => Some(*f),
        _ => None,
    };
    match (as_f64(a), as_f64(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// An enum value in a change path: strings quoted (`enum["open"]`), numbers bare (`enum[3]`).
fn enum_key(l: &Literal) -> String {
    match l {
        Literal::String(s) => format!("{s:?}"),
        other => literal(other),
    }
}

/// An enum value in a change message: strings as written, without quotes.
fn enum_text(l: &Literal) -> String {
    match l {
        Literal::String(s) => s.clone(),
        other => literal(other),
    }
}

fn u(v: &crate::model::Sp<u64>) -> (f64, Span) {
    (v.value as f64, v.span)
}

/// Whether `a` is a whole multiple of `b`.
fn divides(b: f64, a: f64) -> bool {
    if b == 0.0 {
        return false;
    }
    let q = a / b;
    q.is_finite() && (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

fn literal(l: &Literal) -> String {
    match l {
        Literal::String(s) => format!("{s:?}"),
        Literal::Int(i) => i.to_string(),
        Literal::Float(f) => f.to_string(),
        Literal::Bool(b) => if *b { "#true" } else { "#false" }.to_string(),
        Literal::Null => "#null".to_string(),
    }
}

/// The `header=` of every field in `fields` and the objects below them (through object
/// fields only, as clients mirror them), with each field's path.
fn nested_headers<'c>(
    cat: &'c Catalog,
    fields: &'c [Field],
    path: &str,
    depth: usize,
    out: &mut Vec<(String, &'c crate::model::Sp<String>)>,
) {
    if depth > crate::model::inline::MAX_INLINED_DEPTH {
        return;
    }
    for f in fields {
        let p = join(path, &f.name.value);
        if let Some(h) = &f.header {
            out.push((p.clone(), h));
        }
        let inner = match &f.ty.kind {
            TyKind::Object(o) => &o.fields[..],
            TyKind::Named(n) => cat.type_def(&n.value).map_or(&[][..], |t| &t.fields[..]),
            _ => continue,
        };
        nested_headers(cat, inner, &p, depth + 1, out);
    }
}

/// A field's doc, else the doc of the named type it uses (as the schema's `description`).
fn effective_doc<'c>(cat: &'c Catalog, f: &'c Field) -> Option<&'c crate::model::Sp<String>> {
    f.doc.as_ref().or_else(|| match &f.ty.kind {
        TyKind::Named(n) => cat.type_def(&n.value).and_then(|t| t.doc.as_ref()),
        _ => None,
    })
}

/// An attribute of the field at `path` (`input.page_size.max`): findings on different
/// attributes of one field get different paths, hence different fingerprints.
fn sub(path: &str, key: &str) -> String {
    format!("{path}.{key}")
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// Field-level changes of one side of a tool. `None` outputs read as an empty object: adding
/// structured output adds fields, removing it removes them.
pub(super) fn side(
    side: Side,
    old_cat: &Catalog,
    old: &Tool,
    new_cat: &Catalog,
    new: &Tool,
    out: &mut Vec<Change>,
) {
    fn fields(side: Side, t: &Tool) -> &[Field] {
        t.object(side).map_or(&[], |o| &o.fields)
    }
    let (writer, reader, w, r) = match side {
        Side::Input => (old_cat, new_cat, old, new),
        Side::Output => (new_cat, old_cat, new, old),
    };
    let anchor = |t: &Tool| match side {
        Side::Input => t.input.span,
        Side::Output => t.output.as_ref().map_or(t.span, |o| o.span),
    };
    let mut walker = Reader {
        side,
        writer,
        reader,
        out,
        w_anchor: anchor(w),
        r_anchor: anchor(r),
    };
    walker.object(fields(side, w), fields(side, r), side.as_str());
}

/// Field-level changes of the `detail` of each error declared with one on both sides: the
/// server writes it and clients read it, so it is classed as output, at
/// `error.CODE.detail.…`. A detail declared or removed is a tool-level change.
pub(super) fn details(
    old_cat: &Catalog,
    old: &Tool,
    new_cat: &Catalog,
    new: &Tool,
    out: &mut Vec<Change>,
) {
    for ne in &new.errors {
        let Some(oe) = old.errors.iter().find(|e| e.code.value == ne.code.value) else {
            continue;
        };
        let (Some(w), Some(r)) = (&ne.detail, &oe.detail) else {
            continue;
        };
        let mut walker = Reader {
            side: Side::Output,
            writer: new_cat,
            reader: old_cat,
            out: &mut *out,
            w_anchor: w.span,
            r_anchor: r.span,
        };
        let path = format!("error.{}.detail", ne.code.value);
        walker.object(&w.fields, &r.fields, &path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key set stands in for pairwise `same_value` in enum comparison, so the two must agree
    /// on every pair, including `1`/`1.0`, `0`/`-0.0` and a number against a string.
    #[test]
    fn value_keys_are_equal_exactly_when_values_are() {
        let values = [
            EnumValue::Num(Num::Int(0)),
            EnumValue::Num(Num::Int(1)),
            EnumValue::Num(Num::Int(-1)),
            EnumValue::Num(Num::Int(i64::MAX)),
            EnumValue::Num(Num::Int(9_007_199_254_740_993)),
            EnumValue::Num(Num::Float(0.0)),
            EnumValue::Num(Num::Float(-0.0)),
            EnumValue::Num(Num::Float(1.0)),
            EnumValue::Num(Num::Float(1.5)),
            EnumValue::Num(Num::Float(-1.0)),
            EnumValue::Num(Num::Float(9_007_199_254_740_992.0)),
            EnumValue::Str("1"),
            EnumValue::Str("0"),
            EnumValue::Str(""),
        ];
        for a in values {
            for b in values {
                assert_eq!(
                    a.key() == b.key(),
                    same_value(&a.literal(), &b.literal()),
                    "{a:?} vs {b:?}"
                );
            }
        }
    }
}
