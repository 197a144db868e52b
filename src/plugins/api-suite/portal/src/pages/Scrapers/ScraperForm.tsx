import { useState, type FormEvent } from 'react';
import { api, type Scraper } from '../../api';
import { Button, FormProblem, TextAreaField, TextField } from '../../components/form';
import { useAction } from '../../../../shared/hooks';
import { parseSelectorFields } from '../../../../shared/named-lines';

/** A new scraper: start URL, optional schedule, page limit, selectors and change detection; the server's messages beside each field. */
export function ScraperForm({ onCreated, onCancel }: { onCreated(scraper: Scraper): void; onCancel(): void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [schedule, setSchedule] = useState('');
  const [maxPages, setMaxPages] = useState('10');
  const [followLinks, setFollowLinks] = useState(false);
  const [item, setItem] = useState('');
  const [fieldLines, setFieldLines] = useState('');
  const [detectChanges, setDetectChanges] = useState(false);
  const [changeKey, setChangeKey] = useState('');
  const create = useAction(async () => {
    const fields = parseSelectorFields(fieldLines);
    onCreated(
      await api.createScraper({
        name: name.trim(),
        url: url.trim(),
        schedule: schedule.trim() || null,
        max_pages: Number(maxPages),
        follow_links: followLinks,
        selectors: Object.keys(fields).length > 0 ? { ...(item.trim() ? { item: item.trim() } : {}), fields } : null,
        change_detection: detectChanges ? (changeKey.trim() ? { key: changeKey.trim() } : {}) : null,
      })
    );
  });
  const problems = create.problem?.fields ?? {};
  const selectorProblem = Object.entries(problems).find(([field]) => field.startsWith('selectors'))?.[1];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby="scraper-form-heading">
      <h2 id="scraper-form-heading">New scraper</h2>
      <FormProblem problem={create.problem} />
      <TextField label="Name" name="name" value={name} onChange={(event) => setName(event.target.value)} error={problems.name} required />
      <TextField
        label="Start URL"
        name="url"
        type="url"
        inputMode="url"
        placeholder="https://example.com/news"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        error={problems.url}
        required
      />
      <TextField
        label="Schedule (optional)"
        name="schedule"
        placeholder="0 * * * *"
        value={schedule}
        onChange={(event) => setSchedule(event.target.value)}
        error={problems.schedule}
        hint="A cron expression; empty: only when you run it."
      />
      <TextField
        label="Pages at most"
        name="max_pages"
        type="number"
        min={1}
        value={maxPages}
        onChange={(event) => setMaxPages(event.target.value)}
        error={problems.max_pages}
      />
      <label className="checkbox">
        <input type="checkbox" checked={followLinks} onChange={(event) => setFollowLinks(event.target.checked)} />{' '}
        <span>Follow links on the same site</span>
      </label>
      <TextField
        label="Item selector (optional)"
        name="item"
        placeholder="article"
        value={item}
        onChange={(event) => setItem(event.target.value)}
        hint="One result per element it matches; empty: one result per page."
      />
      <TextAreaField
        label="Fields (optional)"
        name="fields"
        rows={3}
        placeholder={'title: h2\nlink: a@href'}
        value={fieldLines}
        onChange={(event) => setFieldLines(event.target.value)}
        error={selectorProblem}
        hint="One a line: name: CSS selector, or name: selector@attribute (name=selector works too). Empty: each page's URL and title."
      />
      <label className="checkbox">
        <input type="checkbox" checked={detectChanges} onChange={(event) => setDetectChanges(event.target.checked)} />{' '}
        <span>Detect changes between runs</span>
      </label>
      {detectChanges && (
        <TextField
          label="Key field (optional)"
          name="change_detection_key"
          placeholder="link"
          value={changeKey}
          onChange={(event) => setChangeKey(event.target.value)}
          error={problems['change_detection.key'] ?? problems.change_detection}
          hint="The field that names an item from run to run, one of the fields above; empty: its url. Each run then counts new, changed and removed items, and a results.changed event is sent when there are any."
        />
      )}
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={create.busy}>
          Create scraper
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
