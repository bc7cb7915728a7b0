//! The `trust/internal-key` rule: input `id` / `*_id` fields are not integer database keys;
//! [`RULE`] documents it.

use crate::names::words;
use crate::diag::Level;
use crate::model::{Catalog, Tool};
use crate::lint::walk::site_finding;
use crate::lint::walk::{Side, Site};
use crate::lint::{Context, Finding};
use crate::model::TyKind;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags input fields, at any depth, named `id` or ending in the word `id` (`order_id`,
    /// `orderId`) of type `integer`, and arrays of integers named `ids` or `…_ids`, unless
    /// another read-class tool of the same catalog names the resource the key is for: the word
    /// before `id` (`folder` for `folder_id`; for a bare `id`, the object field it sits in), in
    /// its name, singular or plural (`folder_list`, `get_folders`). Such a tool hands the model
    /// the keys, so it does not have to guess them; a wrapper of an upstream API whose public
    /// identifiers are integers (GitHub comment IDs, a dashboard ID listed by `dashboards_get_all`)
    /// has no other key to offer.
    ///
    /// ## Why is this bad?
    /// An integer database key is something the user never sees and the model cannot know, so it
    /// guesses or enumerates (`order_id=1, 2, 3…`), which also invites insecure direct object
    /// references. Accept a reference the user knows (`order_reference`, an invoice number) or
    /// an opaque string identifier returned by another tool.
    ///
    /// ## Example
    /// ```kdl
    /// field "order_id" "integer" required=#true min=1 max=2147483647
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "order_reference" "string" required=#true max-length=32 pattern="^ORD-[0-9]+$"
    /// ```
    pub static RULE = Rule {
        id: "trust/internal-key",
        level: Level::Warn,
        summary: "input `id` / `*_id` fields are not integer database keys",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

fn is_integer_key(w: &[String], kind: &TyKind) -> bool {
    match (w.last().map(String::as_str), kind) {
        (Some("id"), TyKind::Integer(_)) => true,
        (Some("ids"), TyKind::Array(a)) => matches!(a.items.kind, TyKind::Integer(_)),
        _ => false,
    }
}

/// The resource a key is for: the word before `id` / `ids`, or for a bare `id` the last word
/// of the object field it sits in (`input.updated_field.id` → `field`); `None` at the top
/// level of the input, where the key is the tool's own resource.
fn resource(name: &str, path: &str) -> Option<String> {
    let w = words(name);
    if w.len() >= 2 {
        return w.get(w.len() - 2).cloned();
    }
    let parent = path.rsplit('.').nth(1)?.trim_end_matches("[]");
    if parent == "input" {
        return None;
    }
    words(parent).pop()
}

/// Another read-class tool of the catalog has `resource` (or its plural) in its name.
fn listed_by_another_tool(catalog: &Catalog, this: &Tool, resource: &str) -> bool {
    let plural = [format!("{resource}s"), format!("{resource}es")];
    catalog.tools.iter().any(|t| {
        t.name.value != this.name.value
            && t.effect.value.is_read_class()
            && words(&t.name.value).iter().any(|w| w == resource || plural.contains(w))
    })
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    if site.side != Some(Side::Input) {
        return;
    }
    let (Some(field), Some(tool)) = (site.field, site.tool) else { return };
    if !is_integer_key(site.name_words(), &site.ty.kind) {
        return;
    }
    let resource = resource(&field.name.value, site.path);
    if resource.as_deref().is_some_and(|r| listed_by_another_tool(site.catalog, tool, r)) {
        return;
    }
    let what = resource.unwrap_or_else(|| "record".to_string());
    out.push(
        site_finding(site, field.name.span, format!("input field `{}` takes an integer key that no other tool of the catalog lists", site.path))
            .help(format!("take a `{what}_reference` the user knows (a name or a number shown to users), or add a read tool that lists the {what}s with their ids, so the model never guesses `{}`", field.name.value)),
    );
}

#[cfg(test)]
mod tests {
    use crate::names::words;
    use crate::lint::testkit::sites::*;
    use super::{RULE, is_integer_key};
    use crate::model::Effect;

    #[test]
    fn integer_ids_only() {
        let i = int(Some(1), Some(9));
        assert!(is_integer_key(&words("id"), &i));
        assert!(is_integer_key(&words("order_id"), &i));
        assert!(is_integer_key(&words("orderId"), &i));
        assert!(is_integer_key(&words("order_ids"), &array(i.clone(), Some(3))));
        assert!(!is_integer_key(&words("order_id"), &bounded_string(9)));
        assert!(!is_integer_key(&words("order_ids"), &array(bounded_string(9), Some(3))));
        assert!(!is_integer_key(&words("paid"), &i));
        assert!(!is_integer_key(&words("identity_count"), &i));
        assert!(!is_integer_key(&words("ids"), &i));
    }

    #[test]
    fn keys_another_tool_lists_pass() {
        let key = || int(Some(1), Some(9));
        let get = tool(
            "dashboard_get",
            Effect::Read,
            vec![
                field("dashboard_id", key()),
                field("folder_id", key()),
                field("updated_field", object(vec![field("id", key())])),
                field("id", key()),
            ],
            None,
        );
        let list = tool("dashboards_get_all", Effect::Read, vec![], None);
        let f = check(&RULE, catalog(vec![get, list], vec![]));
        assert_eq!(paths(&f), ["input.folder_id", "input.updated_field.id", "input.id"]);
        assert!(f[0].help.as_deref().unwrap_or("").contains("`folder_reference`"));
    }
}
