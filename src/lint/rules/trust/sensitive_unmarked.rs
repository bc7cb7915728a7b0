//! The `trust/sensitive-unmarked` rule: fields named like personal data or secrets have
//! `sensitive=#true`; [`RULE`] documents it.

use super::is_credential_token;
use crate::names::word_refs;
use crate::diag::Level;
use crate::lint::walk::site_finding;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding};
use crate::model::TyKind;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags a string field (or an array of strings), in input or output at any depth, whose name
    /// suggests secret or personal data and which lacks `sensitive=#true`. Names are compared by
    /// words, ignoring case and separators. The list:
    /// - contact: `email`, `emails`, `phone`, `phones`, `address`, `addresses` (also
    ///   `email_address`, `street_address`, `ip_address`), `postal_code`, `postcode`, `zip_code`;
    /// - identity documents and numbers: `ssn`, `social_security…`, `passport…`, `national_id`,
    ///   `tax_id`, `driver_license`/`driving_licence`, `birth_date`, `birthdate`,
    ///   `date_of_birth`, `dob`, `birthday`;
    /// - financial: `card_number`, `cvv`, `cvc`, `iban`, `account_number`, `routing_number`;
    /// - secrets: `password`/`passwd`, `secret` (last word), `api_key`, `private_key`,
    ///   `credential(s)`, a credential `…_token` (not a pagination `page_token`).
    ///
    /// A word of the list must end the name, or be followed only by `number`, `address`,
    /// `line`, `line1`…`line3`, `hash`, `digits`, `last4` (`phone_number`, `address_line1`,
    /// `password_hash`; not `email_subject`). Phrases match anywhere. Booleans, numbers and
    /// timestamps are not checked (`email_verified` is not personal data).
    ///
    /// ## Why is this bad?
    /// `sensitive=#true` is what keeps a value out of logs, traces and debug output. Unmarked
    /// personal data and secrets end up in places with weaker access control and longer
    /// retention than the system they came from.
    ///
    /// ## Example
    /// ```kdl
    /// field "email" "string" max-length=254 format="email"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "email" "string" max-length=254 format="email" sensitive=#true
    /// ```
    pub static RULE = Rule {
        id: "trust/sensitive-unmarked",
        level: Level::Warn,
        summary: "fields named like personal data or secrets have `sensitive=#true`",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

const WORDS: &[&str] = &[
    "email", "emails", "phone", "phones", "address", "addresses", "postcode", "ssn", "passport",
    "dob", "birthdate", "birthday", "cvv", "cvc", "iban", "password", "passwd", "credential",
    "credentials", "apikey",
];

const PHRASES: &[&[&str]] = &[
    &["postal", "code"],
    &["zip", "code"],
    &["social", "security"],
    &["national", "id"],
    &["tax", "id"],
    &["driver", "license"],
    &["driving", "licence"],
    &["birth", "date"],
    &["date", "of", "birth"],
    &["card", "number"],
    &["account", "number"],
    &["routing", "number"],
    &["api", "key"],
    &["private", "key"],
];

/// Words that may follow a sensitive word and keep the name about the same value
/// (`phone_number`, `email_address`, `address_line1`, `password_hash`).
const QUALIFIERS: &[&str] = &["number", "address", "line", "line1", "line2", "line3", "hash", "digits", "last4"];

fn is_sensitive_name(w: &[String]) -> bool {
    let w = word_refs(w);
    // `email_subject` is about an email, not an address: the sensitive word must end the
    // name, up to qualifiers.
    w.iter().enumerate().any(|(i, x)| WORDS.contains(x) && w[i + 1..].iter().all(|q| QUALIFIERS.contains(q)))
        || PHRASES.iter().any(|p| w.windows(p.len()).any(|x| x == *p))
        || w.last() == Some(&"secret")
        || is_credential_token(&w)
}

// Once per declaration: the marking belongs to the field wherever it is used.
fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let Some(field) = site.field else { return };
    let stringy = match &site.ty.kind {
        TyKind::String(_) => true,
        TyKind::Array(a) => matches!(a.items.kind, TyKind::String(_)),
        _ => false,
    };
    if field.sensitive || !stringy || !is_sensitive_name(site.name_words()) {
        return;
    }
    out.push(
        site_finding(
            site,
            field.name.span,
            format!("field `{}` looks like personal data or a secret but is not marked sensitive", site.path),
        )
        .help("add `sensitive=#true` so the value is redacted from logs and traces"),
    );
}

#[cfg(test)]
mod tests {
    use crate::names::words;
    use crate::lint::testkit::sites::*;
    use super::{RULE, is_sensitive_name};
    use crate::model::{Effect, TyKind};

    #[test]
    fn names() {
        for yes in [
            "email", "contactEmail", "EMAIL_ADDRESS", "phone_number", "billing_address", "zip_code", "ssn",
            "passport_number", "date_of_birth", "birthDate", "dob", "card_number", "cardNumber", "iban",
            "cvv", "api_key", "private_key", "client_secret", "access_token", "password", "password_hash",
            "address_line1", "passportNumber",
        ] {
            assert!(is_sensitive_name(&words(yes)), "{yes}");
        }
        for no in ["email_subject", "phone_model", "emailer_name", "page_token", "secret_name", "card_type", "account_reference", "key", "birth_year_range"] {
            assert!(!is_sensitive_name(&words(no)), "{no}");
        }
    }

    #[test]
    fn strings_only_and_marked_fields_pass() {
        let mut marked = field("email", bounded_string(254));
        marked.sensitive = true;
        let t = tool(
            "user_get",
            Effect::Read,
            vec![marked, field("email_verified", TyKind::Boolean)],
            Some(vec![field("phones", array(bounded_string(20), Some(3))), field("owner_email", bounded_string(254))]),
        );
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&f), ["output.phones", "output.owner_email"]);
    }
}
