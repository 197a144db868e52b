import type { StubPortalSession, StubSession } from './types';

/** The pages a browser sees: Checkout's "Pay" page and the Customer Portal. Deliberately tiny. */

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><main>${body}</main></body></html>`;

export function payPage(session: StubSession): string {
  const amount = `${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}`;
  if (session.status !== 'open') return page('Checkout', `<h1>Checkout</h1><p>This Checkout Session is ${escape(session.status)}.</p>`);
  const cancel = session.cancel_url ? `<p><a href="${escape(session.cancel_url)}">Cancel</a></p>` : '';
  return page(
    'Checkout',
    `<h1>Checkout</h1><p data-testid="amount">${escape(amount)}${session.mode === 'subscription' ? ' per period' : ''}</p>` +
      `<form method="post" action="/pay/${escape(session.id)}"><button type="submit">Pay</button></form>${cancel}`
  );
}

export function portalPage(portal: StubPortalSession): string {
  const back = portal.return_url ? `<p><a href="${escape(portal.return_url)}">Return</a></p>` : '';
  return page('Customer portal', `<h1>Customer portal</h1><p data-testid="customer">${escape(portal.customer)}</p>${back}`);
}

/** Where Stripe sends the customer after paying: the success URL with `{CHECKOUT_SESSION_ID}` filled in. */
export const successRedirect = (session: StubSession): string =>
  (session.success_url ?? '/').split('{CHECKOUT_SESSION_ID}').join(session.id);
