import type { ContractKey, RouteContract } from '../server/src/contract/route';
import type { adminAccessContracts } from '../server/src/features/access/validation/admin-contracts';
import type { accessContracts } from '../server/src/features/access/validation/contracts';
import type { accountContracts } from '../server/src/features/accounts/validation/contracts';
import type { adminBillingContracts } from '../server/src/features/billing/validation/admin-contracts';
import type { billingContracts } from '../server/src/features/billing/validation/contracts';
import type { adminCommerceContracts } from '../server/src/features/commerce/validation/admin-contracts';
import type { commerceContracts } from '../server/src/features/commerce/validation/contracts';
import type { adminPlatformContracts } from '../server/src/features/platform/validation/admin-contracts';
import type { platformContracts } from '../server/src/features/platform/validation/contracts';
import type { adminScraperContracts } from '../server/src/features/scrapers/validation/admin-contracts';
import type { scraperContracts } from '../server/src/features/scrapers/validation/contracts';
import type { searchContracts } from '../server/src/features/search/validation/contracts';
import type { adminWebhookContracts } from '../server/src/features/webhooks/validation/admin-contracts';
import type { webhookContracts } from '../server/src/features/webhooks/validation/contracts';

/**
 * Every route's contract by its key (`GET /api/v1/scrapers/{id}`), for the typed client
 * (client.ts). Type-only: each feature writes its contracts in its `validation/contracts.ts`
 * (the API's) and `validation/admin-contracts.ts` (the admin panel's), and is listed here once.
 */
type Each<R> = R[keyof R];

type Listed =
  | Each<typeof accountContracts>
  | Each<typeof accessContracts>
  | Each<typeof adminAccessContracts>
  | Each<typeof billingContracts>
  | Each<typeof adminBillingContracts>
  | Each<typeof commerceContracts>
  | Each<typeof adminCommerceContracts>
  | Each<typeof platformContracts>
  | Each<typeof adminPlatformContracts>
  | Each<typeof scraperContracts>
  | Each<typeof adminScraperContracts>
  | Each<typeof searchContracts>
  | Each<typeof webhookContracts>
  | Each<typeof adminWebhookContracts>;

export type Contracts = { [C in Listed as C extends RouteContract ? ContractKey<C> : never]: C };
