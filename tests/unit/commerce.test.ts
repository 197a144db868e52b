import type { Context } from 'koa';
import { ZodError } from 'zod';
import config from '../../src/plugins/api-suite/server/src/config';
import { RAW_BODY, rawBodyOf } from '../../src/plugins/api-suite/server/src/features/commerce/middlewares/commerce-body';
import { inLockOrder, mergeLines } from '../../src/plugins/api-suite/server/src/features/commerce/services/orders';
import { toMinorUnits } from '../../src/plugins/api-suite/server/src/stripe';
import { parseCheckout, parsePeriod } from '../../src/plugins/api-suite/server/src/features/commerce/validation';
import { ApiError, bodyParserError, errorListBody, fromZod } from '../../src/plugins/api-suite/server/src/http/errors';
import { envFrom } from '../helpers/env';

describe('commerce config', () => {
  it('defaults: no Stripe keys, euros, return URLs on the frontend, no search collections and no endpoint groups of its own', () => {
    const defaults = config.default({ env: envFrom({}) });
    expect(() => config.validator(defaults)).not.toThrow();
    expect(defaults.commerce).toEqual({
      stripeSecretKey: undefined,
      stripeWebhookSecret: undefined,
      currency: 'eur',
      successUrl: 'http://localhost:3000/checkout/success?order_id={ORDER_ID}&session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://localhost:3000/checkout/cancel?order_id={ORDER_ID}',
      sessionExpiresMinutes: 30,
      maxHeldUnits: 10,
      maxOpenCheckouts: 3,
      stripeApi: { host: undefined, port: undefined, protocol: undefined, maxNetworkRetries: 2, timeoutMs: 30_000 },
    });
    // Nothing is searchable until a site names it: the demo names its articles, products and pages in its own config.
    expect(defaults.search).toEqual({ collections: {}, defaultCollections: [] });
    expect(defaults.access.endpointGroups).toEqual({});
  });

  it("takes the demo's search collections and endpoint groups from its config/plugins.ts, valid as the plugin reads them", async () => {
    const { default: plugins } = (await import('../../config/plugins')) as {
      default: (params: { env: ReturnType<typeof envFrom> }) => Record<string, { config?: Record<string, unknown> }>;
    };
    const defaults = config.default({ env: envFrom({}) });
    const demo = plugins({ env: envFrom({}) })['api-suite'].config as {
      search: typeof defaults.search;
      access: { endpointGroups: typeof defaults.access.endpointGroups };
    };
    const merged = { ...defaults, search: demo.search, access: { ...defaults.access, endpointGroups: demo.access.endpointGroups } };
    expect(() => config.validator(merged)).not.toThrow();
    expect(merged.search.defaultCollections).toEqual(['articles', 'products']);
    expect(Object.keys(merged.search.collections).sort()).toEqual(['articles', 'pages', 'products']);
    expect(merged.access.endpointGroups.public).toEqual(['GET /api/v1/articles*']);
  });

  it('reads the Stripe variables and the first frontend origin', () => {
    const settings = config.default({
      env: envFrom({
        STRIPE_SECRET_KEY: 'sk_test_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_1',
        STRIPE_CURRENCY: 'USD',
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: '12111',
        STRIPE_API_PROTOCOL: 'http',
        FRONTEND_ORIGIN: 'https://shop.example/, https://admin.example',
      }),
    });
    expect(() => config.validator(settings)).not.toThrow();
    expect(settings.commerce).toMatchObject({
      stripeSecretKey: 'sk_test_1',
      stripeWebhookSecret: 'whsec_1',
      currency: 'usd',
      successUrl: 'https://shop.example/checkout/success?order_id={ORDER_ID}&session_id={CHECKOUT_SESSION_ID}',
      stripeApi: { host: '127.0.0.1', port: 12111, protocol: 'http' },
    });
  });

  it('refuses currencies that are not counted in hundredths, and unknown protocols', () => {
    const bad = config.default({ env: envFrom({ STRIPE_CURRENCY: 'jpy', STRIPE_API_PROTOCOL: 'ftp' }) });
    expect(() => config.validator(bad)).toThrow(/commerce\.currency: amounts are sent in hundredths/);
    expect(() => config.validator(bad)).toThrow(/commerce\.stripeApi\.protocol/);
  });

  it('refuses search collections that name no content type or a field that is no attribute name', () => {
    const defaults = config.default({ env: envFrom({}) });
    const bad = { ...defaults, search: { ...defaults.search, collections: { faq: { contentType: 'faq', fields: ['question; drop'] } } } };
    expect(() => config.validator(bad)).toThrow(/search\.collections\.faq\.contentType/);
    expect(() => config.validator(bad)).toThrow(/search\.collections\.faq\.fields\.0/);
  });
});

