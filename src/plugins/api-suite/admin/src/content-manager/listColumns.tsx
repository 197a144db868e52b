import { Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { Link } from 'react-router-dom';

/**
 * Content Manager lists, made to fit a 1440 px window: Strapi writes every date out in full
 * ("Thursday, November 26, 2026 at 4:44 AM", about 300 px a column) and lets a text column grow
 * to 30rem, so a list of five columns is wider than the content area and its last columns are
 * cut off. Dates are shown short (the full date on hover) and long texts end in an ellipsis (the
 * whole text on hover). The first text column stays the entry's link, as Strapi makes it, and
 * takes the room the row leaves it (an article's title is not cut short beside three columns).
 */
export const INJECT_COLUMN_IN_TABLE = 'Admin/CM/pages/ListView/inject-column-in-table';

type Row = Record<string, unknown> & { documentId?: string };

export interface ListHeader {
  name: string;
  attribute?: { type?: string; relation?: string };
  mainField?: { name?: string };
  cellFormatter?: (
    row: Row,
    header: Omit<ListHeader, 'cellFormatter'>,
    context: { collectionType: string; model: string }
  ) => React.ReactNode;
  [key: string]: unknown;
}

interface HookArgs {
  displayedHeaders: ListHeader[];
  layout: unknown;
}

const DATES = new Set(['date', 'datetime']);
const TEXTS = new Set(['string', 'text', 'email', 'uid']);

/**
 * The room the entry's link (the first text column: an article's title) may take: what the row
 * leaves it in the content area of a 1440 px window (a table about 990 px wide, less about 150 px
 * for the selection and action cells) once every other column has its share of about 160 px;
 * never less than 150 px, never more than 400 px. In pixels: Strapi's admin sets 1rem to 10 px,
 * so the same figures in rem left an article's title cut at 280 px in a column of 360.
 */
export function linkColumnWidth(columns: number): string {
  const room = 990 - 150 - 160 * Math.max(0, columns - 1);
  return `${Math.min(400, Math.max(150, room))}px`;
}

export function shortenListColumns({ displayedHeaders, layout }: HookArgs): HookArgs {
  let linked = false;
  const linkWidth = linkColumnWidth(displayedHeaders.length);
  return {
    layout,
    displayedHeaders: displayedHeaders.map((header) => {
      const type = header.attribute?.type;
      // A column another plugin already formats is left to it.
      if (!type || header.cellFormatter) return header;
      if (DATES.has(type))
        return { ...header, cellFormatter: (row: Row) => <ShortDate value={row[header.name]} withTime={type === 'datetime'} /> };
      // A relation to one entry is named by its main field, which can be long (a name, an e-mail).
      const mainField = header.mainField?.name;
      if (type === 'relation' && mainField && !/ToMany$/i.test(header.attribute?.relation ?? '')) {
        const field = header.name.split('.')[0];
        return { ...header, cellFormatter: (row: Row) => <ShortText value={mainFieldOf(row[field], mainField)} to={undefined} /> };
      }
      if (TEXTS.has(type)) {
        const isLink = !linked;
        linked = true;
        return {
          ...header,
          cellFormatter: (row: Row) => (
            <ShortText value={row[header.name]} to={isLink ? row.documentId : undefined} linkWidth={linkWidth} />
          ),
        };
      }
      return header;
    }),
  };
}

function mainFieldOf(related: unknown, field: string): unknown {
  return related && typeof related === 'object' && field in related ? (related as Record<string, unknown>)[field] : undefined;
}

function ShortDate({ value, withTime }: { value: unknown; withTime: boolean }) {
  const { formatDate } = useIntl();
  if (typeof value !== 'string' || value === '') return <Typography textColor="neutral800">-</Typography>;
  const date = new Date(value);
  const short = formatDate(date, withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' });
  const full = formatDate(date, withTime ? { dateStyle: 'full', timeStyle: 'short' } : { dateStyle: 'full' });
  return (
    <Typography textColor="neutral800" title={full} style={{ whiteSpace: 'nowrap' }}>
      {short}
    </Typography>
  );
}

function ShortText({ value, to, linkWidth = '150px' }: { value: unknown; to: string | undefined; linkWidth?: string }) {
  const text = value === null || value === undefined || value === '' ? '-' : String(value);
  if (to && text !== '-') {
    return (
      <Typography
        tag={Link}
        to={to}
        onClick={(event: React.MouseEvent) => event.stopPropagation()}
        textColor="neutral800"
        ellipsis
        maxWidth={linkWidth}
        title={text}
        style={{ display: 'block' }}
      >
        {text}
      </Typography>
    );
  }
  return (
    <Typography textColor="neutral800" ellipsis maxWidth="12rem" title={text} style={{ display: 'block' }}>
      {text}
    </Typography>
  );
}
