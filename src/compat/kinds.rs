//! The registry of change kinds: every row of docs/compatibility.md's tables, with a stable ID, its
//! class and its documentation. IDs are a public contract (baselines, CI filters): never
//! rename one, only add.

use crate::diag::emit::{RuleMeta, RuleMetadata};
use std::fmt;

/// How much a change breaks: the semver bump it requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// No contract change (documentation, selection text, examples).
    Patch,
    /// Additive: every old caller and reader keeps working.
    Minor,
    /// Breaking for some caller or reader.
    Major,
}

impl Class {
    /// The lowercase name used in reports: `patch`, `minor` or `major`.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Patch => "patch",
            Class::Minor => "minor",
            Class::Major => "major",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

pub use crate::model::Side;

/// Where a kind sits with respect to the input/output mirror (the symmetry contract).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mirror {
    /// A field-level kind; the same edit on the other side is this kind.
    Other(Kind),
    /// A field-level kind that exists on one side only, and why.
    OneSided(&'static str),
    /// A tool-level kind: there is no input/output side.
    ToolLevel,
}

macro_rules! kinds {
    ($( $variant:ident = $id:literal, $class:ident, $title:literal, $doc:literal,
        mirror: $mirror:expr, reverse: [$($rev:ident),*]; )*) => {
        /// One change kind (a row of docs/compatibility.md, for one side where sides matter).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Kind { $(#[doc = $title] $variant),* }

        impl Kind {
            /// Every kind, in declaration (documentation) order.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),*];

            /// The stable ID, `compat/…`.
            pub fn id(self) -> &'static str {
                match self { $(Kind::$variant => $id),* }
            }

            /// The semver bump this kind of change requires.
            pub fn class(self) -> Class {
                match self { $(Kind::$variant => Class::$class),* }
            }

            /// One line: what changed.
            pub fn title(self) -> &'static str {
                match self { $(Kind::$variant => $title),* }
            }

            /// Why the kind has its class, and what to do about it.
            pub fn doc(self) -> &'static str {
                match self { $(Kind::$variant => $doc),* }
            }

            /// The kind the same edit is on the other side (input/output), or why there is none.
            pub fn mirror(self) -> Mirror {
                #[allow(unused_imports)]
                use Kind::*;
                match self { $(Kind::$variant => $mirror),* }
            }

            /// The kinds the reverse edit (new → old) is classified as.
            pub fn reverse(self) -> &'static [Kind] {
                match self { $(Kind::$variant => &[$(Kind::$rev),*]),* }
            }
        }
    };
}

use Mirror::{OneSided, Other, ToolLevel};

const DEFAULT_ONE_SIDED: &str = "a default tells the reader what an omitted field means; only \
     the server reads input, and output values are written by the server itself, so an \
     output default is documentation (its change still changes the output hash)";

const HEADER_ONE_SIDED: &str = "only arguments are mirrored into request headers \
     (`x-mcp-header` exists in input schemas only; lint reports `header=` on an output field)";

const EXTENSIBLE_ONE_SIDED: &str = "`extensible=#true` decides how an output enum value added \
     later is classed; adding an input enum value is minor either way, so on input the flag \
     changes no class and is not a change";