describe('checkout input', () => {
  it('an empty or missing cart is "Cart is empty"', () => {
    for (const body of [undefined, null, {}, [], { items: [] }, { items: null }, 'items']) {
      expect(() => parseCheckout(body)).toThrow(new ApiError(400, 'cart_empty', 'Cart is empty'));
    }
  });

  it('names each bad field', () => {
    let caught: unknown;
    try {
      parseCheckout({
        items: [
          { product_id: 0, quantity: 2 },
          { product_id: 3, quantity: 1001 },
        ],
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ZodError);
    expect(errorListBody(fromZod(caught as ZodError))).toEqual({
      errors: [
        { message: 'items.0.product_id: must be a product id (a positive whole number)' },
        { message: 'items.1.quantity: must be a whole number from 1 to 1000' },
      ],
    });
  });

  it('accepts an address as text or as an object of text fields, and card as the payment method', () => {
    expect(
      parseCheckout({ items: [{ product_id: 1, quantity: 1 }], shipping_address: '1 Main Street, Paris', payment_method: 'card' })
    ).toEqual({
      items: [{ product_id: 1, quantity: 1 }],
      shipping_address: '1 Main Street, Paris',
      payment_method: 'card',
    });
    expect(
      parseCheckout({ items: [{ product_id: 1, quantity: 1000 }], shipping_address: { city: 'Paris', postal_code: '75001' } })
        .shipping_address
    ).toEqual({
      city: 'Paris',
      postal_code: '75001',
    });
  });
});

describe('lines and amounts', () => {
  it('merges repeated products in the order they first appear, and sorts for locking', () => {
    const lines = [
      { product_id: 9, quantity: 1 },
      { product_id: 2, quantity: 2 },
      { product_id: 9, quantity: 3 },
    ];
    expect(mergeLines(lines)).toEqual([
      { product_id: 9, quantity: 4 },
      { product_id: 2, quantity: 2 },
    ]);
    expect(inLockOrder(mergeLines(lines)).map((line) => line.product_id)).toEqual([2, 9]);
    expect(lines[0]).toEqual({ product_id: 9, quantity: 1 });
  });

  it('converts prices to minor units without floating-point loss', () => {
    expect(toMinorUnits(19.99)).toBe(1999);
    expect(toMinorUnits(0.29)).toBe(29);
    expect(toMinorUnits(12.5)).toBe(1250);
    expect(toMinorUnits(1.005)).toBe(100);
    expect(toMinorUnits(999999.99)).toBe(99999999);
  });

  it('reads the report period, anything unknown as a week', () => {
    expect(parsePeriod('day')).toBe('day');
    expect(parsePeriod('month')).toBe('month');
    for (const value of [undefined, '', 'year', 'Day', ['day'], 'constructor', 'toString']) expect(parsePeriod(value)).toBe('week');
  });
});

describe('error bodies', () => {
  it('one entry per problem in the commerce shape', () => {
    expect(
      errorListBody(
        new ApiError(409, 'insufficient_stock', 'Not enough stock for "A"; Not enough stock for "B"', [
          'Not enough stock for "A"',
          'Not enough stock for "B"',
        ])
      )
    ).toEqual({
      errors: [{ message: 'Not enough stock for "A"' }, { message: 'Not enough stock for "B"' }],
    });
    expect(errorListBody(new ApiError(401, 'unauthenticated', 'Authentication required'))).toEqual({
      errors: [{ message: 'Authentication required' }],
    });
  });

  it("recognises the body parser's refusals and nothing else", () => {
    const syntax = Object.assign(new SyntaxError('Unexpected end of JSON input'), { status: 400 });
    expect(bodyParserError(syntax)?.status).toBe(400);
    expect(bodyParserError({ type: 'entity.too.large', status: 413 })?.status).toBe(413);
    expect(bodyParserError(new Error('database is locked'))).toBeUndefined();
    expect(bodyParserError(new SyntaxError('thrown by a controller'))).toBeUndefined();
  });
});

describe('the raw body of a Stripe webhook', () => {
  const contextWith = (request: Record<string | symbol, unknown>) => ({ request }) as unknown as Context;

  it('is what the middleware recorded', () => {
    expect(rawBodyOf(contextWith({ [RAW_BODY]: () => Buffer.from('{"a": 1}'), body: { a: 1 } }))?.toString()).toBe('{"a": 1}');
  });

  it("falls back on koa-body's copy when a site turned includeUnparsed on", () => {
    expect(rawBodyOf(contextWith({ body: { a: 1, [Symbol.for('unparsedBody')]: '{"a":1}' } }))?.toString()).toBe('{"a":1}');
  });

  it('is null when neither is there', () => {
    expect(rawBodyOf(contextWith({ body: { a: 1 } }))).toBeNull();
    expect(rawBodyOf(contextWith({}))).toBeNull();
  });
});
