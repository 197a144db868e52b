import { api, type Scraper } from '../../api';
import { Field, FormActions, FormProblem, useForm } from '../../components/form';
import { parseSelectorFields } from '../../../../shared/named-lines';

/** A new scraper: start URL, optional schedule, page limit, selectors and change detection; the server's messages beside each field. */
export function ScraperForm({ onCreated, onCancel }: { onCreated(scraper: Scraper): void; onCancel(): void }) {
  const form = useForm(
    {
      name: '',
      url: '',
      schedule: '',
      max_pages: '10',
      follow_links: false,
      item: '',
      fields: '',
      detect_changes: false,
      change_detection_key: '',
    },
    async (values) => {
      const fields = parseSelectorFields(values.fields);
      const [item, key] = [values.item.trim(), values.change_detection_key.trim()];
      onCreated(
        await api.createScraper({
          name: values.name.trim(),
          url: values.url.trim(),
          schedule: values.schedule.trim() || null,
          max_pages: Number(values.max_pages),
          follow_links: values.follow_links,
          selectors: Object.keys(fields).length > 0 ? { ...(item ? { item } : {}), fields } : null,
          change_detection: values.detect_changes ? (key ? { key } : {}) : null,
        })
      );
    }
  );
  const { errors } = form;
  return (
    <form className="card form" onSubmit={form.submit} noValidate aria-labelledby="scraper-form-heading">
      <h2 id="scraper-form-heading">New scraper</h2>
      <FormProblem problem={form.problem} />
      <Field label="Name" {...form.field('name')} required />
      <Field label="Start URL" type="url" inputMode="url" placeholder="https://example.com/news" {...form.field('url')} required />
      <Field
        label="Schedule (optional)"
        placeholder="0 * * * *"
        {...form.field('schedule')}
        hint="A cron expression; empty: only when you run it."
      />
      <Field label="Pages at most" type="number" min={1} {...form.field('max_pages')} />
      <Field
        as="checkbox"
        label="Follow links on the same site"
        checked={form.values.follow_links}
        onChange={(checked) => form.set('follow_links', checked)}
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
          placeholder="link"
          {...form.field('change_detection_key')}
          error={errors['change_detection.key'] ?? errors.change_detection}
          hint="The field that names an item from run to run, one of the fields above; empty: its url. Each run then counts new, changed and removed items, and a results.changed event is sent when there are any."
        />
      )}
      <FormActions submit="Create scraper" busy={form.busy} onCancel={onCancel} />
    </form>
  );
}
