import { Box, Loader, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { useLayoutEffect, useRef, type ComponentProps, type ReactNode } from 'react';
import { styled } from 'styled-components';
import type { Page } from '../../../shared/http';
import type { Loaded } from '../hooks/useLoad';
import { useT } from '../utils/useT';
import { Pager } from './Pager';
import { ProblemAlert } from './ProblemAlert';

/** Below this width a table shows each row as a card: every cell on a line of its own, named by its column. */
const NARROW = '(max-width: 767px)';

/**
 * On a phone a row of six columns does not fit: scrolled sideways, the list showed two columns and
 * hid the row's actions. So narrow screens show each row as a card, each cell under its column's
 * name (the `data-label` each cell is given from the headers), the actions in full.
 */
const Cards = styled.div`
  @media ${NARROW} {
    & table,
    & tbody,
    & tr,
    & td {
      display: block;
      width: 100%;
      height: auto;
    }
    & thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
    & tr {
      padding: 8px 0;
      border-bottom: 1px solid #dcdce4;
    }
    /* The column's name on the left, what the cell holds stacked on the right (a URL above its description). */
    & td {
      display: grid;
      grid-template-columns: 34% minmax(0, 1fr);
      column-gap: 12px;
      align-items: start;
      padding: 4px 16px;
      white-space: normal;
      overflow-wrap: anywhere;
    }
    & td > * {
      grid-column: 2;
      min-width: 0;
      max-width: 100%;
      flex-wrap: wrap;
    }
    /* A cell without a column name (the actions) takes the card's width. */
    & td:not([data-label]) > *,
    & td[data-label=''] > * {
      grid-column: 1 / -1;
    }
    /* A card has the room to show a long URL or name whole, where a row cut it short. */
    & td * {
      white-space: normal;
      overflow-wrap: anywhere;
      text-overflow: clip;
    }
    & td[data-label]:not([data-label=''])::before {
      content: attr(data-label);
      grid-column: 1;
      grid-row: 1 / span 20;
      color: #666687;
      font-size: 1.1rem;
      font-weight: 600;
      text-transform: uppercase;
      line-height: 2rem;
    }
  }
`;

/** A table whose column headers are given once: every list in the plugin heads its columns the same way. */
export function DataTable({ headers, rowCount, children }: { headers: ReactNode[]; rowCount: number; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  // Each cell learns its column's name, for the narrow layout's cards (after every render: rows come and go).
  useLayoutEffect(() => {
    const table = box.current?.querySelector('table');
    if (!table) return;
    const labels = Array.from(table.querySelectorAll('thead th'), (th) => th.textContent?.trim() ?? '');
    for (const row of Array.from(table.querySelectorAll('tbody tr')))
      Array.from(row.children).forEach((cell, index) => {
        const label = labels[index] ?? '';
        if (cell.getAttribute('data-label') !== label) cell.setAttribute('data-label', label);
      });
  });
  return (
    <Cards ref={box}>
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
    </Cards>
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
