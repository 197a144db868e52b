import { Box, Flex, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useT } from '../utils/useT';

/** Shown for "no filter": every status. */
const ALL_STATUSES = 'all';

/**
 * A filtered list's page and status: `filter` is the chosen status (undefined for all), and
 * choosing another goes back to the first page. `heading` goes to the StatusFilterHeading.
 */
export function useStatusFilter<S extends string>(statuses: readonly S[]) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<string>(ALL_STATUSES);
  const filter = statuses.find((candidate) => candidate === status);
  const onChange = (value: string) => {
    setStatus(value);
    setPage(1);
  };
  return { page, setPage, filter, heading: { statuses, value: status, onChange } };
}

/**
 * A list's heading with a status filter beside it: "All statuses" or one of `statuses`, each
 * named by its `status.<name>` translation. `label` is the select's accessible name.
 */
export function StatusFilterHeading({
  title,
  label,
  statuses,
  value,
  onChange,
}: {
  title: string;
  label: string;
  statuses: readonly string[];
  value: string;
  onChange: (value: string) => void;
}) {
  const t = useT();
  return (
    <Flex justifyContent="space-between" alignItems="flex-end" paddingBottom={4} gap={4} wrap="wrap">
      <Typography variant="delta" tag="h2">
        {title}
      </Typography>
      <Box style={{ minWidth: '20rem' }}>
        <SingleSelect aria-label={label} value={value} onChange={(selected) => onChange(String(selected))}>
          <SingleSelectOption value={ALL_STATUSES}>{t('sales.filter.all')}</SingleSelectOption>
          {statuses.map((candidate) => (
            <SingleSelectOption key={candidate} value={candidate}>
              {t(`status.${candidate}`)}
            </SingleSelectOption>
          ))}
        </SingleSelect>
      </Box>
    </Flex>
  );
}
