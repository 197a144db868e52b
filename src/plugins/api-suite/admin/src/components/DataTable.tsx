import { Table, Th, Thead, Tr, Typography } from '@strapi/design-system';
import type { ReactNode } from 'react';

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
