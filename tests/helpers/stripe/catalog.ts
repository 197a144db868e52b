import { found, invalid, missing, noSuch, onlyOneOf } from './errors';
import type { Params } from './form';
import { route, type Route } from './route';
import { listOf, newId, now, type StubContext } from './store';
import type { StubPlan, StubPrice, StubProduct } from './types';

/** Products and prices: POST/GET /v1/products, /v1/prices (with lookup keys and their transfer). */

export function createProduct(ctx: StubContext, params: Params): StubProduct {
  params.only('name', 'id', 'active', 'description', 'metadata');
  const id = params.string('id', { max: 255 }) || newId('prod_', 14);
  if (ctx.store.products.has(id)) throw invalid('Product already exists.', 'id', 'resource_already_exists');
  const created = now();
  const product: StubProduct = {
    id,
    object: 'product',
    active: params.bool('active') ?? true,
    created,
    default_price: null,
    description: params.string('description') || null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: params.metadata() ?? {},
    name: params.required('name', 5000),
    package_dimensions: null,
    shippable: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    updated: created,
    url: null,
  };
  ctx.store.products.set(id, product);
  return product;
}

function updateProduct(ctx: StubContext, id: string, params: Params): StubProduct {
  const product = ctx.store.products.get(id);
  if (!product) throw noSuch('product', id);
  params.only('name', 'active', 'description', 'metadata');
  if (params.has('name')) product.name = params.required('name', 5000);
  if (params.has('description')) product.description = params.string('description') || null;
  product.active = params.bool('active') ?? product.active;
  product.metadata = params.metadata('metadata', product.metadata) ?? product.metadata;
  product.updated = now();
  return product;
}

const INTERVALS = ['day', 'week', 'month', 'year'] as const;

function recurringOf(ctx: StubContext, params: Params): StubPrice['recurring'] {
  const recurring = params.object('recurring');
  if (!recurring) return null;
  recurring.only('interval', 'interval_count', 'usage_type', 'meter');
  const usageType = recurring.oneOf('usage_type', ['licensed', 'metered'] as const) ?? 'licensed';
  const meter = recurring.string('meter');
  if (usageType === 'metered') {
    if (!meter)
      throw invalid(
        'A meter is required for prices with usage_type `metered`. Pass recurring[meter].',
        'recurring[meter]',
        'parameter_missing'
      );
    const found = ctx.store.meters.get(meter);
    if (!found) throw noSuch('billing meter', meter, 'recurring[meter]');
    if (found.status !== 'active') throw invalid(`The meter ${meter} is inactive; a price cannot use it.`, 'recurring[meter]');
  } else if (meter) {
    throw invalid('recurring[meter] can only be set when recurring[usage_type] is `metered`.', 'recurring[meter]');
  }
  return {
    interval: recurring.oneOf('interval', INTERVALS, true) as (typeof INTERVALS)[number],
    interval_count: recurring.int('interval_count', { min: 1, max: 365 }) ?? 1,
    meter: meter ?? null,
    trial_period_days: null,
    usage_type: usageType,
  };
}

/** The other price holding `key`, to take it from: refused as Stripe does unless `transfer_lookup_key` is true. */
function lookupKeyHolder(ctx: StubContext, key: string | null, transfer: boolean, forPrice?: string): StubPrice | undefined {
  const holder =
    key === null ? undefined : [...ctx.store.prices.values()].find((price) => price.lookup_key === key && price.id !== forPrice);
  if (holder && !transfer) throw invalid(`A price (\`${holder.id}\`) already uses that lookup key.`, 'lookup_key');
  return holder;
}

