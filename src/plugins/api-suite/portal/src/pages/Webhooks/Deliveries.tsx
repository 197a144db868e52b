import { useState } from 'react';
import { api, type Delivery, type DeliveryStatus } from '../../api';
import { Badge, EmptyState, formatDate, Loading, Notice } from '../../components/feedback';
import { Button, Field } from '../../components/form';
import { PagedList, usePaged } from '../../components/list';
import { useAction, useLoad } from '../../../../shared/hooks';

const STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'retrying', 'cancelled'];

/** An endpoint's deliveries, newest first, each with its attempts on demand and a retry. */
export function Deliveries({ endpointId, round }: { endpointId: string; round: number }) {
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [mine, setMine] = useState(0);
  const deliveries = usePaged((page) => api.deliveries(endpointId, page, status || undefined), [endpointId, status, round, mine]);
  return (
    <section className="card" aria-labelledby="deliveries-heading">
      <div className="card-heading">
        <h2 id="deliveries-heading">Deliveries</h2>
        <div className="row-actions">
          <Field
            as="select"
            label="Status"
            value={status}
            onChange={(value) => (setStatus(value as DeliveryStatus | ''), deliveries.setPage(1))}
          >
            <option value="">All</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </Field>
          <Button busy={deliveries.loading && deliveries.data !== undefined} onClick={() => setMine((value) => value + 1)}>
            Refresh
          </Button>
        </div>
      </div>
      <PagedList
        list={deliveries}
        label="Deliveries"
        empty={
          <EmptyState title={status ? `No ${status} deliveries` : 'No deliveries yet'}>
            Send a test event above, or wait for the next event you subscribed to.
          </EmptyState>
        }
        row={(delivery) => <DeliveryRow key={delivery.id} delivery={delivery} onRetried={() => setMine((value) => value + 1)} />}
      />
    </section>
  );
}

function DeliveryRow({ delivery, onRetried }: { delivery: Delivery; onRetried(): void }) {
  const [open, setOpen] = useState(false);
  const detail = useLoad(() => (open ? api.delivery(delivery.id) : Promise.resolve(null)), [open, delivery.id, delivery.attempts]);
  const retry = useAction(async () => {
    await api.retryDelivery(delivery.id);
    onRetried();
  });
  const tone = delivery.status === 'succeeded' ? 'good' : delivery.status === 'failed' || delivery.status === 'cancelled' ? 'bad' : 'busy';
  return (
    <li className="row row-column" data-testid="delivery-row" data-status={delivery.status}>
      <div className="row-line">
        <div className="row-main">
          <code>{delivery.event_type}</code> <Badge tone={tone}>{delivery.status}</Badge>
          <div className="muted">
            {formatDate(delivery.created_at)} · {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
            {delivery.response_status !== null && ` · last answer HTTP ${delivery.response_status}`}
            {delivery.next_attempt_at && ` · next attempt ${formatDate(delivery.next_attempt_at)}`}
          </div>
        </div>
        <div className="row-actions">
          <Button onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? 'Hide attempts' : 'Attempts'}
          </Button>
          {delivery.status !== 'pending' && delivery.status !== 'retrying' && (
            <Button busy={retry.busy} onClick={() => void retry.run()}>
              Retry
            </Button>
          )}
        </div>
      </div>
      {retry.problem && <Notice tone="error">{retry.problem.message}</Notice>}
      {open && detail.loading && !detail.data && <Loading />}
      {open && detail.data && (
        <div className="attempts">
          {detail.data.attempts.length === 0 ? (
            <p className="muted">No attempt yet.</p>
          ) : (
            <table>
              <caption className="visually-hidden">Attempts</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">When</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Time</th>
                </tr>
              </thead>
              <tbody>
                {detail.data.attempts.map((attempt) => (
                  <tr key={attempt.attempt} data-testid="attempt-row">
                    <td>{attempt.attempt}</td>
                    <td>{formatDate(attempt.at)}</td>
                    <td>{attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error ?? 'no answer')}</td>
                    <td>{attempt.duration_ms === null ? '—' : `${attempt.duration_ms} ms`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <details>
            <summary>Payload</summary>
            <pre className="code">{JSON.stringify(detail.data.payload, null, 2)}</pre>
          </details>
        </div>
      )}
    </li>
  );
}
