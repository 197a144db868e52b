import { Link } from 'react-router-dom';
import { api } from '../../api';
import { EmptyState, LoadProblem, Loading } from '../../components/feedback';
import { useLoad } from '../../hooks/useLoad';

/** Every event type an endpoint can get: what it means, the JSON Schema of its `data` (where the server gives one) and an example. */
export function EventCatalog() {
  const types = useLoad(() => api.eventTypes().then((answer) => answer.data), []);
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
      {types.data && types.data.length === 0 && <EmptyState title="No event types">The site has switched every event type off. Ask its owner which events it offers.</EmptyState>}
      {types.data?.map((type) => (
        <section key={type.name} className="card event-type" data-testid="event-type" aria-labelledby={`type-${type.name}`}>
          <h2 id={`type-${type.name}`}>
            <code>{type.name}</code>
          </h2>
          {type.description && <p>{type.description}</p>}
          <div className="two-columns">
            {type.schema !== undefined && (
              <div>
                <h3>Schema</h3>
                <pre className="code" tabIndex={0} aria-label={`${type.name} schema`}>{JSON.stringify(type.schema, null, 2)}</pre>
              </div>
            )}
            <div>
              <h3>Example</h3>
              <pre className="code" tabIndex={0} aria-label={`${type.name} example`}>{JSON.stringify(type.example_payload, null, 2)}</pre>
            </div>
          </div>
        </section>
      ))}
    </>
  );
}
