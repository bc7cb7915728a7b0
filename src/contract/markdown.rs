//! Filters every template may use to write Markdown safely from catalog text
//! (docs/templates.md): catalog authors write plain text, and a `|` in a summary or a `*`
//! in a pattern must not break a table or start emphasis in the generated docs.

use minijinja::Environment;

/// Registers `md`, `code` and `fence` on `env`.
pub fn add_filters(env: &mut Environment<'static>) {
    env.add_filter("md", |s: String| md(&s));
    env.add_filter("code", |s: String| code(&s));
    env.add_filter("fence", |s: String| fence(&s));
}

/// Plain text as one line of Markdown inline text: the characters that start markup or end
/// a table cell are backslash-escaped, `<` and `>` become entities (no raw HTML), line
/// breaks become spaces. Underscores stay as written: inside a word (`invoice_list`) they
/// never start emphasis.
pub fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '[' | ']' | '|' | '#' | '!' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\r' => {}
            '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Plain text as an inline code span, fenced with one more backtick than the longest run
/// inside it (CommonMark), on one line. A `|` is escaped so the span can sit in a table cell
/// (GFM removes the backslash inside code spans in tables); outside tables use `fence`.
pub fn code(text: &str) -> String {
    let text = text.replace(['\r', '\n'], " ").replace('|', "\\|");
    let ticks = "`".repeat(longest_run(&text, '`') + 1);
    // A span that starts or ends with a backtick needs a space between it and the fence.
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// The backtick fence for a code block holding `text`: at least three backticks, one more
/// than the longest run inside.
pub fn fence(text: &str) -> String {
    "`".repeat((longest_run(text, '`') + 1).max(3))
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md_escapes_markup_and_html() {
        assert_eq!(md("a | b *c* <x>\nnext"), "a \\| b \\*c\\* &lt;x&gt; next");
        assert_eq!(md("invoice_list"), "invoice_list");
    }

    #[test]
    fn code_spans_and_fences_outgrow_backticks_inside() {
        assert_eq!(code("^INV-[0-9]+$"), "`^INV-[0-9]+$`");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(code("x `y`"), "`` x `y` ``");
        assert_eq!(fence("plain"), "```");
        assert_eq!(fence("has ```` four"), "`````");
    }
}
