import { useId, useMemo, useRef } from 'react';
import { Link } from 'react-router-dom';
import { api, type EventType } from '../../api';
import { parseFilterText, suggestedFields, textWithCondition, typesReceived, typeToTry } from '../../../../shared/filter-editing';
import { FIELD_OPERATORS, FIELD_OPERATOR_NAMES } from '../../../../shared/filters';
import { placedError } from '../../../../shared/http';
import { useFilterTry, useSettled } from '../../../../shared/use-filter-try';

/** At most this many field names are offered; the event catalog has every one. */
const MAX_SUGGESTIONS = 40;

const KIND_WORDS: Record<string, string> = { string: 'text', date: 'date', number: 'number', boolean: 'true/false', object: 'object' };

/**
 * An endpoint's payload filter: JSON in Strapi's filter syntax, empty for none. Under it the
 * fields the chosen event types' data has (a click adds a condition on one), and whether the
 * example of the first type chosen by name matches, as the server answers once the typing stops.
 * Text that is not a JSON object is named here without asking the server; the server's refusal
 * of a filter (invalid_filter, with the place) is shown at the field, as `error` is (the form's
 * check and the save's refusal).
 */
export function FilterField({
  value,
  onChange,
  events,
  types,
  error,
}: {
  value: string;
  onChange(text: string): void;
  events: string[];
  types: EventType[] | undefined;
  error?: string;
}) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const parsed = parseFilterText(value);
  const filter = parsed.kind === 'filter' ? parsed.filter : null;
  const received = useMemo(() => typesReceived(events, types ?? []), [events, types]);
  const fields = useMemo(() => suggestedFields(received), [received]);
  const tryType = filter ? typeToTry(filter, events, types ?? []) : undefined;
  const tried = useFilterTry(filter, tryType?.name, api.filterTest, tryType);
  // Said once the typing stops, so a filter half written is not called wrong.
  const settled = useSettled(value) === value;
  const shownError =
    (parsed.kind === 'invalid' && settled ? parsed.message : undefined) ??
    error ??
    (tried.state === 'refused' && tried.problem.code === 'invalid_filter'
      ? (placedError(tried.problem, 'filter') ?? tried.problem.message)
      : undefined);

  const addCondition = (index: number) => {
    const next = textWithCondition(parsed, fields[index], received);
    if (next === undefined) return;
    onChange(next);
    area.current?.focus();
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={`field filter-field${shownError ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>Payload filter (optional)</label>
      <textarea
        id={id}
        ref={area}
        name="filter"
        className="filter-json"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        rows={5}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        placeholder={'{ "total": { "$gte": 100 } }'}
        aria-describedby={[hintId, shownError ? errorId : ''].filter(Boolean).join(' ')}
        aria-invalid={shownError ? true : undefined}
      />
      <p className="field-hint" id={hintId}>
        Only events whose data matches are sent to this endpoint; leave it empty to get every event of the chosen types. Write a JSON object
        in Strapi&apos;s filter syntax: a field with an operator, as in <code>{'{ "total": { "$gte": 100 } }'}</code>, a nested field as
        nested objects, <code>$and</code>, <code>$or</code> and <code>$not</code> to combine conditions; a bare value means equal. What each
        type&apos;s data holds is in the <Link to="/webhooks/event-types">event catalog</Link>, and the{' '}
        <Link to="/reference">API reference</Link> describes the filter under Webhooks.
      </p>
      {shownError && (
        <p className="field-error" id={errorId} role="alert" data-testid="filter-error">
          {shownError}
        </p>
      )}
      <details className="filter-operators">
        <summary>Operators</summary>
        <ul>
          {FIELD_OPERATOR_NAMES.map((name) => (
            <li key={name}>
              <code>{name}</code> {FIELD_OPERATORS[name].description}
            </li>
          ))}
        </ul>
      </details>
      {fields.length > 0 && (
        <div className="filter-fields" role="group" aria-label="Fields of the chosen events' data">
          <span className="muted">Fields:</span>
          {fields.slice(0, MAX_SUGGESTIONS).map((field, index) => {
            const kinds = field.kinds.map((kind) => KIND_WORDS[kind] ?? kind).join(' or ');
            return (
              <button
                key={field.path}
                type="button"
                className="chip"
                disabled={parsed.kind === 'invalid'}
                title={`Add a condition on ${field.path}${kinds ? ` (${kinds})` : ''}`}
                aria-label={`Add a condition on ${field.path}${kinds ? `, ${kinds}` : ''}`}
                onClick={() => addCondition(index)}
              >
                <code>{field.path}</code>
              </button>
            );
          })}
          {fields.length > MAX_SUGGESTIONS && (
            <span className="muted">and {fields.length - MAX_SUGGESTIONS} more in the event catalog</span>
          )}
        </div>
      )}
      <p className="filter-try" role="status" data-testid="filter-try">
        <TryLine tried={tried} filtered={filter !== null} named={tryType !== undefined} />
      </p>
    </div>
  );
}

function TryLine({ tried, filtered, named }: { tried: ReturnType<typeof useFilterTry>; filtered: boolean; named: boolean }) {
  if (!filtered) return null;
  if (!named) return <span className="muted">Choose an event type by its name to try the filter on its example.</span>;
  const example = (type: string) => (
    <>
      The example of{' '}
      <Link to={`/webhooks/event-types#event-${type}`}>
        <code>{type}</code>
      </Link>
    </>
  );
  switch (tried.state) {
    case 'idle':
      return null;
    case 'trying':
      return <span className="muted">Trying the filter on the example of {tried.type}…</span>;
    case 'done':
      return tried.matches ? (
        <span className="filter-matches">{example(tried.type)} matches: an event like it would be sent.</span>
      ) : (
        <span className="filter-misses">{example(tried.type)} does not match: an event like it would not be sent.</span>
      );
    case 'refused':
      return tried.problem.code === 'invalid_filter' ? null : (
        <span className="muted">The filter could not be tried: {tried.problem.message}</span>
      );
  }
}
