import { useRef, useState, type FormEvent } from 'react';
import { Button, Field } from '../../components/form';
import { Badge, Notice } from '../../components/feedback';
import type { OperationInfo, Parameter } from './document';

/** The answer headers Try it shows: the quota's, the retry hint and the request's id. */
const SHOWN_HEADERS = /^(x-ratelimit-|ratelimit|retry-after$|x-request-id$)/i;
/** More than this of a body is cut: the page is for reading an answer, not for downloading one. */
const BODY_SHOWN = 50_000;

interface Answer {
  status: number;
  statusText: string;
  ms: number;
  headers: Array<[string, string]>;
  contentType: string;
  body: string;
}

/**
 * Sends the operation with the pasted key, from the browser, to this site's API only, and shows
 * the status, the rate-limit headers and the body. The key goes in `X-API-Key` and nowhere else:
 * not the portal's session (no `Authorization`), no cookie (`credentials: 'omit'`), no storage.
 */
export function TryIt({
  operation,
  parameters,
  values,
  setValue,
  body,
  setBody,
  path,
  apiKey,
}: {
  operation: OperationInfo;
  parameters: Parameter[];
  values: Record<string, string>;
  setValue(name: string, value: string): void;
  body: string | undefined;
  setBody(value: string): void;
  path: string;
  apiKey: string;
}) {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sent = useRef(0);
  const streams = operation.responses.some((response) => response.content.some((media) => media.type === 'text/event-stream'));
  const missingPath = parameters.filter((parameter) => parameter.in === 'path' && !values[`path:${parameter.name}`]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!operation.open && !apiKey.trim()) {
      setProblem('Paste one of your keys above first.');
      return;
    }
    if (missingPath.length > 0) {
      setProblem(`Fill in ${missingPath.map((parameter) => parameter.name).join(', ')}.`);
      return;
    }
    const mine = ++sent.current;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (!operation.open) headers['X-API-Key'] = apiKey.trim();
    if (body !== undefined && operation.body) headers['Content-Type'] = operation.body.type;
    setBusy(true);
    const started = performance.now();
    try {
      const response = await fetch(path, {
        method: operation.method.toUpperCase(),
        headers,
        body: body !== undefined && operation.body ? body : undefined,
        credentials: 'omit',
        cache: 'no-store',
        redirect: 'manual',
      });
      const text = await response.text();
      if (mine !== sent.current) return;
      setAnswer({
        status: response.status,
        statusText: response.statusText,
        ms: Math.round(performance.now() - started),
        headers: [...response.headers.entries()].filter(([name]) => SHOWN_HEADERS.test(name)),
        contentType: response.headers.get('content-type') ?? '',
        body: text,
      });
    } catch {
      if (mine === sent.current) setProblem('The server could not be reached. Check your connection and try again.');
    } finally {
      if (mine === sent.current) setBusy(false);
    }
  };

  return (
    <section className="try-it" aria-label={`Try ${operation.method.toUpperCase()} ${operation.path}`}>
      <h3>Try it</h3>
      {streams ? (
        <p className="muted">This route answers a stream that stays open: try it with curl (below), which prints each event as it comes.</p>
      ) : (
        <form className="form" onSubmit={(event) => void send(event)} noValidate>
          {parameters.length > 0 && (
            <div className="inline-fields try-parameters">
              {parameters.map((parameter) => (
                <Field
                  key={`${parameter.in}:${parameter.name}`}
                  label={parameter.name}
                  value={values[`${parameter.in}:${parameter.name}`] ?? ''}
                  onChange={(value) => setValue(`${parameter.in}:${parameter.name}`, value)}
                  placeholder={parameter.in === 'path' ? 'required' : 'optional'}
                  spellCheck={false}
                  autoComplete="off"
                />
              ))}
            </div>
          )}
          {body !== undefined && (
            <Field
              as="textarea"
              label="Request body"
              value={body}
              onChange={setBody}
              rows={Math.min(12, body.split('\n').length + 1)}
              spellCheck={false}
            />
          )}
          <p className="try-request">
            <code>
              {operation.method.toUpperCase()} {path}
            </code>
          </p>
          <Button type="submit" variant="primary" busy={busy}>
            Send
          </Button>
        </form>
      )}
      {problem && <Notice tone="error">{problem}</Notice>}
      {answer && <AnswerView answer={answer} />}
    </section>
  );
}

function AnswerView({ answer }: { answer: Answer }) {
  const tone = answer.status < 300 ? 'good' : answer.status < 500 ? 'bad' : 'busy';
  return (
    <div className="try-answer" data-testid="try-answer" aria-live="polite">
      <p data-testid="try-status">
        <Badge tone={tone}>{answer.status}</Badge> {answer.statusText} <span className="muted">in {answer.ms} ms</span>
      </p>
      {answer.headers.length > 0 ? (
        <dl className="facts" data-testid="try-headers">
          {answer.headers.map(([name, value]) => (
            <div key={name} className="fact" data-testid={`try-header-${name.toLowerCase()}`}>
              <dt>{canonical(name)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">No rate-limit headers on this answer (routes of your own account are not counted).</p>
      )}
      {answer.body && (
        <pre className="code code-wrap" tabIndex={0} aria-label="Answer body" data-testid="try-body">
          {pretty(answer.body, answer.contentType)}
        </pre>
      )}
    </div>
  );
}

/** `x-ratelimit-remaining` as it is usually written, `X-RateLimit-Remaining`. */
function canonical(name: string): string {
  return name
    .split('-')
    .map((part) => (part.toLowerCase() === 'ratelimit' ? 'RateLimit' : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('-');
}

function pretty(body: string, contentType: string): string {
  let text = body;
  if (contentType.includes('json')) {
    try {
      text = JSON.stringify(JSON.parse(body) as unknown, null, 2);
    } catch {
      // Shown as it came.
    }
  }
  return text.length > BODY_SHOWN ? `${text.slice(0, BODY_SHOWN)}\n… (${text.length - BODY_SHOWN} more characters)` : text;
}
