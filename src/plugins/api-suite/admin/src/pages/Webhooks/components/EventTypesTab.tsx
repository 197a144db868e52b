import { Box, Button, Dialog, Flex, Loader, Switch, Tbody, Td, Tr } from '@strapi/design-system';
import { ConfirmDialog } from '@strapi/strapi/admin';
import { Eye, Pencil, PaperPlane } from '@strapi/icons';
import { useState } from 'react';
import { useApiSuiteClient, type EventType } from '../../../api';
import { EmptyState } from '../../../components/EmptyState';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { StatusBadge } from '../../../components/StatusBadge';
import { useAction } from '../../../hooks/useAction';
import { useFeaturePermissions } from '../../../hooks/useFeaturePermissions';
import { useLoad } from '../../../hooks/useLoad';
import { useT } from '../../../utils/useT';
import { EventTypeModal } from './EventTypeModal';
import { PublishEventModal } from './PublishEventModal';
import { CellText } from '../../../components/CellText';
import { DataTable, TextCell } from '../../../components/DataTable';

/** The event types: switched on or off, described, with an example payload; and publishing one by hand. */
export function EventTypesTab() {
  const t = useT();
  const client = useApiSuiteClient();
  const { canManage } = useFeaturePermissions('webhooks');
  const types = useLoad(() => client.webhooks.eventTypes(), [client]);
  const [editing, setEditing] = useState<EventType | null>(null);
  const [publishing, setPublishing] = useState(false);
  // Switching a type off asks first (nothing of that type is published meanwhile); on is immediate.
  const [switchingOff, setSwitchingOff] = useState<EventType | null>(null);
  const { run, busy } = useAction();

  const toggle = async (type: EventType) => {
    const updated = await run(`toggle:${type.name}`, () => client.webhooks.updateEventType(type.name, { is_active: !type.is_active }), {
      success: type.is_active ? 'webhooks.eventTypes.deactivated' : 'webhooks.eventTypes.activated',
    });
    if (updated) await types.reload();
  };

  if (types.status === 'error' && !types.data) return <ProblemAlert problem={types.problem} onRetry={() => void types.reload()} />;
  if (!types.data) return <Loader>{t('state.loading')}</Loader>;
  if (types.data.length === 0) return <EmptyState content={t('webhooks.eventTypes.empty')} />;

  return (
    <Box>
      {canManage && (
        <Flex justifyContent="flex-end" paddingBottom={4}>
          <Button startIcon={<PaperPlane />} onClick={() => setPublishing(true)}>
            {t('webhooks.publish.open')}
          </Button>
        </Flex>
      )}
      <DataTable
        headers={[
          t('webhooks.eventTypes.column.name'),
          t('webhooks.eventTypes.column.description'),
          t('webhooks.column.status'),
          t('table.actions'),
        ]}
        rowCount={types.data.length}
      >
        <Tbody>
          {types.data.map((type) => (
            <Tr key={type.name} data-testid="event-type-row">
              <TextCell fontWeight="bold" style={{ fontFamily: 'monospace' }}>
                {type.name}
              </TextCell>
              <Td>
                <CellText wrap maxWidth="36rem">
                  {type.description}
                </CellText>
              </Td>
              <Td>
                {canManage ? (
                  <Switch
                    checked={type.is_active}
                    disabled={busy === `toggle:${type.name}`}
                    onLabel={t('webhooks.eventTypes.on')}
                    offLabel={t('webhooks.eventTypes.off')}
                    visibleLabels
                    aria-label={t('webhooks.eventTypes.switchLabel', { name: type.name })}
                    onCheckedChange={(checked) => (checked ? void toggle(type) : setSwitchingOff(type))}
                  />
                ) : (
                  <StatusBadge status={type.is_active ? 'active' : 'disabled'} />
                )}
              </Td>
              <Td>
                <Flex gap={2}>
                  <Button size="S" variant="tertiary" startIcon={canManage ? <Pencil /> : <Eye />} onClick={() => setEditing(type)}>
                    {t(canManage ? 'action.edit' : 'action.view')}
                  </Button>
                </Flex>
              </Td>
            </Tr>
          ))}
        </Tbody>
      </DataTable>
      <Dialog.Root open={switchingOff !== null} onOpenChange={(open) => !open && setSwitchingOff(null)}>
        {switchingOff && (
          <ConfirmDialog
            title={t('webhooks.eventTypes.switchOffTitle', { name: switchingOff.name })}
            variant="default"
            onConfirm={async () => {
              const type = switchingOff;
              setSwitchingOff(null);
              await toggle(type);
            }}
          >
            {t('webhooks.eventTypes.switchOffConfirm', { name: switchingOff.name })}
          </ConfirmDialog>
        )}
      </Dialog.Root>
      {publishing && <PublishEventModal types={types.data} onClose={() => setPublishing(false)} />}
      {editing && (
        <EventTypeModal
          type={editing}
          readOnly={!canManage}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            await types.reload();
          }}
        />
      )}
    </Box>
  );
}
