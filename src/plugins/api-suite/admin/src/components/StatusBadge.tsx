import { Badge } from '@strapi/design-system';
import { useT } from '../utils/useT';

type Tone = 'success' | 'danger' | 'warning' | 'neutral' | 'secondary' | 'primary';

const TONES: Record<string, Tone> = {
  active: 'success',
  succeeded: 'success',
  paid: 'success',
  shipped: 'primary',
  delivered: 'success',
  completed: 'success',
  disabled: 'danger',
  failed: 'danger',
  paused: 'neutral',
  cancelled: 'neutral',
  stopped: 'neutral',
  idle: 'neutral',
  revoked: 'neutral',
  expired: 'warning',
  retrying: 'warning',
  pending: 'secondary',
  running: 'primary',
  past_due: 'warning',
  trialing: 'primary',
  canceled: 'neutral',
  unpaid: 'danger',
};

/** A status word (translated under `status.<name>`) in the colour of what it means. */
export function StatusBadge({ status }: { status: string }) {
  const t = useT();
  return (
    <Badge variant={TONES[status] ?? 'neutral'} data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}