kinds! {
    InputFieldOptionalAdded = "compat/input-field-optional-added", Minor,
        "optional input field added",
        "The server accepts a new optional argument. Calls written for the old version omit it, which stays valid.",
        mirror: Other(OutputFieldOptionalAdded), reverse: [InputFieldRemoved];
    OutputFieldOptionalAdded = "compat/output-field-optional-added", Minor,
        "optional output field added",
        "The server may return a new field. Readers ignore fields they do not know (tolerant reader), so old clients keep working.",
        mirror: Other(InputFieldOptionalAdded), reverse: [OutputFieldRemoved];
    InputFieldRequiredAdded = "compat/input-field-required-added", Major,
        "required input field added",
        "Every call written for the old version omits the new field and is now rejected. Make the field optional with a default, or ship a new tool.",
        mirror: Other(OutputFieldRequiredAdded), reverse: [InputFieldRemoved];
    OutputFieldRequiredAdded = "compat/output-field-required-added", Minor,
        "required output field added",
        "The server always returns a new field. Old clients ignore it (tolerant reader).",
        mirror: Other(InputFieldRequiredAdded), reverse: [OutputFieldRemoved];
    InputFieldRemoved = "compat/input-field-removed", Major,
        "input field removed",
        "Input objects are closed (`additionalProperties: false`): old calls that pass the field are rejected.",
        mirror: Other(OutputFieldRemoved), reverse: [InputFieldOptionalAdded, InputFieldRequiredAdded];
    OutputFieldRemoved = "compat/output-field-removed", Major,
        "output field removed",
        "Clients were written to read the field (even an optional one: they use it when present); the server never sends it again.",
        mirror: Other(InputFieldRemoved), reverse: [OutputFieldOptionalAdded, OutputFieldRequiredAdded];
    InputFieldMadeRequired = "compat/input-field-made-required", Major,
        "input field changed from optional to required",
        "Old calls that omit the field are now rejected.",
        mirror: Other(OutputFieldMadeRequired), reverse: [InputFieldMadeOptional];
    OutputFieldMadeRequired = "compat/output-field-made-required", Minor,
        "output field changed from optional to required",
        "Clients already handle the field being present; it now always is.",
        mirror: Other(InputFieldMadeRequired), reverse: [OutputFieldMadeOptional];
    InputFieldMadeOptional = "compat/input-field-made-optional", Minor,
        "input field changed from required to optional",
        "Old calls always pass the field, which stays valid.",
        mirror: Other(OutputFieldMadeOptional), reverse: [InputFieldMadeRequired];
    OutputFieldMadeOptional = "compat/output-field-made-optional", Major,
        "output field changed from required to optional",
        "Clients rely on the field being present; the server may now omit it.",
        mirror: Other(InputFieldMadeOptional), reverse: [OutputFieldMadeRequired];
    InputTypeChanged = "compat/input-type-changed", Major,
        "input field type changed",
        "Values of the old type are rejected by the new schema (or mean something else).",
        mirror: Other(OutputTypeChanged), reverse: [InputTypeChanged];
    OutputTypeChanged = "compat/output-type-changed", Major,
        "output field type changed",
        "Clients parse the old type; values of the new type break them.",
        mirror: Other(InputTypeChanged), reverse: [OutputTypeChanged];
    InputEnumValueAdded = "compat/input-enum-value-added", Minor,
        "input enum value added",
        "The server accepts one more value; every old value stays valid.",
        mirror: Other(OutputEnumValueAdded), reverse: [InputEnumValueRemoved];
    OutputEnumValueAdded = "compat/output-enum-value-added", Major,
        "output enum value added",
        "Clients that match the enum exhaustively meet a value they do not know. Declare the enum `extensible=#true` up front to make additions minor.",
        mirror: Other(InputEnumValueAdded), reverse: [OutputEnumValueRemoved];
    OutputEnumValueAddedExtensible = "compat/output-enum-value-added-extensible", Minor,
        "output enum value added to an extensible enum",
        "The old schema declared the enum `extensible=#true`: clients were told to accept values added later.",
        mirror: OneSided("adding an input enum value is minor whether or not the enum is extensible, so the input side has only compat/input-enum-value-added"),
        reverse: [OutputEnumValueRemoved];
    InputEnumValueRemoved = "compat/input-enum-value-removed", Major,
        "input enum value removed",
        "Old calls that pass the removed value are rejected.",
        mirror: Other(OutputEnumValueRemoved), reverse: [InputEnumValueAdded];
    OutputEnumValueRemoved = "compat/output-enum-value-removed", Minor,
        "output enum value removed",
        "The server produces fewer values; clients handle every remaining one.",
        mirror: Other(InputEnumValueRemoved), reverse: [OutputEnumValueAdded, OutputEnumValueAddedExtensible];
    OutputEnumMadeExtensible = "compat/output-enum-made-extensible", Major,
        "output enum made extensible",
        "Old clients were given a closed enum and may match it exhaustively. Declaring it `extensible=#true` makes every later addition minor, so the declaration is where those clients break: comparing step by step must never pass what comparing the first and last versions fails.",
        mirror: OneSided(EXTENSIBLE_ONE_SIDED), reverse: [OutputEnumMadeClosed];
    OutputEnumMadeClosed = "compat/output-enum-made-closed", Minor,
        "output enum no longer extensible",
        "Clients were told to accept values added later and still do; the server now promises to add none without a major version.",
        mirror: OneSided(EXTENSIBLE_ONE_SIDED), reverse: [OutputEnumMadeExtensible];
    InputBoundTightened = "compat/input-bound-tightened", Major,
        "input bound tightened",
        "A `max`/`max-length`/`max-items` lowered, a `min…` raised, an `exclusive-…`, `multiple-of`, `unique` or `enum` restriction added: some old calls are rejected.",
        mirror: Other(OutputBoundTightened), reverse: [InputBoundLoosened];
    OutputBoundTightened = "compat/output-bound-tightened", Minor,
        "output bound tightened",
        "The server produces a subset of what it produced before; clients handle all of it.",
        mirror: Other(InputBoundTightened), reverse: [OutputBoundLoosened];
    InputBoundLoosened = "compat/input-bound-loosened", Minor,
        "input bound loosened",
        "The server accepts more than before; every old call stays valid.",
        mirror: Other(OutputBoundLoosened), reverse: [InputBoundTightened];
    OutputBoundLoosened = "compat/output-bound-loosened", Major,
        "output bound loosened",
        "The server may produce values outside what clients were told to expect (longer strings, bigger numbers, more items).",
        mirror: Other(InputBoundLoosened), reverse: [OutputBoundTightened];
    InputBoundChanged = "compat/input-bound-changed", Major,
        "input bound changed incomparably",
        "A `multiple-of` replaced by one that neither divides nor is divided by the old one: some old calls are rejected.",
        mirror: Other(OutputBoundChanged), reverse: [InputBoundChanged];
    OutputBoundChanged = "compat/output-bound-changed", Major,
        "output bound changed incomparably",
        "A `multiple-of` replaced by one that neither divides nor is divided by the old one: the server may produce values clients reject.",
        mirror: Other(InputBoundChanged), reverse: [OutputBoundChanged];
    InputPatternAdded = "compat/input-pattern-added", Major,
        "input pattern added",
        "Old calls whose value does not match the new pattern are rejected.",
        mirror: Other(OutputPatternAdded), reverse: [InputPatternRemoved];
    OutputPatternAdded = "compat/output-pattern-added", Minor,
        "output pattern added",
        "The server promises more about its values than before.",
        mirror: Other(InputPatternAdded), reverse: [OutputPatternRemoved];
    InputPatternChanged = "compat/input-pattern-changed", Major,
        "input pattern changed",
        "Pattern inclusion cannot be decided in general: old calls may not match the new pattern.",
        mirror: Other(OutputPatternChanged), reverse: [InputPatternChanged];
    OutputPatternChanged = "compat/output-pattern-changed", Major,
        "output pattern changed",
        "The server may produce strings the old pattern rejects, and pattern inclusion cannot be decided; read from the client's side this is breaking (docs/compatibility.md's table says minor, which would be unsound).",
        mirror: Other(InputPatternChanged), reverse: [OutputPatternChanged];
    InputPatternRemoved = "compat/input-pattern-removed", Minor,
        "input pattern removed",
        "The server accepts more strings than before.",
        mirror: Other(OutputPatternRemoved), reverse: [InputPatternAdded];
    OutputPatternRemoved = "compat/output-pattern-removed", Major,
        "output pattern removed",
        "Clients may rely on the pattern (parsing an ID, a reference); the server no longer promises it.",
        mirror: Other(InputPatternRemoved), reverse: [OutputPatternAdded];
    InputFormatAdded = "compat/input-format-added", Major,
        "input format added",
        "Old calls whose value is not in the new format are rejected (any format, bounded or not, restricts the value).",
        mirror: Other(OutputFormatAdded), reverse: [InputFormatRemoved];
    OutputFormatAdded = "compat/output-format-added", Minor,
        "output format added",
        "The server promises more about its values than before.",
        mirror: Other(InputFormatAdded), reverse: [OutputFormatRemoved];
    InputFormatChanged = "compat/input-format-changed", Major,
        "input format changed",
        "Values of the old format are rejected by the new one.",
        mirror: Other(OutputFormatChanged), reverse: [InputFormatChanged];
    OutputFormatChanged = "compat/output-format-changed", Major,
        "output format changed",
        "Clients parse the old format; values of the new one break them (docs/compatibility.md's table says minor, which would be unsound from the client's side).",
        mirror: Other(InputFormatChanged), reverse: [OutputFormatChanged];
    InputFormatRemoved = "compat/input-format-removed", Minor,
        "input format removed",
        "The server accepts more strings than before.",
        mirror: Other(OutputFormatRemoved), reverse: [InputFormatAdded];
    OutputFormatRemoved = "compat/output-format-removed", Major,
        "output format removed",
        "Clients parse the value in the old format; the server no longer promises it.",
        mirror: Other(InputFormatRemoved), reverse: [OutputFormatAdded];
    InputNullableAdded = "compat/input-nullable-added", Minor,
        "input field made nullable",
        "The server now also accepts `null` for the field; old calls never send it.",
        mirror: Other(OutputNullableAdded), reverse: [InputNullableRemoved];
    OutputNullableAdded = "compat/output-nullable-added", Major,
        "output field made nullable",
        "The server may now return `null` where old clients expect a value of the field's type.",
        mirror: Other(InputNullableAdded), reverse: [OutputNullableRemoved];
    InputNullableRemoved = "compat/input-nullable-removed", Major,
        "input field no longer nullable",
        "Old calls that pass `null` for the field are now rejected.",
        mirror: Other(OutputNullableRemoved), reverse: [InputNullableAdded];
    OutputNullableRemoved = "compat/output-nullable-removed", Minor,
        "output field no longer nullable",
        "The server stops returning `null`; clients already handle the values it still returns.",
        mirror: Other(InputNullableRemoved), reverse: [OutputNullableAdded];
    InputTypeOpened = "compat/input-type-opened", Minor,
        "input field opened to any JSON value",
        "The field became `json`: the server accepts every value, so every old call stays valid.",
        mirror: Other(OutputTypeOpened), reverse: [InputTypeClosed];
    OutputTypeOpened = "compat/output-type-opened", Major,
        "output field opened to any JSON value",
        "The field became `json`: the server may return values old clients cannot read.",
        mirror: Other(InputTypeOpened), reverse: [OutputTypeClosed];
    InputTypeClosed = "compat/input-type-closed", Major,
        "input field closed from any JSON value to a type",
        "A `json` field got a type: old calls that pass any other value are rejected.",
        mirror: Other(OutputTypeClosed), reverse: [InputTypeOpened];
    OutputTypeClosed = "compat/output-type-closed", Minor,
        "output field closed from any JSON value to a type",
        "A `json` field got a type: old clients accepted any value, so they accept these.",
        mirror: Other(InputTypeClosed), reverse: [OutputTypeOpened];
    InputObjectOpened = "compat/input-object-opened", Minor,
        "input object opened to extra properties",
        "The object gained `extra`: the server accepts properties its fields do not name; old calls never send them.",
        mirror: Other(OutputObjectOpened), reverse: [InputObjectClosed];
    OutputObjectOpened = "compat/output-object-opened", Major,
        "output object opened to extra properties",
        "The object gained `extra`: the server may return properties old clients do not know.",
        mirror: Other(InputObjectOpened), reverse: [OutputObjectClosed];
    InputObjectClosed = "compat/input-object-closed", Major,
        "input object closed to extra properties",
        "The object lost `extra`: old calls that pass properties its fields do not name are rejected.",
        mirror: Other(OutputObjectClosed), reverse: [InputObjectOpened];
    OutputObjectClosed = "compat/output-object-closed", Minor,
        "output object closed to extra properties",
        "The object lost `extra`: the server stops returning undeclared properties, which clients accepted.",
        mirror: Other(InputObjectClosed), reverse: [OutputObjectOpened];
    InputVariantAdded = "compat/input-variant-added", Minor,
        "input union variant added",
        "The server accepts one more shape of the union (a new discriminator value); every old call keeps its variant.",
        mirror: Other(OutputVariantAdded), reverse: [InputVariantRemoved];
    OutputVariantAdded = "compat/output-variant-added", Major,
        "output union variant added",
        "The server may return a shape old clients do not know: a discriminator value their exhaustive match or schema rejects.",
        mirror: Other(InputVariantAdded), reverse: [OutputVariantRemoved];
    InputVariantRemoved = "compat/input-variant-removed", Major,
        "input union variant removed",
        "Old calls that pass the removed shape (its discriminator value) are rejected.",
        mirror: Other(OutputVariantRemoved), reverse: [InputVariantAdded];
    OutputVariantRemoved = "compat/output-variant-removed", Minor,
        "output union variant removed",
        "The server returns fewer shapes; clients handle every remaining one.",
        mirror: Other(InputVariantRemoved), reverse: [OutputVariantAdded];
    InputDiscriminatorChanged = "compat/input-discriminator-changed", Major,
        "input union discriminator changed",
        "Old calls name their variant in the old property, which the server no longer reads: no old value matches a variant.",
        mirror: Other(OutputDiscriminatorChanged), reverse: [InputDiscriminatorChanged];
    OutputDiscriminatorChanged = "compat/output-discriminator-changed", Major,
        "output union discriminator changed",
        "Clients look for the variant in the old property; the server now names it in another one.",
        mirror: Other(InputDiscriminatorChanged), reverse: [OutputDiscriminatorChanged];
    InputDefaultChanged = "compat/input-default-changed", Major,
        "input default changed",
        "Old calls that omit the field now mean something else.",
        mirror: OneSided(DEFAULT_ONE_SIDED), reverse: [InputDefaultChanged];
    InputDefaultRemoved = "compat/input-default-removed", Major,
        "input default removed",
        "Old calls that omit the field relied on the default; its meaning is now up to the server.",
        mirror: OneSided(DEFAULT_ONE_SIDED), reverse: [InputDefaultAdded];
    InputDefaultAdded = "compat/input-default-added", Patch,
        "input default added",
        "Documents what an omitted field already meant; no call changes meaning.",
        mirror: OneSided(DEFAULT_ONE_SIDED), reverse: [InputDefaultRemoved];
    InputUnitChanged = "compat/input-unit-changed", Major,
        "input unit changed",
        "The same number now means another quantity (cents vs. units, ms vs. s); adding or removing a unit counts too.",
        mirror: Other(OutputUnitChanged), reverse: [InputUnitChanged];
    OutputUnitChanged = "compat/output-unit-changed", Major,
        "output unit changed",
        "Clients read the same number as another quantity; adding or removing a unit counts too.",
        mirror: Other(InputUnitChanged), reverse: [OutputUnitChanged];
    InputDocChanged = "compat/input-doc-changed", Patch,
        "input field doc changed",
        "Text only; the schema accepts the same values. Re-read it for meaning changes.",
        mirror: Other(OutputDocChanged), reverse: [InputDocChanged];
    OutputDocChanged = "compat/output-doc-changed", Patch,
        "output field doc changed",
        "Text only; the schema accepts the same values.",
        mirror: Other(InputDocChanged), reverse: [OutputDocChanged];
    InputSensitiveChanged = "compat/input-sensitive-changed", Patch,
        "input field `sensitive` changed",
        "Changes logging and redaction only, not what is accepted.",
        mirror: Other(OutputSensitiveChanged), reverse: [InputSensitiveChanged];
    OutputSensitiveChanged = "compat/output-sensitive-changed", Patch,
        "output field `sensitive` changed",
        "Changes logging and redaction only, not what is produced.",
        mirror: Other(InputSensitiveChanged), reverse: [OutputSensitiveChanged];
    InputHeaderAdded = "compat/input-header-added", Major,
        "input field mirrored into a header",
        "On Streamable HTTP the server now expects the argument in an `Mcp-Param-{Name}` header as well; clients holding the old tool definition do not send it, and a server that checks the headers rejects their calls.",
        mirror: OneSided(HEADER_ONE_SIDED), reverse: [InputHeaderRemoved];
    InputHeaderRemoved = "compat/input-header-removed", Major,
        "input field no longer mirrored into a header",
        "Gateways, load balancers and policies that route or filter on the `Mcp-Param-{Name}` header stop receiving it, and clients holding the old definition still send a header the server no longer declares.",
        mirror: OneSided(HEADER_ONE_SIDED), reverse: [InputHeaderAdded];
    InputHeaderRenamed = "compat/input-header-renamed", Major,
        "input field mirrored into another header",
        "Clients holding the old definition send the old header name and intermediaries route on it; the server expects the new one. A change of case only is `compat/input-header-case-changed`.",
        mirror: OneSided(HEADER_ONE_SIDED), reverse: [InputHeaderRenamed];
    InputHeaderCaseChanged = "compat/input-header-case-changed", Patch,
        "input field header name changed in case only",
        "HTTP header names compare ignoring case, so every client and intermediary sees the same header; only the schema text changed.",
        mirror: OneSided(HEADER_ONE_SIDED), reverse: [InputHeaderCaseChanged];
    InputFieldDeprecatedAdded = "compat/input-field-deprecated-added", Minor,
        "input field deprecated",
        "Announces a future removal; the field works as before (like `deprecated` on a tool).",
        mirror: Other(OutputFieldDeprecatedAdded), reverse: [InputFieldDeprecatedRemoved];
    OutputFieldDeprecatedAdded = "compat/output-field-deprecated-added", Minor,
        "output field deprecated",
        "Announces a future removal; the field is produced as before.",
        mirror: Other(InputFieldDeprecatedAdded), reverse: [OutputFieldDeprecatedRemoved];
    InputFieldDeprecatedRemoved = "compat/input-field-deprecated-removed", Patch,
        "input field no longer deprecated",
        "Withdraws an announcement; nothing changes for callers.",
        mirror: Other(OutputFieldDeprecatedRemoved), reverse: [InputFieldDeprecatedAdded];
    OutputFieldDeprecatedRemoved = "compat/output-field-deprecated-removed", Patch,
        "output field no longer deprecated",
        "Withdraws an announcement; nothing changes for clients.",
        mirror: Other(InputFieldDeprecatedRemoved), reverse: [OutputFieldDeprecatedAdded];

    ToolAdded = "compat/tool-added", Minor,
        "tool added",
        "A new tool is additive for the catalog. A renamed tool is a removal plus an addition.",
        mirror: ToolLevel, reverse: [ToolRemoved];
    ToolRemoved = "compat/tool-removed", Major,
        "tool removed",
        "Clients and prompts that call the tool break. Deprecate it first (`deprecated replacement=...`) and keep it for a transition period.",
        mirror: ToolLevel, reverse: [ToolAdded];
    ToolEffectIncreased = "compat/tool-effect-increased", Major,
        "effect changed to a class with more side effect",
        "Order: read < external-read < preview < update < append < destructive. Clients auto-approve or retry by the effect's annotations; more side effect than declared is unsafe.",
        mirror: ToolLevel, reverse: [ToolEffectDecreased];
    ToolEffectDecreased = "compat/tool-effect-decreased", Minor,
        "effect changed to a class with less side effect",
        "The tool does less than clients prepared for.",
        mirror: ToolLevel, reverse: [ToolEffectIncreased];
    ToolOpenWorldChanged = "compat/tool-open-world-changed", Minor,
        "open-world changed",
        "The effective `openWorldHint` changed (written, or implied by the effect).",
        mirror: ToolLevel, reverse: [ToolOpenWorldChanged];
    ToolIdempotencyAdded = "compat/tool-idempotency-added", Minor,
        "idempotency added",
        "Retries become safe; old callers lose nothing.",
        mirror: ToolLevel, reverse: [ToolIdempotencyRemoved];
    ToolIdempotencyRemoved = "compat/tool-idempotency-removed", Major,
        "idempotency removed",
        "Callers that retry after a timeout with the same key now repeat the side effect.",
        mirror: ToolLevel, reverse: [ToolIdempotencyAdded];
    ToolIdempotencyChanged = "compat/tool-idempotency-changed", Major,
        "idempotency key, scope or ttl changed",
        "A retry keyed the old way may no longer be deduplicated (recovery behaviour changes).",
        mirror: ToolLevel, reverse: [ToolIdempotencyChanged];
    ToolIdempotentAdded = "compat/tool-idempotent-added", Minor,
        "effect declared naturally idempotent",
        "`idempotent=#true` added to an `append`/`destructive` effect: `idempotentHint` becomes true and retries without a key become safe; old callers lose nothing.",
        mirror: ToolLevel, reverse: [ToolIdempotentRemoved];
    ToolIdempotentRemoved = "compat/tool-idempotent-removed", Major,
        "effect no longer naturally idempotent",
        "Callers that retry after a timeout without a key (as `idempotentHint` allowed) now repeat the side effect.",
        mirror: ToolLevel, reverse: [ToolIdempotentAdded];
    ToolOutputKindChanged = "compat/tool-output-kind-changed", Major,
        "result kind changed",
        "What a result holds changed between structured JSON, text, markdown and an image (adding or removing `output kind=` counts): clients read results the way the old contract said.",
        mirror: ToolLevel, reverse: [ToolOutputKindChanged];
    ToolConfirmAdded = "compat/tool-confirm-added", Major,
        "confirm added",
        "The server now requires a confirmation digest old clients never send.",
        mirror: ToolLevel, reverse: [ToolConfirmRemoved];
    ToolConfirmRemoved = "compat/tool-confirm-removed", Major,
        "confirm removed",
        "Clients relied on the confirmation step to keep the user in the loop.",
        mirror: ToolLevel, reverse: [ToolConfirmAdded];
    ToolConfirmChanged = "compat/tool-confirm-changed", Major,
        "confirm digest changed",
        "Clients compute the old digest; the server expects another one.",
        mirror: ToolLevel, reverse: [ToolConfirmChanged];
    ToolOnTimeoutChanged = "compat/tool-on-timeout-changed", Major,
        "on-timeout changed",
        "Clients recover from a timeout the way the old contract said (added and removed count as changed).",
        mirror: ToolLevel, reverse: [ToolOnTimeoutChanged];
    ToolResourceAdded = "compat/tool-resource-added", Minor,
        "resource key added",
        "`resource key=` added to a write tool: the server now runs the writes on one resource value one at a time. Every call is accepted and answered as before; overlapping writes on one resource only wait for each other.",
        mirror: ToolLevel, reverse: [ToolResourceRemoved];
    ToolResourceRemoved = "compat/tool-resource-removed", Major,
        "resource key removed",
        "The server no longer serializes the writes on one resource value: clients that send overlapping writes and rely on them not racing (the documented guarantee) may now see lost updates. Keep the key, or ship a major version and tell clients to serialize themselves.",
        mirror: ToolLevel, reverse: [ToolResourceAdded];
    ToolResourceChanged = "compat/tool-resource-changed", Major,
        "resource key changed",
        "The writes are serialized by another input field: two calls that named one resource by the old key (and ran one after the other) may now run at once, so the guarantee clients relied on no longer holds for them.",
        mirror: ToolLevel, reverse: [ToolResourceChanged];
    ToolErrorAdded = "compat/tool-error-added", Minor,
        "error code added",
        "Reported so clients can handle the new code; unknown codes fall back on their class.",
        mirror: ToolLevel, reverse: [ToolErrorRemoved];
    ToolErrorRemoved = "compat/tool-error-removed", Minor,
        "error code removed",
        "Clients keep a handler that is no longer used.",
        mirror: ToolLevel, reverse: [ToolErrorAdded];
    ToolErrorClassChanged = "compat/tool-error-class-changed", Major,
        "error class changed",
        "Recovery behaviour depends on the class.",
        mirror: ToolLevel, reverse: [ToolErrorClassChanged];
    ToolErrorRetryChanged = "compat/tool-error-retry-changed", Major,
        "error retry policy changed",
        "Recovery behaviour depends on the retry policy (the effective one: written or the class default).",
        mirror: ToolLevel, reverse: [ToolErrorRetryChanged];
    ToolErrorTextChanged = "compat/tool-error-text-changed", Patch,
        "error message or next-step changed",
        "Text only.",
        mirror: ToolLevel, reverse: [ToolErrorTextChanged];
    ToolErrorDetailAdded = "compat/tool-error-detail-added", Minor,
        "error detail fields declared",
        "An error now carries typed detail fields, where it carried at most a free text. The model reads either; a client that parsed the text had no contract to rely on. Later changes of the detail's fields are classed as output changes (`output-…` at `error.CODE.detail.…`).",
        mirror: ToolLevel, reverse: [ToolErrorDetailRemoved];
    ToolErrorDetailRemoved = "compat/tool-error-detail-removed", Major,
        "error detail fields removed",
        "Clients were written to read the declared fields of the error's detail; the server never sends them again.",
        mirror: ToolLevel, reverse: [ToolErrorDetailAdded];
    ToolLimitsLoosened = "compat/tool-limits-loosened", Major,
        "limits loosened",
        "More items, bytes or time than clients budgeted for (a removed limit counts as loosened).",
        mirror: ToolLevel, reverse: [ToolLimitsTightened];
    ToolLimitsTightened = "compat/tool-limits-tightened", Minor,
        "limits tightened",
        "Results fit in what clients budgeted for (an added limit counts as tightened).",
        mirror: ToolLevel, reverse: [ToolLimitsLoosened];
    ToolNeedsInputAdded = "compat/tool-needs-input-added", Major,
        "needs-input added",
        "Old clients cannot answer `input_required`.",
        mirror: ToolLevel, reverse: [ToolNeedsInputRemoved];
    ToolNeedsInputRemoved = "compat/tool-needs-input-removed", Minor,
        "needs-input removed",
        "The tool asks less of clients than before.",
        mirror: ToolLevel, reverse: [ToolNeedsInputAdded];
    ToolNeedsInputChanged = "compat/tool-needs-input-changed", Major,
        "needs-input kind changed",
        "Clients answer the old kind of question (confirmation, choice, credential, text).",
        mirror: ToolLevel, reverse: [ToolNeedsInputChanged];
    ToolNeedsInputDocChanged = "compat/tool-needs-input-doc-changed", Patch,
        "needs-input doc changed",
        "Text only.",
        mirror: ToolLevel, reverse: [ToolNeedsInputDocChanged];
    ToolSelectionTextChanged = "compat/tool-selection-text-changed", Patch,
        "selection text changed: re-run the tool-choice evaluation",
        "`summary`, `when`, `when-not` or `title` changed. The contract is the same, but the model may now choose tools differently: re-run the tool-choice evaluation (`catalogc export eval`).",
        mirror: ToolLevel, reverse: [ToolSelectionTextChanged];
    ToolExamplesChanged = "compat/tool-examples-changed", Patch,
        "examples changed",
        "Evaluation data, docs and mock answers only (`examples`, `example-call`).",
        mirror: ToolLevel, reverse: [ToolExamplesChanged];
    ToolDeprecatedAdded = "compat/tool-deprecated-added", Minor,
        "tool deprecated",
        "Announces a future removal; the tool works as before.",
        mirror: ToolLevel, reverse: [ToolDeprecatedRemoved];
    ToolDeprecatedRemoved = "compat/tool-deprecated-removed", Patch,
        "tool no longer deprecated",
        "Withdraws an announcement.",
        mirror: ToolLevel, reverse: [ToolDeprecatedAdded];
    ToolDeprecatedChanged = "compat/tool-deprecated-changed", Patch,
        "deprecation reason, replacement, since or sunset changed",
        "Text only; a sunset moved is an announcement changed, checked again when the tool is removed.",
        mirror: ToolLevel, reverse: [ToolDeprecatedChanged];
    ToolStabilityPromoted = "compat/tool-stability-promoted", Minor,
        "stability promoted",
        "`experimental` → `beta` → `stable`: the tool promises more than before; from now on its breaking changes count in full.",
        mirror: ToolLevel, reverse: [ToolStabilityDemoted];
    ToolStabilityDemoted = "compat/tool-stability-demoted", Major,
        "stability demoted",
        "Clients were promised a stable (or beta) contract; a lower level lets later releases break it without a major version, so the demotion is where they break.",
        mirror: ToolLevel, reverse: [ToolStabilityPromoted];
}

