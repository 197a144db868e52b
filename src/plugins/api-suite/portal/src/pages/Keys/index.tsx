import { useState } from 'react';
import { api, type ApiKey, type NewApiKey } from '../../api';
import { Badge, EmptyState, formatDate, Notice } from '../../components/feedback';
import { Button, Field, SecretOnce } from '../../components/form';
import { PagedList, usePaged } from '../../components/list';
import { useAction, useLoad } from '../../../../shared/hooks';
import { CreateKeyForm } from './CreateKeyForm';

/** The consumer's API keys: create (the key shown once), revoke, reroll with a grace period. */
export function Keys() {
  const keys = usePaged(api.keys);
  const plans = useLoad(() => api.plans().then((answer) => new Map(answer.data.map((plan) => [plan.id, plan.name]))), []);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<{ key: NewApiKey; note: string } | null>(null);

  const onMade = (key: NewApiKey, note: string) => {
    setShown({ key, note });
    setCreating(false);
    keys.reload();
  };

  return (
    <>
      <div className="page-heading">
        <h1>Keys</h1>
        {!creating && !shown && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create a key
          </Button>
        )}
      </div>
      <p className="lead">
        Send a key in the <code>X-API-Key</code> header. Keys with the write scope can change data; give each program its own key. Your keys
        follow your plan and share its quota: more keys do not add requests.
      </p>
      <p className="muted" data-testid="keys-role-note">
        A key does what your plan includes and what your account&apos;s role on this site allows, never more: where the site&apos;s owner
        has not let your role write something, a write key is refused there too (403 from the site, not from your plan).
      </p>
      {shown && (
        <section className="card card-accent" aria-labelledby="new-key-heading">
          <h2 id="new-key-heading">Your new key</h2>
          <SecretOnce
            label="API key"
            value={shown.key.key}
            testId="new-key"
            note={`${shown.note} Copy it now: it is shown only this once, and nobody can see it again.`}
          />
          <Button onClick={() => setShown(null)}>I have copied it</Button>
        </section>
      )}
      {creating && <CreateKeyForm onCreated={(key) => onMade(key, 'Key created.')} onCancel={() => setCreating(false)} />}
      <PagedList
        list={keys}
        label="API keys"
        pagerLabel="Keys"
        empty={
          !creating && (
            <EmptyState title="No keys yet" action={{ label: 'Create your first key', run: () => setCreating(true) }}>
              Create a key to call the API from your own code. It follows your plan, and moves with it when your plan changes.
            </EmptyState>
          )
        }
        row={(key) => (
          <KeyRow
            key={key.id}
            apiKey={key}
            planName={key.plan_id === null ? null : (plans.data?.get(key.plan_id) ?? null)}
            onChanged={keys.reload}
            onRerolled={(made, until) => onMade(made, `Key rerolled: the old key works until ${formatDate(until)}.`)}
          />
        )}
      />
    </>
  );
}

const GRACE_OPTIONS = [
  { seconds: 0, label: 'Stop the old key now' },
  { seconds: 3_600, label: 'Old key works 1 more hour' },
  { seconds: 86_400, label: 'Old key works 1 more day' },
  { seconds: 604_800, label: 'Old key works 7 more days' },
];

function KeyRow({
  apiKey,
  planName,
  onChanged,
  onRerolled,
}: {
  apiKey: ApiKey;
  planName: string | null;
  onChanged(): void;
  onRerolled(key: NewApiKey, oldExpiresAt: string): void;
}) {
  const [confirming, setConfirming] = useState<'revoke' | 'reroll' | null>(null);
  const [grace, setGrace] = useState(86_400);
  const revoke = useAction(async () => {
    await api.revokeKey(apiKey.id);
    onChanged();
  });
  const reroll = useAction(async () => {
    const { data } = await api.rerollKey(apiKey.id, grace);
    setConfirming(null);
    onRerolled(data, data.old_expires_at);
  });
  const active = apiKey.status === 'active';
  return (
    <li className="row" data-testid="key-row">
      <div className="row-main">
        <strong>{apiKey.name ?? 'Unnamed key'}</strong> <code>{apiKey.key_prefix}…</code>{' '}
        <Badge tone={active ? 'good' : 'bad'}>{apiKey.status}</Badge>
        <div className="muted">
          <span data-testid="key-plan">Plan: {planName ?? '—'}</span> · Scopes: {apiKey.scopes.join(', ')} · created{' '}
          {formatDate(apiKey.created_at)} · {apiKey.expires_at ? `expires ${formatDate(apiKey.expires_at)}` : 'no expiry'}
        </div>
      </div>
      {active && confirming === null && (
        <div className="row-actions">
          <Button onClick={() => setConfirming('reroll')}>Reroll</Button>
          <Button variant="danger" onClick={() => setConfirming('revoke')}>
            Revoke
          </Button>
        </div>
      )}
      {confirming === 'revoke' && (
        <div className="row-confirm" role="group" aria-label={`Revoke ${apiKey.name ?? apiKey.key_prefix}`}>
          <span>Revoke this key? Programs using it stop working at once.</span>
          <Button variant="danger" busy={revoke.busy} onClick={() => void revoke.run()}>
            Yes, revoke
          </Button>
          <Button onClick={() => setConfirming(null)}>Keep it</Button>
        </div>
      )}
      {confirming === 'reroll' && (
        <div className="row-confirm" role="group" aria-label={`Reroll ${apiKey.name ?? apiKey.key_prefix}`}>
          <Field
            as="select"
            label="Grace period"
            value={grace}
            onChange={(value) => setGrace(Number(value))}
            error={reroll.problem?.fields.grace_seconds}
          >
            {GRACE_OPTIONS.map((option) => (
              <option key={option.seconds} value={option.seconds}>
                {option.label}
              </option>
            ))}
          </Field>
          <Button variant="primary" busy={reroll.busy} onClick={() => void reroll.run()}>
            Make a new key
          </Button>
          <Button onClick={() => setConfirming(null)}>Cancel</Button>
        </div>
      )}
      {(revoke.problem ?? reroll.problem) && <Notice tone="error">{(revoke.problem ?? reroll.problem)?.message}</Notice>}
    </li>
  );
}
