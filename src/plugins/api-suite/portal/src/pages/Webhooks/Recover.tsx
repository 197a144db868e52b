import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { Notice } from '../../components/feedback';
import { Button, FormProblem, TextField } from '../../components/form';
import { useAction } from '../../hooks/useLoad';

/** Send again every failed or cancelled delivery of a time range (at most 14 days back), as after an outage of your server. */
export function Recover({ endpointId, onRecovered }: { endpointId: string; onRecovered(): void }) {
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 86_400_000)));
  const [until, setUntil] = useState('');
  const [queued, setQueued] = useState<number | null>(null);
  const recover = useAction(async () => {
    setQueued(null);
    const answer = await api.recover(endpointId, new Date(since).toISOString(), until ? new Date(until).toISOString() : undefined);
    setQueued(answer.deliveries);
    onRecovered();
  });
  const fields = recover.problem?.fields ?? {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void recover.run();
  };
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby="recover-heading">
      <h2 id="recover-heading">Recover failed deliveries</h2>
      <p className="muted">Was your server down? Send every failed or cancelled delivery of a time range again, with its original webhook-id. At most 14 days back.</p>
      <FormProblem problem={recover.problem} />
      <div className="inline-fields">
        <TextField label="Since" name="since" type="datetime-local" value={since} onChange={(event) => setSince(event.target.value)} error={fields.since} required />
        <TextField label="Until (optional)" name="until" type="datetime-local" value={until} onChange={(event) => setUntil(event.target.value)} error={fields.until} hint="Empty: until now." />
      </div>
      <Button type="submit" variant="primary" busy={recover.busy}>
        Recover
      </Button>
      {queued !== null && (
        <Notice tone="success" testId="recover-result">
          {queued === 0 ? 'Nothing to recover in that range.' : `${queued} ${queued === 1 ? 'delivery' : 'deliveries'} queued again.`}
        </Notice>
      )}
    </form>
  );
}

/** A Date as the value of a datetime-local input (the browser's local time, to the minute). */
function localInput(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}
