import { useState } from 'react';
import { api } from '../../api';
import { formatDate, Notice } from '../../components/feedback';
import { Button, Field, FormProblem, useForm } from '../../components/form';

/**
 * Send again every failed or cancelled delivery of a time range (at most 14 days back), as after an
 * outage of your server. Times are typed in UTC, as the page writes them: a datetime-local picker
 * would show the browser's own format and time zone beside deliveries listed in UTC.
 */
export function Recover({ endpointId, onRecovered }: { endpointId: string; onRecovered(): void }) {
  const [queued, setQueued] = useState<number | null>(null);
  const form = useForm(
    () => ({ since: utcInput(new Date(Date.now() - 86_400_000)), until: '' }),
    async ({ since, until }) => {
      setQueued(null);
      const answer = await api.recover(
        endpointId,
        parseUtc(since)?.toISOString() ?? since,
        until.trim() ? (parseUtc(until)?.toISOString() ?? until) : undefined
      );
      setQueued(answer.deliveries);
      onRecovered();
    },
    // The format is checked here, where the field can say what it expects; the range by the server.
    ({ since, until }) => {
      const problems: Record<string, string> = {};
      if (!parseUtc(since)) problems.since = `write it as ${FORMAT}, such as ${utcInput(new Date())}`;
      if (until.trim() && !parseUtc(until)) problems.until = `write it as ${FORMAT}, or leave it empty`;
      return problems;
    }
  );
  const { since, until } = form.values;
  return (
    <form className="card form" onSubmit={form.submit} noValidate aria-labelledby="recover-heading">
      <h2 id="recover-heading">Recover failed deliveries</h2>
      <p className="muted">
        Was your server down? Send every failed or cancelled delivery of a time range again, with its original webhook-id. At most 14 days
        back.
      </p>
      <FormProblem problem={form.problem} />
      <div className="inline-fields">
        <Field label="Since (UTC)" {...TIME} {...form.field('since')} hint={readBack(since, FORMAT)} required />
        <Field
          label="Until (UTC, optional)"
          {...TIME}
          {...form.field('until')}
          hint={until.trim() ? readBack(until, FORMAT) : 'Empty: until now.'}
        />
      </div>
      <Button type="submit" variant="primary" busy={form.busy}>
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

const FORMAT = 'YYYY-MM-DD HH:MM';
/** A time typed as text in FORMAT (see the top of the file for why not a picker). */
const TIME = { inputMode: 'numeric', autoComplete: 'off', placeholder: FORMAT } as const;

/** The typed time as the page writes times, so the consumer sees what they asked for. */
function readBack(value: string, format: string): string {
  const parsed = parseUtc(value);
  return parsed ? `That is ${formatDate(parsed.toISOString())}.` : `${format}, in UTC.`;
}

/** A Date as `YYYY-MM-DD HH:MM` in UTC. */
export function utcInput(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

/** `YYYY-MM-DD HH:MM` (or with a T, or seconds) read as UTC; null when it is not a real time. */
export function parseUtc(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second = '0'] = match.slice(1).map((part) => part ?? '0');
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  // Date.UTC rolls 31 Feb over into March: only a time that reads back the same is real.
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day) && Number(hour) < 24 && Number(minute) < 60
    ? date
    : null;
}
