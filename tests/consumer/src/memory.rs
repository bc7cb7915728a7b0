//! The billing catalog over in-memory data: what a server author writes by hand. Each
//! method receives the server author's context, what it learns of the call (deadline,
//! cancellation, progress, the user's typed answers) and input that already passed the
//! contract, and returns typed output or one of the catalog's errors.

use crate::billing::{self, Invoice, InvoiceCurrency, InvoiceStatus};
use crate::billing::{invoice_get, invoice_list, invoice_send_reminder};
use catalogc::runtime::{Confirmation, Date, DateTime};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the server trusts about a request: from the authenticated session, never from
/// tool arguments.
#[derive(Debug, Clone, Default)]
pub struct Session {
    pub tenant: String,
}

/// The least time `invoice_list` needs before its deadline to start a listing.
pub const LIST_BUDGET: Duration = Duration::from_millis(50);

/// Invoices per tenant; `lie` makes `invoice_get` return an invoice that breaks the
/// output contract (to prove it is withheld).
#[derive(Debug, Default)]
pub struct Memory {
    pub invoices: Vec<(String, Invoice)>,
    /// The idempotency key of each reminder sent, in order: how often the handler sent one.
    pub reminders: Mutex<Vec<String>>,
    pub lie: bool,
    /// Test-only faults, to prove the server survives them: `invoice_get` of
    /// [`PANIC_INVOICE`] panics, of [`HANG_INVOICE`] waits until the call is cancelled.
    pub faults: bool,
    /// How many calls of [`HANG_INVOICE`] ended because they were cancelled (shared, so a
    /// test can watch a server that owns the `Memory`).
    pub cancelled: Arc<AtomicUsize>,
}

/// With [`Memory::faults`], `invoice_get` of this invoice panics.
pub const PANIC_INVOICE: &str = "INV-500";
/// With [`Memory::faults`], `invoice_get` of this invoice never finishes by itself.
pub const HANG_INVOICE: &str = "INV-504";

/// A fixed instant of the sample data (the Unix epoch should `text` not parse).
fn time(text: &str) -> DateTime {
    DateTime::parse_from_rfc3339(text).unwrap_or_default()
}

impl Memory {
    /// Two invoices of tenant `acme`, one of tenant `other`.
    pub fn sample() -> Memory {
        let invoice = |n: u32, status: InvoiceStatus| Invoice {
            invoice_reference: format!("INV-{n}"),
            customer_display_name: format!("Customer {n}"),
            status,
            currency: InvoiceCurrency::Eur,
            amount_due_minor: 1000 * u64::from(n),
            due_date: Date::from_ymd_opt(2026, 1, 31).unwrap_or_default(),
            issued_at: time("2026-01-01T09:00:00Z"),
        };
        Memory {
            invoices: vec![
                ("acme".into(), invoice(1, InvoiceStatus::Overdue)),
                ("acme".into(), invoice(2, InvoiceStatus::Open)),
                ("other".into(), invoice(3, InvoiceStatus::Overdue)),
            ],
            ..Memory::default()
        }
    }

    fn find(&self, tenant: &str, reference: &str) -> Option<&Invoice> {
        self.invoices
            .iter()
            .find(|(t, i)| t == tenant && i.invoice_reference == reference)
            .map(|(_, i)| i)
    }
}

impl billing::Billing for Memory {
    type Context = Session;

