import { z } from 'zod';

/** The body of `DELETE /api/v1/account`: the consumer's password, asked again so a stolen session alone cannot close the account. */
export const deleteAccountBody = z
  .object({
    password: z.string({ message: 'must be your password' }).min(1, 'must be your password').max(256, 'must be at most 256 characters'),
  })
  .strict();
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;
/** The body as a client sends it. */
export type DeleteAccountInput = z.input<typeof deleteAccountBody>;
