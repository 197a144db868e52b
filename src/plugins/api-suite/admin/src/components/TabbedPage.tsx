import { Box, Tabs } from '@strapi/design-system';
import { Layouts, Page } from '@strapi/strapi/admin';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';

export interface PageTab {
  value: string;
  label: string;
  content: ReactNode;
  /** Mounted only while shown (a tab that streams, which should stop when left). */
  lazy?: boolean;
}

/**
 * A page of tabs, the chosen one kept in the address (`?tab=`) so a link or a reload opens it;
 * the first tab is the default.
 */
export function TabbedPage({ title, subtitle, tabs }: { title: string; subtitle: string; tabs: PageTab[] }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = (tabs.find((candidate) => candidate.value === requested) ?? tabs[0]).value;
  return (
    <Page.Main>
      <Page.Title>{title}</Page.Title>
      <Layouts.Header title={title} subtitle={subtitle} />
      <Layouts.Content>
        <Tabs.Root value={tab} onValueChange={(value) => setParams({ tab: value }, { replace: true })}>
          <Tabs.List aria-label={title}>
            {tabs.map((candidate) => (
              <Tabs.Trigger key={candidate.value} value={candidate.value}>
                {candidate.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Box paddingTop={4}>
            {tabs.map((candidate) => (
              <Tabs.Content key={candidate.value} value={candidate.value}>
                {!candidate.lazy || candidate.value === tab ? candidate.content : null}
              </Tabs.Content>
            ))}
          </Box>
        </Tabs.Root>
      </Layouts.Content>
    </Page.Main>
  );
}