    async fn invoice_list(
        &self,
        ctx: &Session,
        call: &invoice_list::Call,
        input: invoice_list::Input,
    ) -> Result<invoice_list::Output, invoice_list::Error> {
        // A listing that cannot finish before the deadline, or a call already cancelled,
        // is refused with the reason rather than started.
        if call.is_cancelled() {
            let detail = "the call was cancelled before the listing started".to_string();
            return Err(invoice_list::Error::BillingUnavailable(Some(detail)));
        }
        if call.remaining().is_some_and(|left| left < LIST_BUDGET) {
            let detail = format!(
                "less than {} ms left before the call's deadline",
                LIST_BUDGET.as_millis()
            );
            return Err(invoice_list::Error::BillingUnavailable(Some(detail)));
        }
        let wanted = match input.status {
            invoice_list::Status::Open => InvoiceStatus::Open,
            invoice_list::Status::Overdue => InvoiceStatus::Overdue,
        };
        if input.cursor.is_some() {
            let detail = "this listing has a single page: no cursor is valid".to_string();
            return Err(invoice_list::Error::InvalidCursor(Some(detail)));
        }
        let size = usize::from(input.page_size);
        let found: Vec<&Invoice> = self
            .invoices
            .iter()
            .filter(|(t, i)| *t == ctx.tenant && i.status == wanted)
            .map(|(_, i)| i)
            .take(size)
            .collect();
        // One progress report per invoice read (sent only when the client asked for them).
        let total = found.len() as f64;
        let mut items = Vec::with_capacity(found.len());
        for invoice in found {
            items.push(invoice.clone());
            let message = format!("read {}", invoice.invoice_reference);
            call.progress(items.len() as f64, Some(total), Some(&message))
                .await;
        }
        Ok(invoice_list::Output {
            items,
            next_cursor: None,
        })
    }

    async fn invoice_get(
        &self,
        ctx: &Session,
        call: &invoice_get::Call,
        input: invoice_get::Input,
    ) -> Result<invoice_get::Output, invoice_get::Error> {
        if self.faults && input.invoice_reference == PANIC_INVOICE {
            panic!("injected fault: invoice_get of {PANIC_INVOICE}");
        }
        if self.faults && input.invoice_reference == HANG_INVOICE {
            // Stops only when the call is cancelled: by its client (then this error is the
            // answer), or at its deadline (then the server answers `TOOL_TIMEOUT`).
            call.cancelled().await;
            self.cancelled.fetch_add(1, Ordering::SeqCst);
            let detail = "the call was cancelled before the invoice was read".to_string();
            return Err(invoice_get::Error::BillingUnavailable(Some(detail)));
        }
        let mut invoice = self
            .find(&ctx.tenant, &input.invoice_reference)
            .cloned()
            .ok_or(invoice_get::Error::InvoiceNotFound(None))?;
        if self.lie {
            invoice.invoice_reference = "not an invoice number".into();
        }
        // With a key: only the reminder sent with it (whether a timed-out call went out).
        let reminders = self
            .reminders
            .lock()
            .map(|sent| match &input.idempotency_key {
                Some(key) => sent.iter().filter(|k| *k == key).count(),
                None => sent.len(),
            })
            .unwrap_or(0);
        Ok(invoice_get::Output {
            invoice,
            reminder_count: u8::try_from(reminders).unwrap_or(u8::MAX),
            last_reminder_at: None,
        })
    }

    async fn invoice_send_reminder(
        &self,
        ctx: &Session,
        call: &invoice_send_reminder::Call,
        input: invoice_send_reminder::Input,
    ) -> Result<invoice_send_reminder::Reply, invoice_send_reminder::Error> {
        use invoice_send_reminder::{Error, InvoiceNotOverdueDetail, NeedsInput, Output, Reply};
        let invoice = self
            .find(&ctx.tenant, &input.invoice_reference)
            .ok_or(Error::InvoiceNotFound(None))?;
        if invoice.status != InvoiceStatus::Overdue {
            return Err(Error::InvoiceNotOverdue(InvoiceNotOverdueDetail {
                due_date: invoice.due_date,
            }));
        }
        // The server has checked that a confirmation is bound to this tool, these arguments
        // and this tenant; without one, the user is asked.
        match &call.answers().approval {
            Confirmation::Confirmed { .. } => {}
            Confirmation::Unanswered | Confirmation::Declined => {
                return Ok(Reply::InputRequired {
                    needs: NeedsInput::Approval,
                    prompt: format!(
                        "Send a payment reminder for {} to the customer?",
                        input.invoice_reference
                    ),
                });
            }
        }
        // A poisoned log is a broken invariant, not the mail service's failure.
        let mut sent = self
            .reminders
            .lock()
            .map_err(|_| Error::Internal("the reminder log is poisoned".into()))?;
        sent.push(input.idempotency_key().to_string());
        Ok(Reply::Complete(Output {
            reminder_reference: format!("REM-{}", sent.len()),
            sent_at: time("2026-02-01T10:00:00Z"),
        }))
    }
}
