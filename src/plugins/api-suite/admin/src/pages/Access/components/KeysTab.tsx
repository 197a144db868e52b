import { Box, Button, Dialog, Flex, Td, Tr, Typography } from '@strapi/design-system';
import { Plus } from '@strapi/icons';
import { ConfirmDialog } from '@strapi/strapi/admin';
import { useState } from 'react';
import { useApiSuiteClient, type ApiKey, type IssuedKey } from '../../../api';
import { TextCell } from '../../../components/DataTable';
import { EmptyState } from '../../../components/EmptyState';
import { StatusBadge } from '../../../components/StatusBadge';
import { useAction } from '../../../hooks/useAction';
import { useFormat, useT } from '../../../utils/useT';
import { AccessTable, useAccessList } from './AccessTable';
import { IssueKeyModal } from './IssueKeyModal';
import { KeyLimitsModal } from './KeyLimitsModal';
import { KeyRevealModal } from './KeyRevealModal';

/**
 * Every API key (never the key itself): owner and the owner's plan with why (subscription, grant,
 * default), the key's plan with whether it is its own or its owner's, own limits, scopes, status and
 * what replaced it; issue, grant the owner a plan, set limits, revoke.
 */
export function KeysTab() {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const access = useAccessList((page) => client.access.keys(page), [client]);
  const { list: keys, canManage } = access;
  const [issuing, setIssuing] = useState(false);
  // The one place the new key lives, cleared when its modal closes: it is never shown again.
  const [revealed, setRevealed] = useState<IssuedKey | null>(null);
  const [limiting, setLimiting] = useState<ApiKey | null>(null);
  const limit = (value: number | null) =>
    value === null ? t('access.keys.planLimit') : value === -1 ? t('access.plans.unlimited') : format.number(value);
  const { run, busy } = useAction();

  const revoke = async (id: number) => {
    const done = await run(
      `revoke:${id}`,
      async () => {
        await client.access.revokeKey(id);
        return true;
      },
      { success: 'access.keys.revoked' }
    );
    if (done) await keys.reload();
  };

  const issue = canManage ? (
    <Button startIcon={<Plus />} onClick={() => setIssuing(true)}>
      {t('access.keys.issue')}
    </Button>
  ) : undefined;

  return (
    <Box>
      <AccessTable
        access={access}
        name="keys"
        columns={['key', 'owner', 'plan', 'scopes', 'status', 'created']}
        action={issue}
        empty={<EmptyState content={t(canManage ? 'access.keys.empty.manage' : 'access.keys.empty')} action={issue} />}
        row={(key) => (
          <Tr key={key.id} data-testid="key-row">
            <Td>
              {/* The name under the prefix: one column fewer keeps the row within a 1440-pixel window. */}
              <Flex direction="column" alignItems="flex-start" style={{ maxWidth: '12rem', whiteSpace: 'normal' }}>
                <Typography style={{ fontFamily: 'monospace' }}>{`${key.key_prefix}…`}</Typography>
                {key.name && (
                  <Typography variant="pi" textColor="neutral600" data-testid="key-name" style={{ overflowWrap: 'anywhere' }}>
                    {key.name}
                  </Typography>
                )}
              </Flex>
            </Td>
            <Td>
              <Flex direction="column" alignItems="flex-start" gap={1} style={{ maxWidth: '14rem', whiteSpace: 'normal' }}>
                <Typography style={{ overflowWrap: 'anywhere' }}>{key.user ? key.user.username : '—'}</Typography>
                {key.owner_plan && (
                  <Typography variant="pi" textColor="neutral600" data-testid="owner-plan">
                    {t('access.keys.ownerPlan', {
                      plan: key.owner_plan.name,
                      source: t(`access.planSource.${key.owner_plan.source}`),
                    })}
                  </Typography>
                )}
                {key.owner_plan?.granted && key.owner_plan.source !== 'grant' && (
                  <Typography variant="pi" textColor="neutral600">
                    {t('access.keys.grantWaiting', { plan: key.owner_plan.granted.name })}
                  </Typography>
                )}
                {canManage && key.user && (
                  <Button size="S" variant="tertiary" onClick={() => key.user && access.grant(key.user, key.owner_plan)}>
                    {t('access.keys.grant')}
                  </Button>
                )}
              </Flex>
            </Td>
            <Td>
              <Flex direction="column" alignItems="flex-start" style={{ maxWidth: '12rem', whiteSpace: 'normal' }}>
                <Typography data-testid="key-plan">{key.plan?.name ?? '—'}</Typography>
                <Typography variant="pi" textColor="neutral600" data-testid="key-plan-source">
                  {t(key.plan_source === 'key' ? 'access.keys.planOwn' : 'access.keys.planFollows')}
                </Typography>
                {(key.requests_per_minute !== null || key.requests_per_month !== null) && (
                  <Typography variant="pi" textColor="neutral600">
                    {t('access.keys.ownLimits', { minute: limit(key.requests_per_minute), month: limit(key.requests_per_month) })}
                  </Typography>
                )}
              </Flex>
            </Td>
            <TextCell>{key.scopes.join(', ')}</TextCell>
            <Td>
              <Flex direction="column" alignItems="flex-start" gap={1} style={{ maxWidth: '14rem', whiteSpace: 'normal' }}>
                <StatusBadge status={key.status} />
                {key.replaced_by !== null && (
                  <Typography variant="pi" textColor="neutral600">
                    {t('access.keys.replacedBy', { prefix: key.replaced_by_prefix ?? `#${key.replaced_by}` })}
                  </Typography>
                )}
                {key.replaced_by !== null && key.status === 'active' && key.expires_at && (
                  <Typography variant="pi" textColor="neutral600">
                    {t('access.keys.until', { date: format.dateTime(key.expires_at) })}
                  </Typography>
                )}
              </Flex>
            </Td>
            <Td>
              <Typography style={{ whiteSpace: 'normal' }}>{format.dateTime(key.created_at)}</Typography>
            </Td>
            {canManage && (
              <Td>
                {key.status === 'active' && (
                  <Flex direction="column" alignItems="stretch" gap={1}>
                    <Button size="S" variant="tertiary" onClick={() => setLimiting(key)}>
                      {t('access.keys.limits')}
                    </Button>
                    <Dialog.Root>
                      <Dialog.Trigger>
                        <Button size="S" variant="danger-light" loading={busy === `revoke:${key.id}`}>
                          {t('access.keys.revoke')}
                        </Button>
                      </Dialog.Trigger>
                      <ConfirmDialog onConfirm={() => void revoke(key.id)}>
                        {t('access.keys.revokeConfirm', { prefix: key.key_prefix })}
                      </ConfirmDialog>
                    </Dialog.Root>
                  </Flex>
                )}
              </Td>
            )}
          </Tr>
        )}
      />
      {issuing && (
        <IssueKeyModal
          onClose={() => setIssuing(false)}
          onIssued={(key) => {
            setIssuing(false);
            setRevealed(key);
            void keys.reload();
          }}
        />
      )}
      {revealed && <KeyRevealModal issued={revealed} onClose={() => setRevealed(null)} />}
      {limiting && (
        <KeyLimitsModal
          apiKey={limiting}
          onClose={() => setLimiting(null)}
          onSaved={() => {
            setLimiting(null);
            void keys.reload();
          }}
        />
      )}
    </Box>
  );
}
