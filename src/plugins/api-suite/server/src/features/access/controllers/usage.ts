import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { input } from '../../../http/input';
import { streamEvents } from '../../../http/sse';
import { getService } from '../../../utils';
import { MAX_SERIES_POINTS, seriesLength, type UsageReport } from '../services/usage';
import { inputs } from '../routes/inputs';
import type { UsageQuery } from '../validation';
import { consumerOf } from '../../../http/consumer';
import { NotFoundError } from '../../../errors';
import { getConfig } from '../../../utils';
import { TooManyStreamsError, UsageRangeReversedError, UsageRangeTooFineError } from '../errors';

const DEFAULT_RANGE_MS = 24 * 3_600_000;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  /**
   * Whose requests a report covers (one of the caller's keys, any key for administrators, else all
   * of the caller's requests) and the pool its `month` shows: the one that key draws on, else the
   * caller's own.
   */
  const report = async (ctx: Context, query: UsageQuery): Promise<UsageReport> => {
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (from.getTime() >= to.getTime()) throw new UsageRangeReversedError();
    if (seriesLength(from, to, query.granularity) > MAX_SERIES_POINTS) {
      throw new UsageRangeTooFineError(query.granularity, MAX_SERIES_POINTS);
    }
    const caller = consumerOf(ctx);
    const usage = getService(strapi, 'usage');
    if (query.key_id !== undefined) {
      const entry = await getService(strapi, 'keys').findById(query.key_id);
      if (!entry || !entry.user || (!caller.isAdmin && entry.user.id !== caller.userId)) throw new NotFoundError('API key');
      const [activity, month] = await Promise.all([
        usage.activity({ scope: { keyId: entry.id }, from, to, granularity: query.granularity }),
        usage.month({ userId: entry.user.id, isAdmin: entry.user.isAdmin }, entry),
      ]);
      return { ...activity, ...month };
    }
    const [activity, month] = await Promise.all([
      usage.activity({ scope: { userId: caller.userId }, from, to, granularity: query.granularity }),
      usage.month(caller),
    ]);
    return { ...activity, ...month };
  };

  return {
    async summary(ctx: Context) {
      ctx.body = { data: await report(ctx, input(ctx, inputs.usage).query) };
    },

    /**
     * Server-Sent Events: a `usage` event with the same data as GET /usage at once and then every
     * `interval` seconds (5 by default), until the client goes away. A consumer holds at most
     * `access.maxUsageStreams` open at once (429 too_many_streams beyond); administrators are not capped.
     */
    async stream(ctx: Context) {
      const { query } = input(ctx, inputs.usageStream);
      const first = await report(ctx, query); // validates before the stream starts, so errors are ordinary JSON
      const caller = consumerOf(ctx);
      const limit = getConfig(strapi).access.maxUsageStreams;
      const release = caller.isAdmin ? undefined : await getService(strapi, 'usage').streams().acquire(caller.userId, limit);
      if (release === null) {
        throw new TooManyStreamsError(limit);
      }
      try {
        streamEvents(ctx, {
          event: 'usage',
          intervalSeconds: query.interval,
          first,
          next: () => report(ctx, query),
          onError: (error) => strapi.log.warn(`[api-suite] usage stream: ${error.message}`),
          onClose: release,
        });
      } catch (error) {
        release?.();
        throw error;
      }
    },
  };
};
