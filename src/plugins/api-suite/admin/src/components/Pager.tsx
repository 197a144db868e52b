import { Button, Flex, Typography } from '@strapi/design-system';
import { useT } from '../utils/useT';

/** Previous and next for the admin routes' `{ meta: { page, limit, total } }` lists. */
export function Pager({ page, limit, total, onPage }: { page: number; limit: number; total: number; onPage: (page: number) => void }) {
  const t = useT();
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages <= 1) return null;
  return (
    <Flex justifyContent="flex-end" gap={2} paddingTop={4}>
      <Typography variant="pi" textColor="neutral600">
        {t('pager.position', { page, pages, total })}
      </Typography>
      <Button variant="tertiary" size="S" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('pager.previous')}
      </Button>
      <Button variant="tertiary" size="S" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('pager.next')}
      </Button>
    </Flex>
  );
}
