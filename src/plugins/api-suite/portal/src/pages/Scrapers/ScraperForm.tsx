import { api, type Scraper } from '../../api';
import { Field, FormActions, FormProblem, useForm } from '../../components/form';
import { formatNamedLines, parseHeaderLines, parseSelectorFields } from '../../../../shared/named-lines';
import { SCRAPER_DEFAULTS } from '../../../../shared/scraper-defaults';

/** What an empty change-detection key means, in the form and on the scraper's page alike. */
/** How an item is told apart from run to run when no key field is set. */
const WITHOUT_KEY = 'an item is recognised by its url field, else by the URL of the page it came from.';
export const EMPTY_KEY_MEANS = `Not set: ${WITHOUT_KEY}`;

/**
 * A new scraper, or one being edited (`scraper`): start URL, optional schedule, page limit, speed,
 * robots.txt, request headers, selectors and change detection; the server's messages beside each
 * field. An edit sends every field the form shows (PATCH /api/v1/scrapers/{id}); the proxy pool,
 * which the site's administrators choose, is left as it is.
 */
export function ScraperForm({ scraper, onSaved, onCancel }: { scraper?: Scraper; onSaved(scraper: Scraper): void; onCancel(): void }) {
  const form = useForm(
    {
      name: scraper?.name ?? '',
      url: scraper?.url ?? '',
      schedule: scraper?.schedule ?? '',
      max_pages: String(scraper?.max_pages ?? SCRAPER_DEFAULTS.max_pages),
      follow_links: scraper?.follow_links ?? SCRAPER_DEFAULTS.follow_links,
      rate_limit: String(scraper?.rate_limit ?? SCRAPER_DEFAULTS.rate_limit),
      respect_robots_txt: scraper?.respect_robots_txt ?? SCRAPER_DEFAULTS.respect_robots_txt,
      headers: scraper ? formatNamedLines(scraper.headers) : '',
      item: scraper?.selectors?.item ?? '',
      fields: scraper?.selectors ? formatNamedLines(scraper.selectors.fields) : '',
      detect_changes: Boolean(scraper?.change_detection),
      change_detection_key: scraper?.change_detection?.key ?? '',
    },
    async (values) => {
      const fields = parseSelectorFields(values.fields);
      const [item, key] = [values.item.trim(), values.change_detection_key.trim()];
      const body = {
        name: values.name.trim(),
        url: values.url.trim(),
        schedule: values.schedule.trim() || null,
        max_pages: Number(values.max_pages),
        follow_links: values.follow_links,
        rate_limit: Number(values.rate_limit),
        respect_robots_txt: values.respect_robots_txt,
        headers: parseHeaderLines(values.headers),
        selectors: Object.keys(fields).length > 0 ? { ...(item ? { item } : {}), fields } : null,
        change_detection: values.detect_changes ? (key ? { key } : {}) : null,
      };
      onSaved(scraper ? await api.updateScraper(scraper.id, body) : await api.createScraper(body));
    }
  );
  const { errors } = form;
  const heading = scraper ? 'Edit scraper' : 'New scraper';
  return (
    <form className="card form" onSubmit={form.submit} noValidate aria-labelledby="scraper-form-heading">
      <h2 id="scraper-form-heading">{heading}</h2>
      <FormProblem problem={form.problem} />
      <Field label="Name" {...form.field('name')} required />
      <Field label="Start URL" type="url" inputMode="url" placeholder="https://example.com/news" {...form.field('url')} required />
      <Field
        label="Schedule (optional)"
        placeholder="0 * * * *"
        {...form.field('schedule')}
        hint="A cron expression; empty: only when you run it."
      />
      <Field
        label="Pages at most"
        type="number"
        min={1}
        {...form.field('max_pages')}
        hint={`How many pages one run fetches at most (${SCRAPER_DEFAULTS.max_pages} unless you say otherwise).`}
      />
      <Field
        as="checkbox"
        label="Follow links on the same site"
        checked={form.values.follow_links}
        onChange={(checked) => form.set('follow_links', checked)}
      />
      <Field
        label="Requests a second"
        type="number"
        min={1}
        max={100}
        {...form.field('rate_limit')}
        hint={`How many pages a second it asks the site for at most, 1 to 100 (${SCRAPER_DEFAULTS.rate_limit} unless you say otherwise).`}
      />
      <Field
        as="checkbox"
        label="Keep to the site's robots.txt"
        checked={form.values.respect_robots_txt}
        onChange={(checked) => form.set('respect_robots_txt', checked)}
      />
      <Field
        as="textarea"
        label="Request headers (optional)"
        rows={2}
        placeholder="Accept-Language: en"
        {...form.field('headers')}
        error={Object.entries(errors).find(([field]) => field.startsWith('headers'))?.[1]}
        hint="One a line: Name: value, sent with every page request (at most 20)."
      />
      <Field
        label="Item selector (optional)"
        placeholder="article"
        {...form.field('item')}
        hint="One result per element it matches; empty: one result per page."
      />
      <Field
        as="textarea"
        label="Fields (optional)"
        rows={3}
        placeholder={'title: h2\nlink: a@href'}
        {...form.field('fields')}
        error={Object.entries(errors).find(([field]) => field.startsWith('selectors'))?.[1]}
        hint="One a line: name: CSS selector, or name: selector@attribute (name=selector works too). Empty: each page's URL and title."
      />
      <Field
        as="checkbox"
        label="Detect changes between runs"
        checked={form.values.detect_changes}
        onChange={(checked) => form.set('detect_changes', checked)}
      />
      {form.values.detect_changes && (
        <Field
          label="Key field (optional)"
          {...form.field('change_detection_key')}
          error={errors['change_detection.key'] ?? errors.change_detection}
          hint={`The name of one of the fields above that tells an item apart from run to run, such as link. Left empty, ${WITHOUT_KEY} Each run then counts new, changed and removed items, and a results.changed event is sent when there are any.`}
        />
      )}
      <FormActions submit={scraper ? 'Save changes' : 'Create scraper'} busy={form.busy} onCancel={onCancel} />
    </form>
  );
}