/// Which compatibility `catalogc breaking --category` checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Category {
    /// What MCP clients and models see on the wire: each kind's [`Kind::class`].
    #[default]
    Wire,
    /// What breaks Rust generated from the catalog (handler implementations, exhaustive
    /// matches) as well as the wire: each kind's [`Kind::source_class`].
    Source,
}

impl Category {
    /// The lowercase name: `wire` or `source`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Wire => "wire",
            Category::Source => "source",
        }
    }
}

const TYPE_CHANGES: &str = "the field's Rust type changes";

/// The kinds whose verdict for Rust generated from the catalog (`catalogc gen`) is stricter
/// than on the wire, with the class and why; every other kind has its wire class. Handlers
/// read `Input` and build `Output` with struct literals, return `Error` variants and match
/// enums exhaustively; an integer field's type is the smallest holding its bounds.
const SOURCE_STRICTER: &[(Kind, Class, &str)] = &[
    (
        Kind::InputFieldMadeOptional,
        Class::Major,
        "`T` becomes `Option<T>`: handlers that read the value no longer compile",
    ),
    (
        Kind::InputEnumValueAdded,
        Class::Major,
        "the generated enum gains a variant: a handler's exhaustive `match` no longer compiles",
    ),
    (
        Kind::InputBoundLoosened,
        Class::Major,
        "a wider integer bound can widen the integer type (`u8` → `u16`)",
    ),
    (
        Kind::InputNullableAdded,
        Class::Major,
        "`T` becomes `Option<T>`",
    ),
    (Kind::InputTypeOpened, Class::Major, TYPE_CHANGES),
    (
        Kind::InputObjectOpened,
        Class::Major,
        "the struct gains a map of extra properties",
    ),
    (
        Kind::InputVariantAdded,
        Class::Major,
        "the generated union enum gains a variant: exhaustive matches no longer compile",
    ),
    (
        Kind::InputDefaultAdded,
        Class::Major,
        "a field with a default is `T`, not `Option<T>`",
    ),
    (
        Kind::OutputFieldOptionalAdded,
        Class::Major,
        "`Output` gains a field: every struct literal a handler builds it with no longer compiles",
    ),
    (
        Kind::OutputFieldRequiredAdded,
        Class::Major,
        "`Output` gains a field every handler must fill: their struct literals no longer compile",
    ),
    (
        Kind::OutputFieldMadeRequired,
        Class::Major,
        "`Option<T>` becomes `T`: handlers that set `Some(…)` or `None` no longer compile",
    ),
    (
        Kind::OutputEnumValueRemoved,
        Class::Major,
        "the generated enum loses a variant handlers may return",
    ),
    (
        Kind::OutputBoundTightened,
        Class::Major,
        "a narrower integer bound can narrow the integer type (`u16` → `u8`)",
    ),
    (
        Kind::OutputNullableRemoved,
        Class::Major,
        "`Option<T>` becomes `T`",
    ),
    (Kind::OutputTypeClosed, Class::Major, TYPE_CHANGES),
    (
        Kind::OutputObjectClosed,
        Class::Major,
        "the struct loses its map of extra properties",
    ),
    (
        Kind::OutputVariantRemoved,
        Class::Major,
        "the generated union enum loses a variant handlers may return",
    ),
    (
        Kind::ToolErrorAdded,
        Class::Major,
        "the tool's `Error` enum gains a variant: exhaustive matches on it no longer compile",
    ),
    (
        Kind::ToolErrorRemoved,
        Class::Major,
        "the tool's `Error` enum loses a variant handlers may return",
    ),
    (
        Kind::ToolErrorDetailAdded,
        Class::Major,
        "the error's variant holds the generated detail struct instead of `Option<String>`",
    ),
    (
        Kind::ToolNeedsInputRemoved,
        Class::Major,
        "the tool's `NeedsInput` enum loses a variant handlers may ask with",
    ),
];

