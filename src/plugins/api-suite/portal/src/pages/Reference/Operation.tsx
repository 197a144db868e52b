import { useState } from 'react';
import { Badge } from '../../components/feedback';
import { NotInPlan } from '../../plans/NotInPlan';
import { reachesRoute, routeKind, type Route } from '../../plans/reach';
import {
  concretePath,
  curlExample,
  exampleOf,
  fetchExample,
  schemaText,
  type JsonObject,
  type OpenApiDocument,
  type OperationInfo,
} from './document';
import { Inline, Prose } from './Prose';
import { TryIt } from './TryIt';

/** The consumer's plan as the marks read it; null when nothing is marked (an administrator, or a plan not in the public list). */
export type PlanReach = { name: string; endpoints: string[] } | null;

/**
 * One operation: closed, its method, path, summary and whether the plan reaches it; opened, the
 * rest. The body is made on first opening and kept, so Try it's inputs survive closing it.
 */
export function OperationView({
  document,
  operation,
  reach,
  apiKey,
  origin,
}: {
  document: OpenApiDocument;
  operation: OperationInfo;
  reach: PlanReach;
  apiKey: string;
  origin: string;
}) {
  const [opened, setOpened] = useState(false);
  const route: Route = [operation.method, operation.path];
  const kind = routeKind(route);
  const outside = kind === 'plan' && reach !== null && !reachesRoute(reach, route);
  return (
    <details
      className="card operation"
      id={`op-${operation.id}`}
      data-testid="operation"
      data-path={operation.path}
      data-method={operation.method.toUpperCase()}
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary>
        <span className={`method method-${operation.method}`}>{operation.method.toUpperCase()}</span>{' '}
        <code className="operation-path">{operation.path}</code> <span className="operation-summary">{operation.summary}</span>
        {outside && (
          <span data-testid="operation-not-in-plan">
            {' '}
            <Badge tone="bad">Not in your plan</Badge>
          </span>
        )}
        {kind === 'open' && (
          <>
            {' '}
            <Badge tone="neutral">No key needed</Badge>
          </>
        )}
      </summary>
      {opened && <OperationBody document={document} operation={operation} outside={outside} apiKey={apiKey} origin={origin} />}
    </details>
  );
}

function OperationBody({
  document,
  operation,
  outside,
  apiKey,
  origin,
}: {
  document: OpenApiDocument;
  operation: OperationInfo;
  outside: boolean;
  apiKey: string;
  origin: string;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState(() =>
    operation.body?.schema && operation.body.type.includes('json')
      ? JSON.stringify(exampleOf(document, operation.body.schema), null, 2)
      : undefined
  );
  const path = concretePath(operation, values);
  const setValue = (name: string, value: string) => setValues((previous) => ({ ...previous, [name]: value }));
  const errors = operation.responses.filter((response) => Number(response.status) >= 400);
  const successes = operation.responses.filter((response) => Number(response.status) < 400);
  const parameters = operation.parameters.filter((parameter) => parameter.in === 'path' || parameter.in === 'query');

  return (
    <div className="operation-body">
      {outside && <NotInPlan route={[operation.method, operation.path]} what="This route" />}
      {operation.description && <Prose text={operation.description} className="operation-description" />}
      <p className="muted">
        {operation.open
          ? 'No credential needed.'
          : `Credentials: an API key (X-API-Key header), an OAuth access token or your session; a key needs the ${
              operation.method === 'get' ? 'read' : 'write'
            } scope.`}
      </p>

      {parameters.length > 0 && (
        <>
          <h3>Parameters</h3>
          <ul className="parameters">
            {parameters.map((parameter) => (
              <li key={`${parameter.in}:${parameter.name}`}>
                <code className="parameter-name">{parameter.name}</code>{' '}
                <span className="muted">
                  {parameter.in}
                  {parameter.required ? ', required' : ''}
                </span>{' '}
                <code className="schema-inline">{schemaText(document, parameter.schema)}</code>
                {parameter.description && (
                  <span className="parameter-description">
                    <Inline text={parameter.description} />
                  </span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}

      {operation.body && (
        <>
          <h3>
            Request body{' '}
            <span className="muted">
              ({operation.body.type}
              {operation.body.required ? '' : ', optional'})
            </span>
          </h3>
          {operation.body.schema && <Schema document={document} schema={operation.body.schema} label={`${operation.id} request body`} />}
        </>
      )}

      <h3>Answers</h3>
      {successes.map((response) => (
        <div key={response.status} className="operation-answer">
          <p>
            <Badge tone="good">{response.status}</Badge> <Inline text={response.description} />
            {response.content.length > 0 && <span className="muted"> ({response.content.map((media) => media.type).join(', ')})</span>}
          </p>
          {response.headers.some((name) => /ratelimit/i.test(name)) && (
            <p className="muted">
              With the rate-limit headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit-Policy, RateLimit.
            </p>
          )}
          {response.content
            .filter((media) => media.schema)
            .slice(0, 1)
            .map((media) => (
              <Schema
                key={media.type}
                document={document}
                schema={media.schema ?? {}}
                label={`${operation.id} answer ${response.status}`}
              />
            ))}
        </div>
      ))}
      {errors.length > 0 && (
        <>
          <h3>Errors</h3>
          <ul className="operation-errors" data-testid="operation-errors">
            {errors.map((response) => (
              <li key={response.status}>
                <Badge tone="bad">{response.status}</Badge> <Inline text={response.description} />
              </li>
            ))}
          </ul>
          <p className="muted">
            Error bodies are <code>{'{ "error": { "code", "message", "details"? } }'}</code>
            {operation.path.startsWith('/api/webhooks') ? (
              <>
                ; the webhook routes' own refusals are <code>{'{ "error": "<message>", "code" }'}</code>
              </>
            ) : null}
            .
          </p>
        </>
      )}

      <TryIt
        operation={operation}
        parameters={parameters}
        values={values}
        setValue={setValue}
        body={body}
        setBody={setBody}
        path={path}
        apiKey={apiKey}
      />

      <h3>Examples</h3>
      <div className="two-columns">
        <div>
          <h4>curl</h4>
          <pre className="code code-wrap" tabIndex={0} aria-label={`${operation.id} with curl`} data-testid="example-curl">
            {curlExample(origin, operation, path, body)}
          </pre>
        </div>
        <div>
          <h4>JavaScript (fetch)</h4>
          <pre className="code code-wrap" tabIndex={0} aria-label={`${operation.id} with fetch`} data-testid="example-fetch">
            {fetchExample(origin, operation, path, body)}
          </pre>
        </div>
      </div>
    </div>
  );
}

/** A schema as type text, in a block that scrolls on its own (never the page) and from the keyboard. */
function Schema({ document, schema, label }: { document: OpenApiDocument; schema: JsonObject; label: string }) {
  return (
    <pre className="code code-wrap" tabIndex={0} aria-label={label}>
      {schemaText(document, schema)}
    </pre>
  );
}
