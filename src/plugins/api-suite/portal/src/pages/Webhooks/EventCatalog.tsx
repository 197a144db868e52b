import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { api } from '../../api';
import { EmptyState, LoadProblem, Loading } from '../../components/feedback';
import { useLoad } from '../../../../shared/hooks';
import { schemaOutline } from '../../../../shared/schema-outline';

/**
 * Every event type an endpoint can get: what it means and, opened, the fields of its `data` (with
 * the JSON Schema one click away, where the server gives one) and an example. Each has an anchor, `#event-<type>` (the API
 * reference links there), which opens it and scrolls to it.
 */
export function EventCatalog() {
  const types = useLoad(() => api.eventTypes().then((answer) => answer.data), []);
  const { hash } = useLocation();
  useEffect(() => {
    if (!types.data || !hash.startsWith('#event-')) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!(target instanceof HTMLDetailsElement)) return;
    target.open = true;
    target.scrollIntoView({ block: 'start' });
    target.querySelector('summary')?.focus();
  }, [types.data, hash]);
  return (
    <>
      <p className="crumbs">
        <Link to="/webhooks">Webhooks</Link> /
      </p>
      <h1>Event catalog</h1>
      <p className="lead">
        Each delivery's body is <code>{'{ "type", "timestamp", "data" }'}</code>; below, what <code>data</code> holds for each type.
      </p>
      <LoadProblem problem={types.problem} retry={types.reload} />
      {types.loading && !types.data && <Loading />}
      {types.data && types.data.length === 0 && (
        <EmptyState title="No event types">The site has switched every event type off. Ask its owner which events it offers.</EmptyState>
      )}
      {types.data?.map((type) => (
        // Closed by default: twenty schemas open at once make a page too long to find anything in.
        <details key={type.name} id={`event-${type.name}`} className="card event-type" data-testid="event-type">
          <summary>
            <code className="event-name">{type.name}</code>
            {type.description && <span className="muted"> {type.description}</span>}
          </summary>
          <div className="two-columns">
            {type.schema !== undefined && <Fields name={type.name} schema={type.schema} />}
            <Json title="Example" label={`${type.name} example`} value={type.example_payload} />
          </div>
        </details>
      ))}
    </>
  );
}

/**
 * What `data` holds, as a reader wants it: each field with its kind in words ("text, date-time",
 * "number or null") and its description; the raw JSON Schema (for validators and generators) one
 * click away.
 */
function Fields({ name, schema }: { name: string; schema: unknown }) {
  const rows = schemaOutline(schema);
  return (
    <div>
      <h3>Fields</h3>
      {rows.length === 0 ? (
        <p className="muted">No fields are described for this type.</p>
      ) : (
        <table className="schema-fields" aria-label={`${name} fields`}>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Holds</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.path}>
                <td style={{ paddingLeft: `${0.5 + row.depth}rem` }}>
                  <code>{row.path}</code>
                  {!row.required && <span className="muted"> (optional)</span>}
                </td>
                <td>
                  {row.type}
                  {row.description && <div className="muted">{row.description}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <details className="raw-schema">
        <summary>JSON Schema</summary>
        <pre className="code" tabIndex={0} aria-label={`${name} schema`}>
          {JSON.stringify(schema, null, 2)}
        </pre>
      </details>
    </div>
  );
}

/** A titled JSON block, focusable so it scrolls from the keyboard. */
function Json({ title, label, value }: { title: string; label: string; value: unknown }) {
  return (
    <div>
      <h3>{title}</h3>
      <pre className="code" tabIndex={0} aria-label={label}>
        {JSON.stringify(value, null, 2)}
      </pre>
    </div>
  );
}
