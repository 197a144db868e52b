import { z } from 'zod';
import { type Env, parseList } from '../../config-env';

/** The content feature's settings (`content` in config/plugins.ts): who besides staff reads drafts. */

export const contentConfigSchema = z
  .object({
    /**
     * users-permissions roles (by type or name, case-insensitive) whose members may read drafts
     * and receive events about them, beside administrators and Strapi's API tokens
     * (`CONTENT_DRAFT_READERS`; docs/content-api.md#drafts): a preview frontend's role.
     */
    draftReaders: z.array(z.string().trim().min(1, 'role names must not be empty').max(100)),
  })
  .strict();

export type ContentConfig = z.infer<typeof contentConfigSchema>;

export function contentConfigDefaults(env: Env): ContentConfig {
  return {
    draftReaders: parseList(env('CONTENT_DRAFT_READERS')) ?? [],
  };
}