impl Kind {
    /// The kind with this stable ID (`compat/…`); `None` for an unknown ID.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.id() == id)
    }

    /// The class in Rust generated from the catalog: the wire class, or stricter where
    /// generated types change (the table `SOURCE_STRICTER`).
    pub fn source_class(self) -> Class {
        SOURCE_STRICTER
            .iter()
            .find(|(k, _, _)| *k == self)
            .map_or(self.class(), |(_, c, _)| (*c).max(self.class()))
    }

    /// Why the source class is stricter than the wire class; `None` when they are equal.
    pub fn source_reason(self) -> Option<&'static str> {
        SOURCE_STRICTER
            .iter()
            .find(|(k, c, _)| *k == self && *c > self.class())
            .map(|(_, _, why)| *why)
    }

    /// The class in `category`.
    pub fn class_in(self, category: Category) -> Class {
        match category {
            Category::Wire => self.class(),
            Category::Source => self.source_class(),
        }
    }

    /// The side of a field-level kind; `None` for tool-level kinds.
    pub fn side(self) -> Option<Side> {
        let id = self.id();
        if id.starts_with("compat/input-") {
            Some(Side::Input)
        } else if id.starts_with("compat/output-") {
            Some(Side::Output)
        } else {
            None
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The table of every change kind and version check, in registry order, for
/// docs/compatibility.md (kept equal to the file by tests/compat_fixtures.rs).
pub fn markdown_table() -> String {
    let mut out = String::from("| ID | wire | source | what changed |\n|---|---|---|---|\n");
    for &k in Kind::ALL {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            k.id(),
            k.class(),
            k.source_class(),
            k.title()
        ));
    }
    out.push_str("\n| ID | why the source verdict is stricter |\n|---|---|\n");
    for &k in Kind::ALL {
        if let Some(why) = k.source_reason() {
            out.push_str(&format!("| `{}` | {why} |\n", k.id()));
        }
    }
    out.push_str("\n| version check | fails when |\n|---|---|\n");
    for (id, line) in super::version::VERSION_RULES {
        out.push_str(&format!("| `{id}` | {line} |\n"));
    }
    out.push_str("\n| decision check | reported when |\n|---|---|\n");
    for (id, line) in [
        super::decide::REMOVED_BEFORE_SUNSET,
        super::decide::ACCEPT_STALE,
    ] {
        out.push_str(&format!("| `{id}` | {line} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut seen = HashSet::new();
        for k in Kind::ALL {
            assert!(seen.insert(k.id()), "duplicate {}", k.id());
            let rest = k.id().strip_prefix("compat/").unwrap_or("");
            assert!(
                !rest.is_empty() && rest.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                k.id()
            );
            assert_eq!(Kind::from_id(k.id()), Some(*k));
            assert!(!k.doc().is_empty() && !k.title().is_empty());
        }
    }

    #[test]
    fn mirrors_pair_up_across_sides() {
        for &k in Kind::ALL {
            match (k.mirror(), k.side()) {
                (Mirror::Other(m), Some(side)) => {
                    assert_eq!(m.mirror(), Mirror::Other(k), "{k} mirror not reciprocal");
                    assert_ne!(m.side(), Some(side), "{k} mirrors its own side");
                    assert!(m.side().is_some());
                    let strip = |k: Kind| {
                        k.id()
                            .trim_start_matches("compat/input-")
                            .trim_start_matches("compat/output-")
                            .to_string()
                    };
                    assert_eq!(strip(k), strip(m));
                }
                (Mirror::OneSided(why), Some(_)) => assert!(why.len() > 20),
                (Mirror::ToolLevel, None) => {}
                other => panic!("{k}: inconsistent mirror {other:?}"),
            }
        }
    }

    #[test]
    fn reverses_are_reciprocal() {
        for &k in Kind::ALL {
            assert!(!k.reverse().is_empty(), "{k} has no reverse verdict");
            for &r in k.reverse() {
                assert!(r.reverse().contains(&k), "{r} does not reverse back to {k}");
                assert_eq!(r.side(), k.side());
            }
        }
    }

    /// The classes docs/compatibility.md's tables give, per row and side; a kind whose class drifts from
    /// the spec fails here.
    #[test]
    fn classes_follow_the_spec_tables() {
        use Class::*;
        let table: &[(&str, Class, Class)] = &[
            ("field-optional-added", Minor, Minor),
            ("field-required-added", Major, Minor),
            ("field-removed", Major, Major),
            ("field-made-required", Major, Minor),
            ("field-made-optional", Minor, Major),
            ("type-changed", Major, Major),
            ("enum-value-added", Minor, Major),
            ("enum-value-removed", Major, Minor),
            ("bound-tightened", Major, Minor),
            ("bound-loosened", Minor, Major),
            ("pattern-added", Major, Minor),
            ("pattern-removed", Minor, Major),
            ("format-added", Major, Minor),
            ("format-removed", Minor, Major),
            ("unit-changed", Major, Major),
            ("doc-changed", Patch, Patch),
            ("sensitive-changed", Patch, Patch),
            ("nullable-added", Minor, Major),
            ("nullable-removed", Major, Minor),
            ("type-opened", Minor, Major),
            ("type-closed", Major, Minor),
            ("object-opened", Minor, Major),
            ("object-closed", Major, Minor),
            ("variant-added", Minor, Major),
            ("variant-removed", Major, Minor),
            ("discriminator-changed", Major, Major),
        ];
        for (row, input, output) in table {
            let i = Kind::from_id(&format!("compat/input-{row}"));
            let o = Kind::from_id(&format!("compat/output-{row}"));
            assert_eq!(i.map(Kind::class), Some(*input), "input-{row}");
            assert_eq!(o.map(Kind::class), Some(*output), "output-{row}");
        }
        assert_eq!(Kind::OutputEnumValueAddedExtensible.class(), Minor);
        assert_eq!(Kind::OutputEnumMadeExtensible.class(), Major);
        assert_eq!(Kind::OutputEnumMadeClosed.class(), Minor);
        assert_eq!(Kind::InputDefaultChanged.class(), Major);
        assert_eq!(Kind::InputDefaultRemoved.class(), Major);
        for k in [
            Kind::InputHeaderAdded,
            Kind::InputHeaderRemoved,
            Kind::InputHeaderRenamed,
        ] {
            assert_eq!(k.class(), Major, "{k}");
        }
        assert_eq!(Kind::InputHeaderCaseChanged.class(), Patch);
        let tool: &[(&str, Class)] = &[
            ("tool-removed", Major),
            ("tool-added", Minor),
            ("tool-effect-increased", Major),
            ("tool-effect-decreased", Minor),
            ("tool-open-world-changed", Minor),
            ("tool-idempotency-removed", Major),
            ("tool-confirm-removed", Major),
            ("tool-on-timeout-changed", Major),
            ("tool-resource-added", Minor),
            ("tool-resource-removed", Major),
            ("tool-resource-changed", Major),
            ("tool-error-added", Minor),
            ("tool-error-removed", Minor),
            ("tool-error-class-changed", Major),
            ("tool-error-retry-changed", Major),
            ("tool-limits-loosened", Major),
            ("tool-limits-tightened", Minor),
            ("tool-needs-input-added", Major),
            ("tool-selection-text-changed", Patch),
            ("tool-examples-changed", Patch),
            ("tool-deprecated-added", Minor),
            ("tool-stability-promoted", Minor),
            ("tool-stability-demoted", Major),
        ];
        for (id, class) in tool {
            let k = Kind::from_id(&format!("compat/{id}"));
            assert_eq!(k.map(Kind::class), Some(*class), "{id}");
        }
    }
}

#[cfg(test)]
mod source_tests {
    use super::*;

    /// The source verdict is never laxer than the wire one, and every row of the table is
    /// stricter than its kind's wire class (a row that is not would say nothing).
    #[test]
    fn source_is_at_least_wire_and_the_table_only_tightens() {
        for &k in Kind::ALL {
            assert!(k.source_class() >= k.class(), "{k}");
            assert_eq!(
                k.source_reason().is_some(),
                k.source_class() > k.class(),
                "{k}"
            );
        }
        for (k, c, _) in SOURCE_STRICTER {
            assert!(*c > k.class(), "{k} is not stricter in source");
        }
        assert_eq!(
            Kind::OutputFieldRequiredAdded.class_in(Category::Wire),
            Class::Minor
        );
        assert_eq!(
            Kind::OutputFieldRequiredAdded.class_in(Category::Source),
            Class::Major
        );
    }
}

/// The rule `--policy no-major` fails with, and its one line.
pub const POLICY_RULE: (&str, &str) = (
    "compat/policy-no-major",
    "a major change while --policy no-major is in force",
);

/// Every ID `catalogc breaking` reports, as rule metadata for output formats: the change
/// kinds (title, documentation, class), the version checks and the policy check.
#[derive(Debug, Clone, Copy, Default)]
pub struct CompatRules;

impl CompatRules {
    /// Change kinds in registry order, then the version checks, then the policy check.
    pub fn all() -> Vec<RuleMeta> {
        let kinds = Kind::ALL.iter().map(|k| RuleMeta {
            id: k.id().to_string(),
            summary: k.title().to_string(),
            description: Some(k.doc().to_string()),
            properties: vec![("class", k.class().as_str().to_string())],
            ..RuleMeta::default()
        });
        let checks = super::version::VERSION_RULES
            .iter()
            .chain([
                &POLICY_RULE,
                &super::decide::REMOVED_BEFORE_SUNSET,
                &super::decide::ACCEPT_STALE,
            ])
            .map(|(id, line)| RuleMeta {
                id: id.to_string(),
                summary: line.to_string(),
                ..RuleMeta::default()
            });
        kinds.chain(checks).collect()
    }
}

impl RuleMetadata for CompatRules {
    fn rule(&self, id: &str) -> Option<RuleMeta> {
        CompatRules::all().into_iter().find(|m| m.id == id)
    }
}
