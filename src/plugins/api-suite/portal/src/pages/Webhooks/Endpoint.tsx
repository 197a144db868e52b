import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { api, type TestOutcome } from '../../api';
import { Badge, formatDate, LoadProblem, Loading, Notice } from '../../components/feedback';
import { Button, SecretOnce } from '../../components/form';
import { filterText } from '../../../../shared/filter-editing';
import { useAction, useLoad } from '../../../../shared/hooks';
import { Deliveries } from './Deliveries';
import { EndpointForm } from './EndpointForm';
import { NotInPlan } from '../../plans/NotInPlan';
import { Recover } from './Recover';

/** One endpoint: its settings (its payload filter among them), a test event with its result, the secret rotated, its deliveries, and recovery of failed ones. */
export function Endpoint() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const endpoint = useLoad(() => api.endpoint(id), [id]);
  const [editing, setEditing] = useState(false);
  const [round, setRound] = useState(0);
  const [tested, setTested] = useState<TestOutcome | null>(null);
  const [secret, setSecret] = useState<{ secret: string; note: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const refresh = () => (endpoint.reload(), setRound((value) => value + 1));

  const test = useAction(async () => {
    setTested(await api.testEndpoint(id));
    refresh();
  });
  const rotate = useAction(async () => setSecret(await api.rotateSecret(id)));
  const toggle = useAction(async (active: boolean) => {
    await api.updateEndpoint(id, { is_active: active });
    endpoint.reload();
  });
  const remove = useAction(async () => {
    await api.deleteEndpoint(id);
    navigate('/webhooks');
  });

  const crumbs = (
    <p className="crumbs">
      <Link to="/webhooks">Webhooks</Link> /
    </p>
  );
  if (!endpoint.data) {
    return (
      <>
        {crumbs}
        <h1>Endpoint</h1>
        {endpoint.problem?.status === 404 ? (
          <Notice tone="error">This endpoint does not exist, or is not yours.</Notice>
        ) : endpoint.problem?.code === 'endpoint_not_in_plan' ? (
          <NotInPlan feature="webhooks" what="Webhooks" />
        ) : (
          <LoadProblem problem={endpoint.problem} retry={endpoint.reload} />
        )}
        {endpoint.loading && <Loading />}
      </>
    );
  }
  const data = endpoint.data;
  const problem = test.problem ?? rotate.problem ?? toggle.problem ?? remove.problem;
  return (
    <>
      {crumbs}
      <h1 className="url-heading">{data.endpoint_url}</h1>
      {problem && <Notice tone="error">{problem.message}</Notice>}
      {!data.is_active && (
        <Notice tone="warning">
          This endpoint is disabled{data.disabled_at ? ` since ${formatDate(data.disabled_at)}` : ''}: it gets no events.{' '}
          <Button variant="link" busy={toggle.busy} onClick={() => void toggle.run(true)}>
            Enable it again
          </Button>
        </Notice>
      )}
      {data.rotation_recommended && <Notice tone="warning">This secret is older than 90 days: rotate it.</Notice>}
      {editing ? (
        <EndpointForm endpoint={data} onSaved={() => (setEditing(false), endpoint.reload())} onCancel={() => setEditing(false)} />
      ) : (
        <section className="card">
          <dl className="facts">
            <dt>Status</dt>
            <dd>{data.is_active ? <Badge tone="good">active</Badge> : <Badge tone="bad">disabled</Badge>}</dd>
            <dt>Events</dt>
            <dd data-testid="endpoint-events">{data.events.join(', ')}</dd>
            <dt>Payload filter</dt>
            <dd data-testid="endpoint-filter">
              {data.filter ? (
                <pre className="code code-wrap" tabIndex={0} aria-label="Payload filter">
                  {filterText(data.filter)}
                </pre>
              ) : (
                'None: every event of its types'
              )}
            </dd>
            {data.description && (
              <>
                <dt>Description</dt>
                <dd>{data.description}</dd>
              </>
            )}
            <dt>Rate limit</dt>
            <dd data-testid="endpoint-rate-limit">{data.rate_limit === null ? 'None' : `${data.rate_limit} a second at most`}</dd>
            <dt>Last delivery</dt>
            <dd>{formatDate(data.last_delivery_at)}</dd>
            <dt>Failures in a row</dt>
            <dd>{data.failure_count}</dd>
          </dl>
          <div className="form-actions">
            <Button onClick={() => setEditing(true)}>Edit</Button>
            <Button variant="primary" busy={test.busy} onClick={() => void test.run()}>
              Send a test event
            </Button>
            <Button busy={rotate.busy} onClick={() => void rotate.run()}>
              Rotate secret
            </Button>
            {data.is_active && (
              <Button busy={toggle.busy} onClick={() => void toggle.run(false)}>
                Disable
              </Button>
            )}
            {confirmDelete ? (
              <span className="row-confirm">
                <Button variant="danger" busy={remove.busy} onClick={() => void remove.run()}>
                  Yes, delete
                </Button>
                <Button onClick={() => setConfirmDelete(false)}>Keep it</Button>
              </span>
            ) : (
              <Button variant="danger" onClick={() => setConfirmDelete(true)}>
                Delete
              </Button>
            )}
          </div>
          {tested && (
            <Notice tone={tested.delivered ? 'success' : 'error'} testId="test-result">
              {tested.delivered ? 'Test delivered' : 'Test failed'}:{' '}
              {tested.status_code === null ? 'no answer' : `HTTP ${tested.status_code}`} in {tested.duration_ms} ms.
            </Notice>
          )}
          {secret && (
            <SecretOnce
              label="New signing secret"
              value={secret.secret}
              testId="rotated-secret"
              note={`${secret.note} Copy it now: it is shown only this once.`}
            />
          )}
        </section>
      )}
      <Deliveries endpointId={id} round={round} />
      <Recover endpointId={id} onRecovered={refresh} />
    </>
  );
}
