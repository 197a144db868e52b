import { Box, Loader, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import type { ComponentProps, ReactNode } from 'react';
import type { Page } from '../../../shared/http';
import type { Loaded } from '../hooks/useLoad';
import { useT } from '../utils/useT';
import { Pager } from './Pager';
import { ProblemAlert } from './ProblemAlert';

/** A table whose column headers are given once: every list in the plugin heads its columns the same way. */
export function DataTable({ headers, rowCount, children }: { headers: ReactNode[]; rowCount: number; children: ReactNode }) {
  return (
    <Table colCount={headers.length} rowCount={rowCount + 1}>
      <Thead>
        <Tr>
          {headers.map((header, index) => (
            // Headers never reorder while shown.
            <Th key={index}>
              <Typography variant="sigma">{header}</Typography>
            </Th>
          ))}
        </Tr>
      </Thead>
      {children}
    </Table>
  );
}

/** A cell holding one line of text, the most common cell of the plugin's lists. */
export function TextCell(props: ComponentProps<typeof Typography>) {
  return (
    <Td>
      <Typography {...props} />
    </Td>
  );
}

/**
 * A loaded page of an admin list, in every state: the problem (with a retry), the loader before the
 * first answer, `empty` when the list has nothing, else the table of `row`s and the pager.
 * `staleProblem` says what a failed reload shows while the last answer stays on screen: the
 * problem with a retry (`retry`), the problem above the table only (`plain`), or nothing (`hidden`).
 */
export function PagedTable<T>({
  load,
  headers,
  row,
  empty,
  onPage,
  staleProblem = 'retry',
}: {
  load: Loaded<Page<T>>;
  headers: ReactNode[];
  row: (item: T) => ReactNode;
  empty: ReactNode;
  onPage: (page: number) => void;
  staleProblem?: 'retry' | 'plain' | 'hidden';
}) {
  const t = useT();
  const { data } = load;
  const problem = load.status === 'error' ? load.problem : undefined;
  return (
    <>
      {problem && (!data || staleProblem === 'retry') && <ProblemAlert problem={problem} onRetry={() => void load.reload()} />}
      {!data && load.status === 'loading' && <Loader>{t('state.loading')}</Loader>}
      {data && data.meta.total === 0 && empty}
      {data && data.meta.total > 0 && (
        <Box>
          {problem && staleProblem === 'plain' && <ProblemAlert problem={problem} />}
          <DataTable headers={headers} rowCount={data.data.length}>
            <Tbody>{data.data.map(row)}</Tbody>
          </DataTable>
          <Pager page={data.meta.page} limit={data.meta.limit} total={data.meta.total} onPage={onPage} />
        </Box>
      )}
    </>
  );
}
