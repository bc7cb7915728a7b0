//! The billing catalog over in-memory data: what a server author writes by hand. Each
//! method receives input that already passed the contract, and returns typed output or one
//! of the catalog's errors.

use crate::billing::{self, Invoice, InvoiceCurrency, InvoiceStatus};
use crate::billing::{invoice_get, invoice_list, invoice_send_reminder};
use catalogc::rmcp::CancellationToken;
use catalogc::runtime::{Date, DateTime};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the server trusts about a request: from the authenticated session, never from
/// tool arguments.
#[derive(Debug, Clone, Default)]
pub struct Session {
    pub tenant: String,
    /// Approval digests the user confirmed in the host's approval dialog.
    pub approved: Vec<String>,
    /// Cancelled when the call's deadline passes or its client goes away.
    pub cancel: CancellationToken,
    /// When the server cancels the call (`limits timeout-ms=`); `None` without a limit.
    pub deadline: Option<Instant>,
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
        input: invoice_list::Input,
    ) -> Result<invoice_list::Output, invoice_list::Error> {
        // A listing that cannot finish before the deadline, or a call already cancelled,
        // is refused with the reason rather than started.
        if ctx.cancel.is_cancelled() {
            let detail = "the call was cancelled before the listing started".to_string();
            return Err(invoice_list::Error::BillingUnavailable(Some(detail)));
        }
        if let Some(deadline) = ctx.deadline
            && deadline.saturating_duration_since(Instant::now()) < LIST_BUDGET
        {
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
        let items = self
            .invoices
            .iter()
            .filter(|(t, i)| *t == ctx.tenant && i.status == wanted)
            .map(|(_, i)| i.clone())
            .take(size)
            .collect();
        Ok(invoice_list::Output {
            items,
            next_cursor: None,
        })
    }

    async fn invoice_get(
        &self,
        ctx: &Session,
        input: invoice_get::Input,
    ) -> Result<invoice_get::Output, invoice_get::Error> {
        if self.faults && input.invoice_reference == PANIC_INVOICE {
            panic!("injected fault: invoice_get of {PANIC_INVOICE}");
        }
        if self.faults && input.invoice_reference == HANG_INVOICE {
            // Stops only when the server cancels the call at its deadline.
            ctx.cancel.cancelled().await;
            return Err(invoice_get::Error::BillingUnavailable(None));
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
        input: invoice_send_reminder::Input,
    ) -> Result<invoice_send_reminder::Reply, invoice_send_reminder::Error> {
        use invoice_send_reminder::{Error, NeedsInput, Output, Reply};
        let invoice = self
            .find(&ctx.tenant, &input.invoice_reference)
            .ok_or(Error::InvoiceNotFound(None))?;
        if invoice.status != InvoiceStatus::Overdue {
            return Err(Error::InvoiceNotOverdue(Some(format!(
                "the invoice is due on {}",
                invoice.due_date
            ))));
        }
        if !ctx.approved.contains(&input.approval_digest()) {
            return Ok(Reply::InputRequired {
                needs: NeedsInput::Approval,
                prompt: format!(
                    "Send a payment reminder for {} to the customer?",
                    input.invoice_reference
                ),
            });
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
