import type { ContentManagerView } from '../../types';

/**
 * Plans in the Content Manager. API keys and usage records are not shown there: the API access
 * page's Keys and Usage tabs are where they are issued, limited, revoked and read.
 */
export default {
  plan: {
    mainField: 'name',
    sort: { by: 'price_monthly', order: 'ASC' },
    list: ['name', 'price_monthly', 'requests_per_month', 'requests_per_minute', 'is_default'],
    edit: [
      ['name', ['price_monthly', 3], ['is_default', 3]],
      [
        ['requests_per_month', 6],
        ['requests_per_minute', 6],
      ],
      ['endpoints'],
      [
        ['currency', 4],
        ['overage_unit_amount', 8],
      ],
      [
        ['stripe_product_id', 4],
        ['stripe_price_id', 4],
        ['stripe_metered_price_id', 4],
      ],
    ],
    labels: {
      name: 'Name',
      price_monthly: 'Price a month ({currency})',
      requests_per_month: 'Requests a month',
      requests_per_minute: 'Requests a minute',
      is_default: 'Default plan',
      endpoints: 'Endpoints',
      currency: 'Currency',
      overage_unit_amount: 'Overage per 1,000 requests (minor units)',
      stripe_product_id: 'Stripe product',
      stripe_price_id: 'Stripe monthly price',
      stripe_metered_price_id: 'Stripe overage price',
    },
    descriptions: {
      requests_per_month: '-1 for no monthly limit',
      is_default: 'Given to keys issued without a plan',
      endpoints: 'Patterns such as "GET /api/v1/articles*" or groups such as "@public"; "* *" reaches everything',
      currency: 'Lowercase, such as eur; empty for the shop currency',
      overage_unit_amount: 'Requests over the monthly quota are served and billed at this price (cents per 1,000); empty: refused with 429',
    },
    readOnlyFields: ['stripe_product_id', 'stripe_price_id', 'stripe_metered_price_id'],
  },
} satisfies Record<string, ContentManagerView>;
