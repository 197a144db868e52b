import { Flex, Link, Typography } from '@strapi/design-system';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { useApiSuiteClient } from '../api';
import { useLoad } from '../hooks/useLoad';
import { useFormat, useT } from '../utils/useT';
import { PLUGIN_ID } from '../pluginId';

/** What the Content Manager hands a side panel of its edit view (its `addEditViewSidePanel` API). */
export interface EditViewPanelProps {
  model: string;
  /** Undefined while an entry is being created. */
  documentId?: string;
}

export type EditViewPanel = (props: EditViewPanelProps) => { title: string; content: ReactNode } | null;

/**
 * "Written by a scraper": on a document a scraper last wrote, the scraper and the run, each a
 * link to its page, and what the run did. Shown to those who may read scrapers (the route answers
 * the others 403, and the panel stays hidden), and only once a scraper has written the document.
 */
export const WrittenByPanel: EditViewPanel = ({ model, documentId }) => {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const written = useLoad(
    () => (documentId ? client.scrapers.writtenBy(model, documentId) : Promise.resolve(null)),
    [client, model, documentId]
  );
  const data = written.data;
  if (!data) return null;
  const scraperPage = `/plugins/${PLUGIN_ID}/scrapers/${data.scraper.id}`;
  return {
    title: t('scrapers.writtenBy.title'),
    content: (
      <Flex direction="column" alignItems="flex-start" gap={1} data-testid="written-by">
        <Typography variant="pi">
          {t(`scrapers.writtenBy.${data.action}`)}{' '}
          <Link tag={NavLink} to={scraperPage}>
            {data.scraper.name}
          </Link>
        </Typography>
        <Link tag={NavLink} to={`${scraperPage}?run=${data.run_id}`}>
          {t('scrapers.writtenBy.run', { run: data.run_id })}
        </Link>
        <Typography variant="pi" textColor="neutral600">
          {format.dateTime(data.written_at)}
        </Typography>
      </Flex>
    ),
  };
};
