import { Fragment, useRef } from 'react';
import { api, type Subscription } from '../../api';
import { Loading } from '../../components/feedback';
import { CheckboxGroup, Field, FormActions, FormProblem, useForm } from '../../components/form';
import { filterText, parseFilterText } from '../../../../shared/filter-editing';
import { useLoad } from '../../../../shared/hooks';
import { placedError } from '../../../../shared/http';
import { FilterField } from './FilterField';

/** Create an endpoint, or edit one's URL, description, rate limit, events and payload filter; the server's messages beside each field. */
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
  // The filter's text when the form was last sent: its messages hold for that text only.
  const sentFilter = useRef<string | null>(null);
  const form = useForm(
    {
      endpoint_url: endpoint?.endpoint_url ?? '',
      description: endpoint?.description ?? '',
      events: endpoint?.events ?? [],
      rate_limit: endpoint?.rate_limit === null || endpoint?.rate_limit === undefined ? '' : String(endpoint.rate_limit),
      filter: filterText(endpoint?.filter),
    },
    async ({ endpoint_url, events, description, rate_limit, filter: text }) => {
      const filter = parseFilterText(text);
      // Empty means no limit; anything else goes to the server as a number, which checks it.
      const input = {
        endpoint_url: endpoint_url.trim(),
        events,
        description,
        rate_limit: rate_limit.trim() === '' ? null : Number(rate_limit),
      };
      // No filter: none on a new endpoint, and null clears an edited one's.
      const chosen = filter.kind === 'filter' ? filter.filter : null;
      if (endpoint) onSaved({ ...(await api.updateEndpoint(endpoint.id, { ...input, filter: chosen })), secret: '' });
      else {
        // The creation answers the secret (shown once) with a few fields; the endpoint as listed comes from its own route.
        const created = await api.createEndpoint(chosen ? { ...input, filter: chosen } : input);
        onSaved({ ...(await api.endpoint(created.id)), secret: created.secret });
      }
    },
    ({ filter }): Record<string, string> => {
      sentFilter.current = filter;
      const parsed = parseFilterText(filter);
      return parsed.kind === 'invalid' ? { filter: parsed.message } : {};
    }
  );
  const filterError = form.values.filter === sentFilter.current ? placedError({ fields: form.errors }, 'filter') : undefined;
  // "*" is written like every other option (its name in code, its meaning under it), so the list reads as one column of names.
  const options = [
    { value: '*', label: <EventLabel name="*" description="Every event, including types added later" /> },
    ...(catalog.data ?? []).map((type) => ({ value: type.name, label: <EventLabel name={type.name} description={type.description} /> })),
  ];
  return (
    <form className="card form" onSubmit={form.submit} noValidate aria-labelledby="endpoint-form-heading">
      <h2 id="endpoint-form-heading">{endpoint ? 'Edit the endpoint' : 'Add an endpoint'}</h2>
      <FormProblem problem={form.problem} />
      <Field
        label="Endpoint URL"
        type="url"
        inputMode="url"
        placeholder="https://example.com/webhooks"
        {...form.field('endpoint_url')}
        required
      />
      <Field label="Description (optional)" {...form.field('description')} />
      <Field
        label="Rate limit (optional)"
        type="number"
        inputMode="numeric"
        min={1}
        max={1000}
        placeholder="No limit"
        hint="At most this many deliveries a second to this endpoint (1–1,000). The rest wait their turn; they never fail for it."
        {...form.field('rate_limit')}
      />
      {catalog.loading && !catalog.data ? (
        <Loading label="Loading the event types…" />
      ) : (
        <CheckboxGroup legend="Events" options={options} {...form.field('events')} />
      )}
      <FilterField
        value={form.values.filter}
        onChange={(text) => form.set('filter', text)}
        events={form.values.events}
        types={catalog.data}
        error={filterError}
      />
      <FormActions submit={endpoint ? 'Save' : 'Add endpoint'} busy={form.busy} onCancel={onCancel} />
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
