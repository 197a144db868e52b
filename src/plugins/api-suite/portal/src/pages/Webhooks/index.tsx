import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../../api';
import { Badge, EmptyState, formatDate, formatNumber } from '../../components/feedback';
import { Button, SecretOnce } from '../../components/form';
import { PagedList, usePaged } from '../../components/list';
import { PlanGate, PlanOffer, type FeaturePage } from '../../plans/PlanGate';
import { EndpointForm } from './EndpointForm';

const PAGE: FeaturePage = {
  feature: 'webhooks',
  title: 'Webhooks',
  lead: 'The site sends events to your endpoints as signed POST requests (Standard Webhooks), retrying failed ones.',
};

/** The consumer's webhook endpoints, when their plan includes webhooks; else what the plans that do offer. */
export function Webhooks() {
  return (
    <PlanGate page={PAGE}>
      <EndpointList />
    </PlanGate>
  );
}

/** The consumer's webhook endpoints; a new one's signing secret shown once. */
function EndpointList() {
  const endpoints = usePaged(api.endpoints);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);

  // The server is the judge of what the plan reaches: its refusal of the list turns the page into an offer.
  if (endpoints.problem?.code === 'endpoint_not_in_plan') return <PlanOffer page={PAGE} />;
  // Until the list answers, offer no action the plan might not allow.
  const ready = endpoints.data !== undefined;

  return (
    <>
      <div className="page-heading">
        <h1>{PAGE.title}</h1>
        <div className="row-actions">
          <Link className="button button-secondary" to="/webhooks/event-types">
            Event catalog
          </Link>
          {ready && !creating && (
            <Button variant="primary" onClick={() => (setCreating(true), setCreated(null))}>
              Add an endpoint
            </Button>
          )}
        </div>
      </div>
      <p className="lead">{PAGE.lead}</p>
      {created && (
        <section className="card card-accent" aria-labelledby="secret-heading">
          <h2 id="secret-heading">Endpoint added</h2>
          <SecretOnce
            label="Signing secret"
            value={created.secret}
            testId="new-secret"
            note="Verify each request's webhook-signature with this secret. Copy it now: it is shown only this once."
          />
          <div className="form-actions">
            <Link className="button button-primary" to={`/webhooks/${created.id}`}>
              Open the endpoint
            </Link>
            <Button onClick={() => setCreated(null)}>I have copied it</Button>
          </div>
        </section>
      )}
      {creating && (
        <EndpointForm
          onSaved={(endpoint) => {
            setCreating(false);
            setCreated({ id: endpoint.id, secret: endpoint.secret });
            endpoints.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      <PagedList
        list={endpoints}
        label="Endpoints"
        empty={
          !creating && (
            <EmptyState title="No endpoints yet" action={{ label: 'Add your first endpoint', run: () => setCreating(true) }}>
              Add the URL of your server that should hear about events, and choose which events it gets. The site sends a test event at
              once.
            </EmptyState>
          )
        }
        row={(endpoint) => (
          <li key={endpoint.id} className="row" data-testid="endpoint-row">
            <div className="row-main">
              <Link to={`/webhooks/${endpoint.id}`} className="url">
                {endpoint.endpoint_url}
              </Link>{' '}
              {endpoint.is_active ? <Badge tone="good">active</Badge> : <Badge tone="bad">disabled</Badge>}
              <div className="muted">
                {endpoint.events.join(', ')} ·{' '}
                {endpoint.last_delivery_at ? `last delivery ${formatDate(endpoint.last_delivery_at)}` : 'no delivery yet'}
                {endpoint.failure_count > 0 && ` · ${failuresInARow(endpoint.failure_count)}`}
              </div>
            </div>
          </li>
        )}
      />
    </>
  );
}

export function failuresInARow(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? 'failure' : 'failures'} in a row`;
}
