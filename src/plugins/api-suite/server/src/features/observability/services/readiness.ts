import type { Core } from '@strapi/strapi';
import { getConfig, getService } from '../../../utils';

export type DependencyState = 'up' | 'down' | 'not_configured';

export interface Readiness {
  ready: boolean;
  database: DependencyState;
  redis: DependencyState;
}

/**
 * Whether this process can serve (docs/operations.md#readiness): the database and, when
 * configured, Redis each answer a trivial command within the timeout. Liveness stays Strapi's
 * own `/_health`: a process whose database is down is alive and must not be restarted for it.
 */
const readinessService = ({ strapi }: { strapi: Core.Strapi }) => ({
  async check(): Promise<Readiness> {
    const { readyTimeoutMs } = getConfig(strapi).observability;
    const redis = getConfig(strapi).jobs.redisUrl ? getService(strapi, 'platform').redis() : undefined;
    const [database, redisState] = await Promise.all([
      answersWithin(() => strapi.db.connection.raw('select 1'), readyTimeoutMs),
      redis ? answersWithin(() => redis.ping(), readyTimeoutMs) : Promise.resolve<DependencyState>('not_configured'),
    ]);
    return { ready: database === 'up' && redisState !== 'down', database, redis: redisState };
  },
});

async function answersWithin(call: () => PromiseLike<unknown>, timeoutMs: number): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<DependencyState>((resolve) => {
    timer = setTimeout(() => resolve('down'), timeoutMs);
  });
  const answer = Promise.resolve()
    .then(call)
    .then(
      (): DependencyState => 'up',
      (): DependencyState => 'down'
    );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

export type ReadinessService = ReturnType<typeof readinessService>;
export default readinessService;
