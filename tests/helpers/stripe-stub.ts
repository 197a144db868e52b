/** The local Stripe stub: see ./stripe/index.ts. Kept at this path for the tests that import it from here. */
export * from './stripe';
