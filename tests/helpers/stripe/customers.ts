import { found, invalid, missing, noSuch } from './errors';
import type { Params } from './form';
import { route, type Route } from './route';
import { newId, now, type StubContext } from './store';
import type { StubCustomer, StubPortalSession } from './types';

/** Customers (create, retrieve, update, search by metadata) and Customer Portal sessions. */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function emailOf(params: Params): string | null | undefined {
  const email = params.string('email', { max: 512 });
  if (email && !EMAIL.test(email)) throw invalid(`Invalid email address: ${email}`, 'email', 'email_invalid');
  return email === undefined ? undefined : email || null;
}

export function createCustomer(ctx: StubContext, params: Params): StubCustomer {
  params.only('email', 'name', 'description', 'phone', 'metadata');
  const customer: StubCustomer = {
    id: newId('cus_', 14),
    object: 'customer',
    address: null,
    balance: 0,
    created: now(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: params.string('description') || null,
    email: emailOf(params) ?? null,
    invoice_prefix: newId('', 8).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: params.metadata() ?? {},
    name: params.string('name', { max: 256 }) || null,
    phone: params.string('phone') || null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
  };
  ctx.store.customers.set(customer.id, customer);
  return customer;
}

function updateCustomer(ctx: StubContext, id: string, params: Params): StubCustomer {
  const customer = found(ctx.store.customers.get(id), 'customer', id);
  params.only('email', 'name', 'description', 'phone', 'metadata');
  const email = emailOf(params);
  if (email !== undefined) customer.email = email;
  if (params.has('name')) customer.name = params.string('name', { max: 256 }) || null;
  if (params.has('description')) customer.description = params.string('description') || null;
  if (params.has('phone')) customer.phone = params.string('phone') || null;
  customer.metadata = params.metadata('metadata', customer.metadata) ?? customer.metadata;
  return customer;
}

/**
 * Search with Stripe's query language, the forms the app uses: `metadata['key']:'value'` and
 * `email:'value'` (single or double quotes). Anything else is refused rather than guessed at.
 */
function searchCustomers(ctx: StubContext, params: Params) {
  params.only('query', 'limit', 'page');
  const query = params.required('query').trim();
  const limit = params.int('limit', { min: 1, max: 100 }) ?? 10;
  const metadata = /^metadata\[(['"])(.+?)\1\]:(['"])(.*)\3$/.exec(query);
  const email = /^email:(['"])(.*)\1$/.exec(query);
  if (!metadata && !email) throw invalid(`The Stripe stub cannot run this search query: ${query}`, 'query');
  const matches = [...ctx.store.customers.values()]
    .filter((customer) => (metadata ? customer.metadata[metadata[2]] === metadata[4] : customer.email === email?.[2]))
    .reverse();
  return {
    object: 'search_result',
    data: matches.slice(0, limit),
    has_more: matches.length > limit,
    next_page: null,
    url: '/v1/customers/search',
  };
}

function createPortalSession(ctx: StubContext, params: Params): StubPortalSession {
  params.only('customer', 'return_url', 'locale', 'configuration');
  const customer = params.string('customer');
  if (!customer) throw missing('customer');
  if (!ctx.store.customers.has(customer)) throw noSuch('customer', customer, 'customer');
  const configuration = params.string('configuration');
  if (configuration) throw noSuch('billing_portal.configuration', configuration, 'configuration');
  const returnUrl = params.string('return_url') || null;
  if (returnUrl && !/^https?:\/\//.test(returnUrl)) throw invalid('Not a valid URL', 'return_url', 'url_invalid');
  const id = newId('bps_');
  const session: StubPortalSession = {
    id,
    object: 'billing_portal.session',
    configuration: 'bpc_default',
    created: now(),
    customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: (params.string('locale') as StubPortalSession['locale'] | undefined) ?? null,
    on_behalf_of: null,
    return_url: returnUrl,
    url: `${ctx.base}/portal/${id}`,
  };
  ctx.store.portalSessions.set(id, session);
  return session;
}

export const customerRoutes: Route[] = [
  route('POST', '/v1/customers', ({ ctx, params }) => createCustomer(ctx, params)),
  route('GET', '/v1/customers/search', ({ ctx, params }) => searchCustomers(ctx, params)),
  route('GET', '/v1/customers/:id', ({ ctx, ids }) => found(ctx.store.customers.get(ids[0]), 'customer', ids[0])),
  route('POST', '/v1/customers/:id', ({ ctx, ids, params }) => updateCustomer(ctx, ids[0], params)),
  route('POST', '/v1/billing_portal/sessions', ({ ctx, params }) => createPortalSession(ctx, params)),
];
