import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { toBool, toIso } from '../../../db';
import { NotFoundError } from '../../../errors';
import { getService } from '../../../utils';
import type { ExportSections } from '../types';
import { accountExport, type AccountExport, type AccountProfile } from '../validation/responses';

/** The sections the answer names besides the profile and the time: each must come from a part. */
const EXPORT_SECTIONS = Object.keys(accountExport.shape).filter((name) => name !== 'exported_at' && name !== 'profile') as Array<
  keyof ExportSections
>;

/**
 * Everything the site holds about one consumer, as `GET /api/v1/account/export` answers it: the
 * profile, and a section from each part a feature added (`../types.ts`), shown as that feature's
 * routes show it, so what those routes never show (a key, its hash, a signing secret) is never
 * here either. A section the answer names that no part fills is a programming error, not an
 * empty section.
 */
const accountExportService = ({ strapi }: { strapi: Core.Strapi }) => {
  const profile = async (userId: number): Promise<AccountProfile> => {
    const user = (await strapi.db.query(UIDS.user).findOne({
      where: { id: userId },
      select: ['id', 'username', 'email', 'consumer_id', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt'],
      populate: { role: { select: ['type'] } },
    })) as UserRow | null;
    if (!user) throw new NotFoundError('Account');
    const plan = (await getService(strapi, 'consumer-plans').of(userId)).rule;
    return {
      id: user.id,
      username: user.username ?? '',
      email: user.email ?? '',
      consumer_id: user.consumer_id ?? '',
      provider: user.provider ?? null,
      confirmed: toBool(user.confirmed),
      blocked: toBool(user.blocked),
      role: user.role?.type ?? null,
      plan: { id: plan.id, name: plan.name },
      created_at: toIso(user.createdAt),
      updated_at: toIso(user.updatedAt),
    };
  };

  return {
    async export(userId: number): Promise<AccountExport> {
      const person = await profile(userId);
      const holder = { userId, consumerId: person.consumer_id || null };
      const sections = await Promise.all(
        getService(strapi, 'account-parts')
          .list()
          .map((part) => part.export?.(holder))
      );
      const filled: Partial<ExportSections> = Object.assign({}, ...sections);
      const missing = EXPORT_SECTIONS.filter((name) => !(name in filled));
      if (missing.length > 0) throw new Error(`api-suite: no account part exports ${missing.join(', ')}`);
      // In the answer's own order, whatever order the parts were added in.
      const ordered = Object.fromEntries(EXPORT_SECTIONS.map((name) => [name, filled[name]])) as ExportSections;
      return { exported_at: new Date().toISOString(), profile: person, ...ordered };
    },
  };
};

interface UserRow {
  id: number;
  username?: string | null;
  email?: string | null;
  consumer_id?: string | null;
  provider?: string | null;
  confirmed?: unknown;
  blocked?: unknown;
  createdAt?: unknown;
  updatedAt?: unknown;
  role?: { type?: string } | null;
}

export type AccountExportService = ReturnType<typeof accountExportService>;
export default accountExportService;
