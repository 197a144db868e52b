import { Box, Grid, Typography } from '@strapi/design-system';
import { BackButton, Layouts, Page } from '@strapi/strapi/admin';
import type { ReactNode } from 'react';
import type { ApiProblem } from '../../../shared/http';
import { ProblemAlert } from './ProblemAlert';

/** The frame of every detail page (a subscription, a scraper): title, back button, actions, content. */
export function DetailPage({
  title,
  subtitle,
  primaryAction,
  secondaryAction,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  primaryAction?: ReactNode;
  secondaryAction?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Page.Main>
      <Page.Title>{title}</Page.Title>
      <Layouts.Header
        navigationAction={<BackButton />}
        title={title}
        subtitle={subtitle}
        primaryAction={primaryAction}
        secondaryAction={secondaryAction}
      />
      <Layouts.Content>{children}</Layouts.Content>
    </Page.Main>
  );
}

/** A detail page before its record is there: the problem that stopped it loading, or the loader. */
export function DetailPending({ title, problem }: { title: string; problem?: ApiProblem }) {
  if (!problem) return <Page.Loading />;
  return (
    <Page.Main>
      <Layouts.Header navigationAction={<BackButton />} title={title} />
      <Layouts.Content>
        <ProblemAlert problem={problem} />
      </Layouts.Content>
    </Page.Main>
  );
}

/** One labelled value in a detail page's grid. */
export function DetailItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Grid.Item col={4} s={6} xs={12} direction="column" alignItems="flex-start" gap={1}>
      <Typography variant="sigma" textColor="neutral600">
        {label}
      </Typography>
      <Box>{children}</Box>
    </Grid.Item>
  );
}

/** A detail page's panel of DetailItems; `footer` goes under the grid (a description). */
export function DetailGrid({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <Box background="neutral0" shadow="tableShadow" hasRadius padding={6}>
      <Grid.Root gap={4}>{children}</Grid.Root>
      {footer}
    </Box>
  );
}

/** A titled part of a detail page (its runs, its deliveries). */
export function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box>
      <Box paddingBottom={3}>
        <Typography variant="delta" tag="h2">
          {title}
        </Typography>
      </Box>
      {children}
    </Box>
  );
}
