import { Fragment, useState, type FormEvent } from 'react';
import { api, type Subscription } from '../../api';
import { Loading } from '../../components/feedback';
import { Button, CheckboxGroup, FormProblem, TextField } from '../../components/form';
import { useAction, useLoad } from '../../../../shared/hooks';

/** Create an endpoint, or edit one's URL, description, rate limit and events; the server's messages beside each field. */
export function EndpointForm({
  endpoint,
  onSaved,
  onCancel,
}: {
  endpoint?: Subscription;
  onSaved(saved: Subscription & { secret: string }): void;
  onCancel(): void;
}) {
  const catalog = useLoad(() => api.eventTypes().then((answer) => answer.data), []);
  const [url, setUrl] = useState(endpoint?.endpoint_url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? []);
  const [rateLimit, setRateLimit] = useState(
    endpoint?.rate_limit === null || endpoint?.rate_limit === undefined ? '' : String(endpoint.rate_limit)
  );
  const save = useAction(async () => {
    // Empty means no limit; anything else goes to the server as a number, which checks it.
    const input = { endpoint_url: url.trim(), events, description, rate_limit: rateLimit.trim() === '' ? null : Number(rateLimit) };
    if (endpoint) onSaved({ ...(await api.updateEndpoint(endpoint.id, input)), secret: '' });
    else onSaved(await api.createEndpoint(input));
  });
  const fields = save.problem?.fields ?? {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  // "*" is written like every other option (its name in code, its meaning under it), so the list reads as one column of names.
  const options = [
    { value: '*', label: <EventLabel name="*" description="Every event, including types added later" /> },
    ...(catalog.data ?? []).map((type) => ({ value: type.name, label: <EventLabel name={type.name} description={type.description} /> })),
  ];
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby="endpoint-form-heading">
      <h2 id="endpoint-form-heading">{endpoint ? 'Edit the endpoint' : 'Add an endpoint'}</h2>
      <FormProblem problem={save.problem} />
      <TextField
        label="Endpoint URL"
        name="endpoint_url"
        type="url"
        inputMode="url"
        placeholder="https://example.com/webhooks"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        error={fields.endpoint_url}
        required
      />
      <TextField
        label="Description (optional)"
        name="description"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        error={fields.description}
      />
      <TextField
        label="Rate limit (optional)"
        name="rate_limit"
        type="number"
        inputMode="numeric"
        min={1}
        max={1000}
        placeholder="No limit"
        hint="At most this many deliveries a second to this endpoint (1–1,000). The rest wait their turn; they never fail for it."
        value={rateLimit}
        onChange={(event) => setRateLimit(event.target.value)}
        error={fields.rate_limit}
      />
      {catalog.loading && !catalog.data ? (
        <Loading label="Loading the event types…" />
      ) : (
        <CheckboxGroup legend="Events" options={options} value={events} onChange={setEvents} error={fields.events} />
      )}
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={save.busy}>
          {endpoint ? 'Save' : 'Add endpoint'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}

function EventLabel({ name, description }: { name: string; description: string }) {
  // A break allowed after each dot, so a long name (billing.subscription.canceled) wraps between its parts, not inside a word.
  const parts = name.split('.');
  return (
    <>
      <code>
        {parts.map((part, index) => (
          <Fragment key={index}>
            {part}
            {index < parts.length - 1 && (
              <>
                .<wbr />
              </>
            )}
          </Fragment>
        ))}
      </code>
      {description && <span className="muted event-description">{description}</span>}
    </>
  );
}
