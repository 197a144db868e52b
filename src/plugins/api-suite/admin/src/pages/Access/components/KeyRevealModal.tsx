import { Alert, Box, Button, Flex, Modal, TextInput, Typography } from '@strapi/design-system';
import { Duplicate } from '@strapi/icons';
import { useClipboard, useNotification } from '@strapi/strapi/admin';
import type { IssuedKey } from '../../../api';
import { FormModal } from '../../../components/FormModal';
import { useT } from '../../../utils/useT';

/**
 * The new key, shown this once: the server keeps only its hash, so once this closes nobody can
 * see it again. A copy button puts it on the clipboard.
 */
export function KeyRevealModal({ issued, onClose }: { issued: IssuedKey; onClose: () => void }) {
  const t = useT();
  const { copy } = useClipboard();
  const { toggleNotification } = useNotification();

  const copyKey = async () => {
    const copied = await copy(issued.key);
    toggleNotification(
      copied ? { type: 'success', message: t('access.keys.copied') } : { type: 'warning', message: t('access.keys.copyFailed') }
    );
  };

  return (
    <FormModal
      title={t('access.keys.revealTitle')}
      onClose={onClose}
      footer={
        <>
          <Box />
          <Modal.Close>
            <Button>{t('access.keys.done')}</Button>
          </Modal.Close>
        </>
      }
    >
      <Flex direction="column" alignItems="stretch" gap={4}>
        <Alert variant="warning" title={t('access.keys.onceTitle')} closeLabel={t('action.close')}>
          {t('access.keys.once')}
        </Alert>
        <Flex gap={2} alignItems="flex-end">
          <Box grow={1}>
            <TextInput
              aria-label={t('access.keys.revealTitle')}
              value={issued.key}
              readOnly
              data-testid="issued-key"
              style={{ fontFamily: 'monospace' }}
            />
          </Box>
          <Button variant="secondary" startIcon={<Duplicate />} onClick={() => void copyKey()}>
            {t('access.keys.copy')}
          </Button>
        </Flex>
        <Typography variant="pi" textColor="neutral600">
          {t('access.keys.revealDetails', { prefix: issued.key_prefix, client: issued.client_id, scopes: issued.scopes.join(', ') })}
        </Typography>
      </Flex>
    </FormModal>
  );
}
