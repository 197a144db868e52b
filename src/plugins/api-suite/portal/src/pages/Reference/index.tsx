import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { api, OPENAPI_JSON_PATH, OPENAPI_TYPES_PATH, type Plan } from '../../api';
import { Field } from '../../components/form';
import { LoadProblem, Loading } from '../../components/feedback';
import { useMyPlan } from '../../plans/usePlans';
import { useLoad } from '../../../../shared/hooks';
import { groupByTag, type TagGroup } from './document';
import { OperationView, type PlanReach } from './Operation';
import { Prose } from './Prose';

/**
 * The API reference: the live OpenAPI document (`GET /api/v1/openapi.json`) rendered by the
 * portal itself, grouped by its tags, each operation with its parameters, bodies, answers and
 * examples, marked where the consumer's plan stops, and with "Try it" using a key pasted here.
 * The key lives in this component's state only: never stored, and sent to nothing but the API.
 * Loaded on first visit (a file of its own), so the other pages do not carry it.
 */
export default function Reference() {
  const document = useLoad(() => api.openApiDocument(), []);
  const mine = useMyPlan();
  const plans = useLoad(() => api.plans().then((answer) => answer.data), []);
  const eventTypes = useLoad(() => api.eventTypes().then((answer) => answer.data.map((type) => type.name)), []);
  const [apiKey, setApiKey] = useState('');
  const [filter, setFilter] = useState('');
  const groups = useMemo(() => (document.data ? groupByTag(document.data) : []), [document.data]);
  const reach = planReach(mine.data?.plan, mine.status === 'ready', plans.data);
  const shown = useMemo(() => filterGroups(groups, filter), [groups, filter]);
  const origin = window.location.origin;
  const loaded = document.data;

  return (
    <>
      <h1>API reference</h1>
      <p className="lead">
        Every route of the API, from the description the server itself serves and checks its answers against. Open an operation for its
        parameters, bodies, answers and examples, and try it with one of your keys.
      </p>

      <div className="cards reference-top">
        <section className="card" aria-labelledby="downloads-heading" data-testid="downloads">
          <h2 id="downloads-heading">Downloads</h2>
          <ul className="reference-downloads">
            <li>
              <a href={OPENAPI_JSON_PATH} download="openapi.json">
                OpenAPI document
              </a>{' '}
              <span className="muted">(openapi.json, OpenAPI 3.1)</span>
            </li>
            <li>
              <a href={OPENAPI_TYPES_PATH} download="openapi.d.ts">
                TypeScript types
              </a>{' '}
              <span className="muted">(openapi.d.ts, for openapi-fetch)</span>
            </li>
          </ul>
          <pre className="code code-wrap code-whole" tabIndex={0} aria-label="Using the types with openapi-fetch">
            {typesExample(origin)}
          </pre>
        </section>

        <section className="card" aria-labelledby="try-key-heading">
          <h2 id="try-key-heading">Your key for Try it</h2>
          <Field
            label="API key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="sk_…"
            value={apiKey}
            onChange={setApiKey}
            data-testid="try-key"
            hint={
              <>
                Paste a key from <Link to="/keys">Keys</Link>. It stays in this page's memory, is sent only to this API with your requests,
                and is gone when you leave or reload the page. Requests you try count against your plan like any other.
              </>
            }
          />
        </section>
      </div>

      <LoadProblem problem={document.problem} retry={document.reload} />
      {document.loading && !document.data && <Loading label="Loading the API description…" />}
      {loaded && (
        <>
          <Field
            label="Find an operation"
            type="search"
            value={filter}
            onChange={setFilter}
            placeholder="/api/v1/articles, scrapers, POST…"
          />
          <nav className="reference-toc" aria-label="Features">
            {shown.map((group) => (
              <a key={group.name} href={`#tag-${slug(group.name)}`}>
                {group.name} <span className="muted">({group.operations.length})</span>
              </a>
            ))}
          </nav>
          {shown.length === 0 && <p>No operation matches “{filter}”.</p>}
          {shown.map((group) => (
            <section
              key={group.name}
              className="reference-tag"
              id={`tag-${slug(group.name)}`}
              aria-labelledby={`tag-${slug(group.name)}-heading`}
            >
              <h2 id={`tag-${slug(group.name)}-heading`}>{group.name}</h2>
              {group.description && <Prose text={group.description} className="muted" />}
              {group.operations.some((operation) => operation.path.startsWith('/api/webhooks')) && eventTypes.data && (
                <p className="reference-events" data-testid="reference-event-types">
                  Event types (each with the schema of its <code>data</code> in the event catalog):{' '}
                  {eventTypes.data.map((name, index) => (
                    <span key={name}>
                      {index > 0 && ', '}
                      <Link to={`/webhooks/event-types#event-${name}`}>
                        <code>{name}</code>
                      </Link>
                    </span>
                  ))}
                </p>
              )}
              {group.operations.map((operation) => (
                <OperationView
                  key={`${operation.method} ${operation.path}`}
                  document={loaded}
                  operation={operation}
                  reach={reach}
                  apiKey={apiKey}
                  origin={origin}
                />
              ))}
            </section>
          ))}
        </>
      )}
    </>
  );
}

/** What the marks are measured against: the consumer's plan from the public list, or nothing (administrators, or not known yet). */
function planReach(plan: { id: number; name: string } | null | undefined, known: boolean, plans: Plan[] | undefined): PlanReach {
  if (!known || plan === undefined) return null;
  if (plan === null) return null;
  const listed = plans?.find((candidate) => candidate.id === plan.id);
  return listed ? { name: plan.name, endpoints: listed.endpoints } : null;
}

function filterGroups(groups: TagGroup[], filter: string): TagGroup[] {
  const words = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return groups;
  return groups
    .map((group) => ({
      ...group,
      operations: group.operations.filter((operation) => {
        const haystack = `${group.name} ${operation.method} ${operation.path} ${operation.summary} ${operation.id}`.toLowerCase();
        return words.every((word) => haystack.includes(word));
      }),
    }))
    .filter((group) => group.operations.length > 0);
}

export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function typesExample(origin: string): string {
  return [
    `# npm install openapi-fetch`,
    `curl -o api.d.ts ${origin}${OPENAPI_TYPES_PATH}`,
    ``,
    `import createClient from 'openapi-fetch';`,
    `import type { paths } from './api';`,
    ``,
    `const client = createClient<paths>({`,
    `  baseUrl: '${origin}',`,
    `  headers: { 'X-API-Key': process.env.API_KEY },`,
    `});`,
    `const { data, error } = await client.GET('/api/v1/articles', {`,
    `  params: { query: { limit: 1 } },`,
    `});`,
  ].join('\n');
}