export function createPrice(ctx: StubContext, params: Params): StubPrice {
  params.only(
    'currency',
    'product',
    'product_data',
    'unit_amount',
    'unit_amount_decimal',
    'recurring',
    'lookup_key',
    'transfer_lookup_key',
    'nickname',
    'metadata',
    'active',
    'tax_behavior',
    'billing_scheme'
  );
  const currency = params.required('currency');
  if (!/^[a-zA-Z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}.`, 'currency');
  params.oneOf('billing_scheme', ['per_unit'] as const);
  if (params.has('unit_amount') && params.has('unit_amount_decimal')) throw onlyOneOf('unit_amount', 'unit_amount_decimal');
  const unitAmount = params.int('unit_amount', { min: 0, max: 99999999 });
  const decimal = params.decimal('unit_amount_decimal');
  if (unitAmount === undefined && decimal === undefined) throw missing('unit_amount');

  if (params.has('product') && params.has('product_data')) throw onlyOneOf('product', 'product_data');
  let product = params.string('product');
  if (product && !ctx.store.products.has(product)) throw noSuch('product', product, 'product');
  const recurring = recurringOf(ctx, params);
  const lookupKey = params.string('lookup_key', { max: 200 }) || null;
  const holder = lookupKeyHolder(ctx, lookupKey, params.bool('transfer_lookup_key') ?? false);
  const metadata = params.metadata() ?? {};
  const nickname = params.string('nickname') || null;
  const active = params.bool('active') ?? true;
  const taxBehavior = params.oneOf('tax_behavior', ['exclusive', 'inclusive', 'unspecified'] as const) ?? 'unspecified';
  if (!product) {
    const data = params.object('product_data');
    if (!data) throw missing('product');
    product = createProduct(ctx, data).id;
  }
  if (holder) holder.lookup_key = null;

  const integral = decimal !== undefined && /^\d+(\.0*)?$/.test(decimal);
  const price: StubPrice = {
    id: newId('price_'),
    object: 'price',
    active,
    billing_scheme: 'per_unit',
    created: now(),
    currency: currency.toLowerCase(),
    custom_unit_amount: null,
    livemode: false,
    lookup_key: lookupKey,
    metadata,
    nickname,
    product,
    recurring,
    tax_behavior: taxBehavior,
    tiers_mode: null,
    transform_quantity: null,
    type: recurring ? 'recurring' : 'one_time',
    unit_amount: unitAmount ?? (integral ? Number(decimal) : null),
    unit_amount_decimal: decimal ?? String(unitAmount),
  };
  ctx.store.prices.set(price.id, price);
  return price;
}

function updatePrice(ctx: StubContext, id: string, params: Params): StubPrice {
  const price = found(ctx.store.prices.get(id), 'price', id);
  // Everything is checked before anything changes: a refused update leaves the price (and the key's holder) as they were.
  params.only('active', 'lookup_key', 'transfer_lookup_key', 'metadata', 'nickname', 'tax_behavior');
  const key = params.has('lookup_key') ? params.string('lookup_key', { max: 200 }) || null : price.lookup_key;
  const holder = lookupKeyHolder(ctx, key, params.bool('transfer_lookup_key') ?? false, price.id);
  const metadata = params.metadata('metadata', price.metadata);
  const taxBehavior = params.oneOf('tax_behavior', ['exclusive', 'inclusive', 'unspecified'] as const);
  const active = params.bool('active');
  if (holder) holder.lookup_key = null;
  price.lookup_key = key;
  price.active = active ?? price.active;
  if (params.has('nickname')) price.nickname = params.string('nickname') || null;
  price.metadata = metadata ?? price.metadata;
  price.tax_behavior = taxBehavior ?? price.tax_behavior;
  return price;
}

function listPrices(ctx: StubContext, params: Params) {
  params.only('active', 'product', 'type', 'currency', 'lookup_keys', 'recurring', 'limit', 'starting_after', 'ending_before');
  const lookupKeys = params.strings('lookup_keys');
  if (lookupKeys.length > 10) throw invalid('You can pass at most 10 lookup_keys.', 'lookup_keys');
  const active = params.bool('active');
  const product = params.string('product');
  const type = params.oneOf('type', ['one_time', 'recurring'] as const);
  const currency = params.string('currency')?.toLowerCase();
  const recurring = params.object('recurring')?.only('interval', 'usage_type');
  const interval = recurring?.oneOf('interval', INTERVALS);
  const usageType = recurring?.oneOf('usage_type', ['licensed', 'metered'] as const);
  const prices = [...ctx.store.prices.values()].filter(
    (price) =>
      (lookupKeys.length === 0 || (price.lookup_key !== null && lookupKeys.includes(price.lookup_key))) &&
      (active === undefined || price.active === active) &&
      (!product || price.product === product) &&
      (!type || price.type === type) &&
      (!currency || price.currency === currency) &&
      (!interval || price.recurring?.interval === interval) &&
      (!usageType || price.recurring?.usage_type === usageType)
  );
  return listOf(prices, params, '/v1/prices');
}

/** The legacy plan object Stripe still puts on subscription items, made from the price. */
export const planOf = (price: StubPrice): StubPlan => ({
  id: price.id,
  object: 'plan',
  active: price.active,
  amount: price.unit_amount,
  amount_decimal: price.unit_amount_decimal,
  billing_scheme: price.billing_scheme,
  created: price.created,
  currency: price.currency,
  interval: price.recurring?.interval ?? 'month',
  interval_count: price.recurring?.interval_count ?? 1,
  livemode: false,
  metadata: price.metadata,
  meter: price.recurring?.meter ?? null,
  nickname: price.nickname,
  product: price.product,
  tiers_mode: null,
  transform_usage: null,
  trial_period_days: null,
  usage_type: price.recurring?.usage_type ?? 'licensed',
});

/** A price a subscription can use: it exists, is active and recurring. */
export function recurringPrice(ctx: StubContext, id: string, param: string): StubPrice {
  const price = ctx.store.prices.get(id);
  if (!price) throw noSuch('price', id, param);
  if (!price.active) throw invalid(`The price specified is inactive. This field only accepts active prices.`, param);
  if (!price.recurring)
    throw invalid(`The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`, param);
  return price;
}

export const catalogRoutes: Route[] = [
  route('POST', '/v1/products', ({ ctx, params }) => createProduct(ctx, params)),
  route('GET', '/v1/products/:id', ({ ctx, ids }) => found(ctx.store.products.get(ids[0]), 'product', ids[0])),
  route('POST', '/v1/products/:id', ({ ctx, ids, params }) => updateProduct(ctx, ids[0], params)),
  route('POST', '/v1/prices', ({ ctx, params }) => createPrice(ctx, params)),
  route('GET', '/v1/prices', ({ ctx, params }) => listPrices(ctx, params)),
  route('GET', '/v1/prices/:id', ({ ctx, ids }) => found(ctx.store.prices.get(ids[0]), 'price', ids[0])),
  route('POST', '/v1/prices/:id', ({ ctx, ids, params }) => updatePrice(ctx, ids[0], params)),
];
