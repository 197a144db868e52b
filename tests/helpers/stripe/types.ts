import type Stripe from 'stripe';

/**
 * The objects the stub answers, as JSON on the wire. Each picks its fields from the SDK's own type, so a
 * field the stub sends has Stripe's name and type; ids are plain strings (never expanded objects) and
 * `*_decimal` fields are strings (the SDK turns them into `Decimal`s when it reads a response).
 */

export interface StubList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export interface StubProduct extends Pick<
  Stripe.Product,
  | 'id'
  | 'object'
  | 'active'
  | 'created'
  | 'description'
  | 'images'
  | 'livemode'
  | 'marketing_features'
  | 'metadata'
  | 'name'
  | 'package_dimensions'
  | 'shippable'
  | 'type'
  | 'updated'
  | 'url'
> {
  default_price: string | null;
  tax_code: string | null;
  unit_label: string | null;
}

export interface StubPrice extends Pick<
  Stripe.Price,
  | 'id'
  | 'object'
  | 'active'
  | 'billing_scheme'
  | 'created'
  | 'currency'
  | 'custom_unit_amount'
  | 'livemode'
  | 'lookup_key'
  | 'metadata'
  | 'nickname'
  | 'recurring'
  | 'tax_behavior'
  | 'tiers_mode'
  | 'transform_quantity'
  | 'type'
  | 'unit_amount'
> {
  product: string;
  unit_amount_decimal: string | null;
}

export interface StubPlan extends Pick<
  Stripe.Plan,
  | 'id'
  | 'object'
  | 'active'
  | 'amount'
  | 'billing_scheme'
  | 'created'
  | 'currency'
  | 'interval'
  | 'interval_count'
  | 'livemode'
  | 'metadata'
  | 'meter'
  | 'nickname'
  | 'tiers_mode'
  | 'transform_usage'
  | 'trial_period_days'
  | 'usage_type'
> {
  product: string;
  amount_decimal: string | null;
}

export type StubMeter = Stripe.Billing.Meter;
export type StubMeterEvent = Stripe.Billing.MeterEvent;

export type StubCustomer = Pick<
  Stripe.Customer,
  | 'id'
  | 'object'
  | 'address'
  | 'balance'
  | 'created'
  | 'currency'
  | 'default_source'
  | 'delinquent'
  | 'description'
  | 'email'
  | 'invoice_prefix'
  | 'invoice_settings'
  | 'livemode'
  | 'metadata'
  | 'name'
  | 'phone'
  | 'preferred_locales'
  | 'shipping'
  | 'tax_exempt'
>;

export interface StubSubscriptionItem extends Pick<
  Stripe.SubscriptionItem,
  | 'id'
  | 'object'
  | 'billing_thresholds'
  | 'created'
  | 'current_period_end'
  | 'current_period_start'
  | 'current_trial'
  | 'discounts'
  | 'metadata'
  | 'quantity'
  | 'subscription'
  | 'tax_rates'
> {
  price: StubPrice;
  plan: StubPlan;
}

export interface StubSubscription extends Pick<
  Stripe.Subscription,
  | 'id'
  | 'object'
  | 'application'
  | 'application_fee_percent'
  | 'automatic_tax'
  | 'billing_cycle_anchor'
  | 'billing_cycle_anchor_config'
  | 'billing_mode'
  | 'billing_thresholds'
  | 'cancel_at'
  | 'cancel_at_period_end'
  | 'canceled_at'
  | 'cancellation_details'
  | 'collection_method'
  | 'created'
  | 'currency'
  | 'customer_account'
  | 'days_until_due'
  | 'default_payment_method'
  | 'default_source'
  | 'description'
  | 'discounts'
  | 'ended_at'
  | 'invoice_settings'
  | 'livemode'
  | 'metadata'
  | 'next_pending_invoice_item_invoice'
  | 'on_behalf_of'
  | 'pause_collection'
  | 'payment_settings'
  | 'pending_invoice_item_interval'
  | 'pending_setup_intent'
  | 'pending_update'
  | 'schedule'
  | 'start_date'
  | 'status'
  | 'test_clock'
  | 'transfer_data'
  | 'trial_end'
  | 'trial_settings'
  | 'trial_start'
