import type { Core } from '@strapi/strapi';
import { UIDS } from './constants';

/**
 * The plugin's e-mails to consumers (a disabled or failing endpoint, a quota nearly used up): one
 * plain-text message through Strapi's email plugin, which sends over SMTP when the site configures
 * it and writes to the log otherwise (config/plugins.ts).
 */

export interface Recipient {
  email: string;
  username: string;
}

/** The consumer's address and name, by user id or consumer id; null when they have none. */
export async function recipientOf(strapi: Core.Strapi, who: { id: number } | { consumerId: string }): Promise<Recipient | null> {
  const where = 'id' in who ? { id: who.id } : { consumer_id: who.consumerId };
  const user = (await strapi.db.query(UIDS.user).findOne({ where, select: ['email', 'username'] })) as {
    email?: string | null;
    username?: string | null;
  } | null;
  if (!user?.email) return null;
  return { email: user.email, username: user.username ?? '' };
}

/** Send one message; false when the email plugin is not installed (the caller says in its log who was not told). */
export async function sendMail(strapi: Core.Strapi, message: { to: string; subject: string; lines: string[] }): Promise<boolean> {
  const email = strapi.plugin('email')?.service('email') as { send(options: Record<string, unknown>): Promise<unknown> } | undefined;
  if (!email) return false;
  await email.send({ to: message.to, subject: message.subject, text: message.lines.join('\n') });
  return true;
}

/** "Hello alice," (or "Hello," for a consumer without a name). */
export function greeting(recipient: Recipient): string {
  return `Hello ${recipient.username},`.replace(' ,', ',');
}
