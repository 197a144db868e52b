import type { Core } from '@strapi/strapi';

/**
 * A consumer a newcomer can sign in to the portal as, on the pro plan (granted as an administrator
 * grants one), so webhooks and scrapers can be tried at once. Seeded with the demo data, so only
 * where SEED_DEMO_DATA allows and never in production; its credentials are in the README and the
 * boot log.
 */
export const DEMO_CONSUMER = { username: 'demo', email: 'demo@example.com', password: 'demo-password-1', plan: 'pro' } as const;

interface UserService {
  add(values: Record<string, unknown>): Promise<{ id: number }>;
}
interface ConsumerPlans {
  grantOf(userId: number): Promise<number | null>;
  grant(userId: number, planId: number | null): Promise<void>;
}

export async function seedDemoConsumer(strapi: Core.Strapi): Promise<boolean> {
  if (process.env.NODE_ENV === 'production') return false;
  const users = strapi.db.query('plugin::users-permissions.user');
  let user = (await users.findOne({ where: { email: DEMO_CONSUMER.email }, select: ['id'] })) as { id: number } | null;
  if (!user) {
    const role = (await strapi.db
      .query('plugin::users-permissions.role')
      .findOne({ where: { type: 'authenticated' }, select: ['id'] })) as {
      id: number;
    } | null;
    const service = strapi.plugin('users-permissions').service('user') as UserService;
    user = await service.add({
      username: DEMO_CONSUMER.username,
      email: DEMO_CONSUMER.email,
      password: DEMO_CONSUMER.password,
      provider: 'local',
      confirmed: true,
      blocked: false,
      role: role?.id,
    });
  }
  const plan = (await strapi.db.query('plugin::api-suite.plan').findOne({ where: { name: DEMO_CONSUMER.plan }, select: ['id'] })) as {
    id: number;
  } | null;
  const consumerPlans = strapi.plugin('api-suite').service('consumer-plans') as ConsumerPlans;
  if (plan && (await consumerPlans.grantOf(user.id)) === null) await consumerPlans.grant(user.id, plan.id);
  strapi.log.info(
    `[demo] portal sign-in for trying everything (${DEMO_CONSUMER.plan} plan, granted): ${DEMO_CONSUMER.email} / ${DEMO_CONSUMER.password}`
  );
  return true;
}
