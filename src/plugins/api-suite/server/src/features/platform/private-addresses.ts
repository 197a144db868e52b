import type { PluginConfig } from '../../config';
import { privateAddressesAllowed } from '../../outbound/config';

export interface Notice {
  level: 'info' | 'warn';
  message: string;
}

/**
 * What the server says at boot about private addresses, from the resolved config: nothing while
 * they are refused; once as information when they are allowed by default (outside production,
 * so that local receivers work on a developer's machine); a warning when they were allowed by
 * hand, by OUTBOUND_ALLOW_PRIVATE or by `outbound.allowPrivate` in config/plugins.ts.
 */
export function privateAddressesNotice(
  outbound: Pick<PluginConfig['outbound'], 'allowPrivate'>,
  nodeEnv: string | undefined = process.env.NODE_ENV
): Notice | undefined {
  const { allowed, byDefault } = privateAddressesAllowed(outbound, nodeEnv);
  if (!allowed) return undefined;
  return {
    level: byDefault ? 'info' : 'warn',
    message:
      '[api-suite] OUTBOUND_ALLOW_PRIVATE is on' +
      (byDefault
        ? ' (the default when NODE_ENV is not production)'
        : ' (set to true by OUTBOUND_ALLOW_PRIVATE or by outbound.allowPrivate in config/plugins.ts)') +
      ": webhook endpoints and scraper URLs may reach loopback, private and reserved addresses and this server's own. Keep it off in production.",
  };
}
