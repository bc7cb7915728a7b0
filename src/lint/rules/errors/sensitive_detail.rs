//! The `errors/sensitive-detail` rule: no `sensitive` value in an error's `detail`; [`RULE`]
//! documents it.

use crate::diag::Level;
use crate::lint::walk::{Site, site_finding, site_span};
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Reports a field marked `sensitive=#true` inside an error's `detail`, written there or
    /// reached through a named type the detail uses.
    ///
    /// ## Why is this bad?
    /// An error's detail is sent to the model with the error: it is in the model's context,
    /// the client's transcript and every log of the conversation. `sensitive` promises that
    /// a value stays out of logs, which a detail cannot keep.
    ///
    /// ## Example
    /// ```kdl
    /// error "CARD_DECLINED" class="business-rejected" {
    ///     detail {
    ///         field "card_number" "string" required=#true max-length=19 sensitive=#true {
    ///             doc "The card that was declined."
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// error "CARD_DECLINED" class="business-rejected" {
    ///     detail {
    ///         field "card_last4" "string" required=#true pattern="^[0-9]{4}$" {
    ///             doc "The last four digits of the card that was declined."
    ///         }
    ///     }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "errors/sensitive-detail",
        level: Level::Error,
        summary: "no `sensitive` field in an error's `detail`: the detail is sent to the model",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let (Some(error), Some(field)) = (site.error, site.field) else {
        return;
    };
    if !field.sensitive {
        return;
    }
    out.push(
        site_finding(
            site,
            site_span(site),
            format!(
                "field `{}` is `sensitive`, but the detail of error `{}` is sent to the model",
                field.name.value, error.code.value
            ),
        )
        .help("leave the value out of the detail (log it on the server instead), or send a harmless part of it, such as the last four digits"),
    );
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::sites::*;
    use crate::model::{Effect, ErrorClass, Object};

    #[test]
    fn sensitive_fields_of_a_detail_are_reported_also_through_named_types() {
        let mut t = tool("card_charge", Effect::Read, vec![], None);
        let mut e = crate::lint::testkit::texts::error(
            "CARD_DECLINED",
            ErrorClass::BusinessRejected,
            None,
        );
        let mut secret = field("card_number", bounded_string(19));
        secret.sensitive = true;
        e.detail = Some(Box::new(Object {
            fields: vec![field("reason", bounded_string(32)), secret, field("owner", named("Owner"))],
            ..Object::default()
        }));
        t.errors.push(e);
        let mut email = field("email", bounded_string(64));
        email.sensitive = true;
        let owner = type_def("Owner", vec![email]);
        let f = check(&RULE, catalog(vec![t], vec![owner]));
        assert_eq!(
            paths(&f),
            ["error.CARD_DECLINED.detail.card_number", "error.CARD_DECLINED.detail.owner.email"]
        );
    }
}