> {
  customer: string;
  items: StubList<StubSubscriptionItem>;
  latest_invoice: string | null;
}

export interface StubInvoiceLine extends Pick<
  Stripe.InvoiceLineItem,
  | 'id'
  | 'object'
  | 'amount'
  | 'currency'
  | 'description'
  | 'discount_amounts'
  | 'discountable'
  | 'discounts'
  | 'invoice'
  | 'livemode'
  | 'metadata'
  | 'parent'
  | 'period'
  | 'quantity'
  | 'subtotal'
  | 'taxes'
> {
  subscription: string | null;
  pricing: { type: 'price_details'; price_details: { price: string; product: string }; unit_amount_decimal: string | null };
  quantity_decimal: string | null;
}

export interface StubInvoice extends Pick<
  Stripe.Invoice,
  | 'id'
  | 'object'
  | 'account_country'
  | 'account_name'
  | 'amount_due'
  | 'amount_overpaid'
  | 'amount_paid'
  | 'amount_remaining'
  | 'amount_shipping'
  | 'attempt_count'
  | 'attempted'
  | 'auto_advance'
  | 'billing_reason'
  | 'collection_method'
  | 'created'
  | 'currency'
  | 'customer_email'
  | 'customer_name'
  | 'default_payment_method'
  | 'default_source'
  | 'description'
  | 'discounts'
  | 'due_date'
  | 'effective_at'
  | 'ending_balance'
  | 'footer'
  | 'hosted_invoice_url'
  | 'invoice_pdf'
  | 'livemode'
  | 'metadata'
  | 'next_payment_attempt'
  | 'number'
  | 'on_behalf_of'
  | 'period_end'
  | 'period_start'
  | 'post_payment_credit_notes_amount'
  | 'pre_payment_credit_notes_amount'
  | 'receipt_number'
  | 'starting_balance'
  | 'statement_descriptor'
  | 'status'
  | 'status_transitions'
  | 'subtotal'
  | 'subtotal_excluding_tax'
  | 'test_clock'
  | 'total'
  | 'total_discount_amounts'
  | 'total_excluding_tax'
  | 'total_taxes'
  | 'webhooks_delivered_at'
> {
  customer: string;
  lines: StubList<StubInvoiceLine>;
  parent: {
    type: 'subscription_details';
    quote_details: null;
    subscription_details: { metadata: Record<string, string>; subscription: string };
  };
}

/** A Checkout Session: the fields the first version of the stub answered, then the rest. */
export interface StubSession extends Pick<
  Stripe.Checkout.Session,
  'allow_promotion_codes' | 'amount_subtotal' | 'client_reference_id' | 'created' | 'customer_email' | 'expires_at' | 'livemode'
> {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string | null;
  cancel_url: string | null;
  payment_method_types: string[];
  customer: string | null;
  subscription: string | null;
  invoice: string | null;
}

export interface StubPortalSession extends Pick<
  Stripe.BillingPortal.Session,
  'id' | 'object' | 'created' | 'customer' | 'customer_account' | 'flow' | 'livemode' | 'locale' | 'on_behalf_of' | 'return_url' | 'url'
> {
  configuration: string;
}

export type StubObject =
  StubSession | StubSubscription | StubInvoice | StubCustomer | StubPrice | StubProduct | StubMeter | StubPortalSession;

export type StubEventType = Extract<
  Stripe.Event['type'],
  | 'checkout.session.completed'
  | 'customer.subscription.created'
  | 'customer.subscription.updated'
  | 'customer.subscription.deleted'
  | 'invoice.paid'
  | 'invoice.payment_failed'
>;

/** An event as Stripe sends it to a webhook endpoint. */
export interface StubEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: StubObject; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: StubEventType;
}
