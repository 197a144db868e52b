import { Box, Typography } from '@strapi/design-system';
import type { Activity } from '../../../../../shared/api-types';
import { useFormat, useT } from '../../../utils/useT';
import { SettingRow } from './SettingRow';

/** Outcomes and decisions in the order an editor reads them: what went well first. */
const DELIVERY_ORDER = ['succeeded', 'retrying', 'failed', 'cancelled'];
const REQUEST_ORDER = ['allowed', 'overage', 'rate_limited', 'monthly_quota_exceeded'];

/**
 * This server's headline figures from its metrics (the numbers `GET /metrics` gives Prometheus):
 * deliveries and API requests of the last hour, the delivery backlog and saturated endpoints now.
 */
export function ActivityPanel({ activity }: { activity: Activity }) {
  const t = useT();
  const format = useFormat();
  const counts = (values: Record<string, number>, order: string[], prefix: string) => {
    const keys = [
      ...order.filter((key) => key in values),
      ...Object.keys(values)
        .filter((key) => !order.includes(key))
        .sort(),
    ];
    const shown = keys.filter((key) => values[key] > 0 || order.slice(0, 1).includes(key));
    return shown.length === 0
      ? t(`${prefix}.none`)
      : // Refusals other than the quota's are shown by their code, as the API answers them.
        shown.map((key) => `${format.number(values[key])} ${order.includes(key) ? t(`${prefix}.${key}`) : key}`).join(' · ');
  };
  const backlog = (activity.backlog.pending ?? 0) + (activity.backlog.retrying ?? 0);

  return (
    <Box background="neutral0" shadow="tableShadow" hasRadius padding={6} marginTop={6}>
      <Typography variant="delta" tag="h2">
        {t('overview.activity')}
      </Typography>
      <Box paddingTop={1}>
        <Typography variant="pi" textColor="neutral600">
          {t('overview.activity.since', { since: format.dateTimeShort(activity.since) })}
        </Typography>
      </Box>
      <SettingRow
        label={t('overview.activity.deliveries')}
        value={counts(activity.deliveries, DELIVERY_ORDER, 'overview.activity.delivery')}
      />
      <SettingRow
        label={t('overview.activity.backlog')}
        value={t('overview.activity.backlog.value', {
          pending: format.number(activity.backlog.pending ?? 0),
          retrying: format.number(activity.backlog.retrying ?? 0),
        })}
        warning={backlog > 1000}
      />
      <SettingRow
        label={t('overview.activity.saturated')}
        value={format.number(activity.saturatedEndpoints)}
        warning={activity.saturatedEndpoints > 0}
        hint={t('overview.activity.saturatedHint')}
      />
      <SettingRow label={t('overview.activity.requests')} value={counts(activity.requests, REQUEST_ORDER, 'overview.activity.request')} />
    </Box>
  );
}
