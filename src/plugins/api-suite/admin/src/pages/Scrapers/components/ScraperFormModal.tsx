import { Box, Flex, Grid, NumberInput, SingleSelect, SingleSelectOption, Textarea, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type Scraper, type ScraperInput } from '../../../api';
import type { ScraperFormOptions } from '../hooks/useScraperOptions';
import { TargetFields, targetInput, targetState, type TargetState } from './TargetFields';
import { FormField, FormModal, OnOffToggle, TextValueInput, isGeneralProblem } from '../../../components/FormModal';
import { UserPicker } from '../../../components/UserPicker';
import { useAction } from '../../../hooks/useAction';
import { fieldError } from '../../../../../shared/http';
import { SCRAPER_DEFAULTS } from '../../../../../shared/scraper-defaults';
import { formatNamedLines, parseHeaderLines, parseSelectorFields } from '../../../../../shared/named-lines';
import { useT } from '../../../utils/useT';

/** The select's value for "no proxy pool" (its options need a non-empty value). */
const NO_PROXY = '__none__';

interface FormState {
  user_id: number | null;
  name: string;
  url: string;
  schedule: string;
  proxy_pool: string;
  rate_limit: number | undefined;
  max_pages: number | undefined;
  follow_links: boolean;
  respect_robots_txt: boolean;
  item: string;
  fields: string;
  headers: string;
  change_detection: boolean;
  change_key: string;
  target: TargetState;
}

/**
 * Create a scraper (for a user the editor picks: it is that consumer's, and their webhook
 * subscriptions receive its run events) or edit one. Nothing is checked here that the server
 * checks: its messages are shown under each field.
 */
export function ScraperFormModal({
  scraper,
  options,
  onClose,
  onSaved,
}: {
  scraper?: Scraper;
  options: ScraperFormOptions;
  onClose: () => void;
  onSaved: (scraper: Scraper) => void;
}) {
  const t = useT();
  const client = useApiSuiteClient();
  const { run, busy, problem } = useAction();
  const [form, setForm] = useState<FormState>(() => initial(scraper));
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((previous) => ({ ...previous, [key]: value }));
  const error = (field: string) => fieldError(problem, field);
  const { proxyPools, targetTypes } = options;
  const itemFields = itemFieldsOf(form);

  const save = async () => {
    const input = toInput(form);
    const saved = await run(
      'save',
      () => (scraper ? client.scrapers.update(scraper.id, input) : client.scrapers.create({ ...input, user_id: form.user_id })),
      {
        success: scraper ? 'form.saved' : 'scrapers.created',
        quiet: true,
      }
    );
    if (saved) onSaved(saved);
  };

  return (
    <FormModal
      title={scraper ? t('scrapers.edit', { name: scraper.name }) : t('scrapers.new')}
      onClose={onClose}
      problem={problem}
      submit={{ label: scraper ? t('action.save') : t('scrapers.create'), onClick: () => void save(), loading: busy === 'save' }}
      contentStyle={{ maxWidth: '88rem', width: '90vw' }}
    >
      {problem && !isGeneralProblem(problem) && (
        <Box paddingBottom={4}>
          <Typography textColor="danger600" role="alert">
            {t('form.fixErrors')}
          </Typography>
        </Box>
      )}
      <Grid.Root gap={4}>
        {!scraper && (
          <Grid.Item col={12} direction="column" alignItems="stretch">
            <UserPicker
              name="user_id"
              label={t('scrapers.field.owner')}
              hint={t('scrapers.field.ownerHint')}
              value={form.user_id}
              onChange={(value) => set('user_id', value)}
              error={error('user_id')}
            />
          </Grid.Item>
        )}
        <FormField col={6} name="name" label={t('scrapers.field.name')} required>
          <TextValueInput value={form.name} onValueChange={(value) => set('name', value)} />
        </FormField>
        <FormField col={6} name="url" label={t('scrapers.field.url')} required hint={t('scrapers.field.urlHint')}>
          <TextValueInput value={form.url} placeholder="https://example.com/" onValueChange={(value) => set('url', value)} />
        </FormField>
        <FormField col={6} name="schedule" label={t('scrapers.field.schedule')} hint={t('scrapers.field.scheduleHint')}>
          <TextValueInput value={form.schedule} placeholder="0 * * * *" onValueChange={(value) => set('schedule', value)} />
        </FormField>
        <FormField col={3} s={6} name="max_pages" label={t('scrapers.field.maxPages')} hint={t('scrapers.field.maxPagesHint')}>
          <NumberInput value={form.max_pages} onValueChange={(value) => set('max_pages', value)} />
        </FormField>
        <FormField col={3} s={6} name="rate_limit" label={t('scrapers.field.rateLimit')} hint={t('scrapers.field.rateLimitHint')}>
          <NumberInput value={form.rate_limit} onValueChange={(value) => set('rate_limit', value)} />
        </FormField>
        <FormField col={4} name="follow_links" label={t('scrapers.field.followLinks')} hint={t('scrapers.field.followLinksHint')}>
          <OnOffToggle checked={form.follow_links} onCheckedChange={(checked) => set('follow_links', checked)} />
        </FormField>
        <FormField col={4} name="respect_robots_txt" label={t('scrapers.field.robots')}>
          <OnOffToggle checked={form.respect_robots_txt} onCheckedChange={(checked) => set('respect_robots_txt', checked)} />
        </FormField>
        <FormField
          col={4}
          name="proxy_pool"
          label={t('scrapers.field.proxyPool')}
          hint={proxyPools.length === 0 ? t('scrapers.field.noProxyPools') : undefined}
        >
          <SingleSelect
            value={form.proxy_pool === '' ? NO_PROXY : form.proxy_pool}
            onChange={(value) => set('proxy_pool', value === NO_PROXY ? '' : String(value))}
            disabled={proxyPools.length === 0 && !form.proxy_pool}
          >
            <SingleSelectOption value={NO_PROXY}>{t('scrapers.field.proxyPoolNone')}</SingleSelectOption>
            {[...new Set([...proxyPools, ...(form.proxy_pool ? [form.proxy_pool] : [])])].map((pool) => (
              <SingleSelectOption key={pool} value={pool}>
                {pool}
              </SingleSelectOption>
            ))}
          </SingleSelect>
        </FormField>
        <Grid.Item col={12} direction="column" alignItems="stretch">
          <Flex direction="column" alignItems="stretch" gap={2}>
            <Typography variant="delta" tag="h3">
              {t('scrapers.field.selectors')}
            </Typography>
            <Typography variant="pi" textColor="neutral600">
              {t('scrapers.field.selectorsHint')}
            </Typography>
            {error('selectors') && (
              <Typography variant="pi" textColor="danger600" data-field-error="selectors">
                {error('selectors')}
              </Typography>
            )}
          </Flex>
        </Grid.Item>
        <FormField col={4} name="selectors.item" label={t('scrapers.field.item')} hint={t('scrapers.field.itemHint')}>
          <TextValueInput value={form.item} placeholder=".product" onValueChange={(value) => set('item', value)} />
        </FormField>
        <FormField col={8} name="selectors.fields" label={t('scrapers.field.fields')} hint={t('scrapers.field.fieldsHint')}>
          <Textarea
            value={form.fields}
            placeholder={'name: .name\nlink: a.link@href'}
            onChange={(event) => set('fields', event.currentTarget.value)}
            style={{ fontFamily: 'monospace' }}
          />
        </FormField>
        {/* Its own message only: the key's shows under the key field. */}
        <FormField
          col={4}
          name="change_detection"
          label={t('scrapers.field.changeDetection')}
          error={problem?.fields.change_detection ?? null}
          hint={t('scrapers.field.changeDetectionHint')}
        >
          <OnOffToggle checked={form.change_detection} onCheckedChange={(checked) => set('change_detection', checked)} />
        </FormField>
        <FormField col={8} name="change_detection.key" label={t('scrapers.field.changeKey')} hint={t('scrapers.field.changeKeyHint')}>
          <TextValueInput
            value={form.change_key}
            placeholder="sku"
            disabled={!form.change_detection}
            onValueChange={(value) => set('change_key', value)}
          />
        </FormField>
        <TargetFields value={form.target} types={targetTypes} itemFields={itemFields} onChange={(target) => set('target', target)} />
        <FormField col={12} name="headers" label={t('scrapers.field.headers')} hint={t('scrapers.field.headersHint')}>
          <Textarea
            value={form.headers}
            placeholder="accept-language: en"
            onChange={(event) => set('headers', event.currentTarget.value)}
            style={{ fontFamily: 'monospace' }}
          />
        </FormField>
      </Grid.Root>
    </FormModal>
  );
}

