import {
  useCallback,
  useId,
  useState,
  type ButtonHTMLAttributes,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import type { ApiProblem } from '../http';
import { useAction } from '../../../shared/hooks';

type Variant = 'primary' | 'secondary' | 'danger' | 'link';

export function Button({
  variant = 'secondary',
  busy = false,
  children,
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button type="button" {...rest} className={`button button-${variant}`} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

/** A form's submit button and its Cancel. */
export function FormActions({ submit, busy, onCancel }: { submit: ReactNode; busy: boolean; onCancel(): void }) {
  return (
    <div className="form-actions">
      <Button type="submit" variant="primary" busy={busy}>
        {submit}
      </Button>
      <Button onClick={onCancel}>Cancel</Button>
    </div>
  );
}

type Control =
  | (Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
      as?: 'input';
      value: string | number;
      onChange?(value: string): void;
    })
  | (Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & {
      as: 'select';
      value: string | number;
      onChange(value: string): void;
    })
  | (Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> & {
      as: 'textarea';
      value: string;
      onChange(value: string): void;
    })
  | (Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'checked' | 'onChange'> & {
      as: 'checkbox';
      checked: boolean;
      onChange(checked: boolean): void;
    });

export type FieldProps = Control & {
  label: string;
  hint?: ReactNode;
  /** The server's message for this field, shown under it and announced. */
  error?: string;
};

/**
 * A labelled control (an input of any type, a select, a textarea or a checkbox) with its hint and
 * the server's message for it; `onChange` gets the new value, not the event.
 */
export function Field(props: FieldProps) {
  const id = useId();
  const { label, hint, error } = props;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const aria = { 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined, 'aria-invalid': error ? true : undefined };
  const notes = (
    <>
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </>
  );
  if (props.as === 'checkbox') {
    // The label wraps the box, so it needs no id.
    const { as, label, hint, error, onChange, ...input } = props;
    return (
      <>
        <label className="checkbox">
          <input type="checkbox" {...(hint || error ? aria : {})} {...input} onChange={(event) => onChange(event.target.checked)} />{' '}
          <span>{label}</span>
        </label>
        {notes}
      </>
    );
  }
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {control(props, { id, ...aria })}
      {notes}
    </div>
  );
}

function control(
  props: Exclude<FieldProps, { as: 'checkbox' }>,
  ids: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }
) {
  if (props.as === 'select') {
    const { as, label, hint, error, onChange, ...select } = props;
    return <select {...ids} {...select} onChange={(event) => onChange(event.target.value)} />;
  }
  if (props.as === 'textarea') {
    const { as, label, hint, error, onChange, ...area } = props;
    return <textarea {...ids} {...area} onChange={(event) => onChange(event.target.value)} />;
  }
  const { as, label, hint, error, onChange, ...input } = props;
  return <input {...ids} {...input} onChange={onChange && ((event) => onChange(event.target.value))} />;
}

export interface Form<V> {
  values: V;
  set<K extends keyof V>(name: K, value: V[K]): void;
  /** A field's binding: its name, value, setter and message (the value's key is the input's name). */
  field<K extends keyof V & string>(name: K): { name: K; value: V[K]; onChange(value: V[K]): void; error?: string };
  /** The server's messages by field (dotted path as sent), with the form's own checks over them. */
  errors: Record<string, string>;
  /** The form's onSubmit: the form's own checks, then `save` unless they found something. */
  submit(event: FormEvent): void;
  busy: boolean;
  problem: ApiProblem | null;
}

/**
 * A form's values by input name and its one call (the shared `useAction`): `check` finds what the
 * browser can tell before asking the server (messages by field; none: send).
 */
export function useForm<V extends Record<string, unknown>>(
  initial: V | (() => V),
  save: (values: V) => Promise<unknown>,
  check?: (values: V) => Record<string, string>
): Form<V> {
  const [values, setValues] = useState(initial);
  const [local, setLocal] = useState<Record<string, string>>({});
  const action = useAction(() => save(values));
  const set = useCallback(<K extends keyof V>(name: K, value: V[K]) => setValues((previous) => ({ ...previous, [name]: value })), []);
  const errors = { ...(action.problem?.fields ?? {}), ...local };
  return {
    values,
    set,
    field: (name) => ({ name, value: values[name], onChange: (value) => set(name, value), error: errors[name] }),
    errors,
    submit: (event) => {
      event.preventDefault();
      const found = check?.(values) ?? {};
      setLocal(found);
      if (Object.keys(found).length === 0) void action.run();
    },
    busy: action.busy,
    problem: action.problem,
  };
}

/** Checkboxes in a fieldset, for scopes and event types. */
export function CheckboxGroup({
  legend,
  options,
  value,
  onChange,
  error,
}: {
  legend: string;
  options: Array<{ value: string; label: ReactNode }>;
  value: string[];
  onChange(next: string[]): void;
  error?: string;
}) {
  const id = useId();
  return (
    <fieldset className={`field checkbox-group${error ? ' field-invalid' : ''}`} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="checkbox-options">
        {options.map((option) => (
          <label key={option.value} className="checkbox">
            <input
              type="checkbox"
              checked={value.includes(option.value)}
              onChange={(event) =>
                onChange(event.target.checked ? [...value, option.value] : value.filter((item) => item !== option.value))
              }
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The form-level message: what the server said, less what is already shown beside a field. */
export function FormProblem({ problem }: { problem: ApiProblem | null }) {
  if (!problem) return null;
  const fieldCount = Object.keys(problem.fields).length;
  return (
    <div className="notice notice-error" role="alert">
      {fieldCount > 0 ? 'Please correct the fields marked below.' : problem.message}
    </div>
  );
}

/** A secret shown once: read-only, selected on focus, with a copy button that says when it worked. */
export function SecretOnce({ label, value, testId, note }: { label: string; value: string; testId: string; note: ReactNode }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied('yes'),
      () => setCopied('no')
    );
  return (
    <div className="secret-once" role="group" aria-label={label}>
      <p className="secret-note">{note}</p>
      <div className="secret-row">
        <Field label={label} value={value} readOnly data-testid={testId} onFocus={(event) => event.currentTarget.select()} />
        <Button variant="primary" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
      <p className="secret-status" role="status">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'Could not copy: select the text and copy it yourself.' : ''}
      </p>
    </div>
  );
}