function initial(scraper?: Scraper): FormState {
  return {
    user_id: null,
    name: scraper?.name ?? '',
    url: scraper?.url ?? '',
    schedule: scraper?.schedule ?? '',
    proxy_pool: scraper?.proxy_pool ?? '',
    rate_limit: scraper?.rate_limit ?? SCRAPER_DEFAULTS.rate_limit,
    max_pages: scraper?.max_pages ?? SCRAPER_DEFAULTS.max_pages,
    follow_links: scraper?.follow_links ?? SCRAPER_DEFAULTS.follow_links,
    respect_robots_txt: scraper?.respect_robots_txt ?? SCRAPER_DEFAULTS.respect_robots_txt,
    item: scraper?.selectors?.item ?? '',
    fields: scraper?.selectors ? formatNamedLines(scraper.selectors.fields) : '',
    headers: scraper ? formatNamedLines(scraper.headers) : '',
    change_detection: Boolean(scraper?.change_detection),
    change_key: scraper?.change_detection?.key ?? '',
    target: targetState(scraper?.target),
  };
}

/** The form as the server's body; numbers left empty are left out (the server's default, or unchanged). */
function toInput(form: FormState): ScraperInput {
  const fields = parseSelectorFields(form.fields);
  const hasSelectors = form.item.trim() !== '' || Object.keys(fields).length > 0;
  return {
    name: form.name,
    url: form.url,
    schedule: form.schedule.trim() === '' ? null : form.schedule.trim(),
    proxy_pool: form.proxy_pool === '' ? null : form.proxy_pool,
    rate_limit: form.rate_limit,
    max_pages: form.max_pages,
    follow_links: form.follow_links,
    respect_robots_txt: form.respect_robots_txt,
    headers: parseHeaderLines(form.headers),
    selectors: hasSelectors ? { ...(form.item.trim() === '' ? {} : { item: form.item.trim() }), fields } : null,
    // An empty key field means the item's URL, which the server takes as no key at all.
    change_detection: form.change_detection ? (form.change_key.trim() === '' ? {} : { key: form.change_key.trim() }) : null,
    target: targetInput(form.target),
  };
}

/** The fields an item will have, as the server reads them: the selectors' fields, or `title` without selectors; `url` always. */
function itemFieldsOf(form: FormState): string[] {
  const fields = Object.keys(parseSelectorFields(form.fields));
  const hasSelectors = form.item.trim() !== '' || fields.length > 0;
  return [...new Set([...(hasSelectors ? fields : ['title']), 'url'])];
}
