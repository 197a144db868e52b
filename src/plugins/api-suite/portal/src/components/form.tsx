import {
  useId,
  useState,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import type { ApiProblem } from '../http';

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

interface FieldProps {
  label: string;
  /** The server's message for this field, shown under it and announced. */
  error?: string;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** A labelled control with its hint and the server's message for it. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy, invalid: Boolean(error) })}
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
    </div>
  );
}

export function TextField({
  label,
  error,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: ReactNode }) {
  return (
    <Field label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => <input id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...input} />}
    </Field>
  );
}

export function SelectField({
  label,
  error,
  hint,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string; hint?: ReactNode }) {
  return (
    <Field label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...select}>
          {children}
        </select>
      )}
    </Field>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  ...area
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string; hint?: ReactNode }) {
  return (
    <Field label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => <textarea id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...area} />}
    </Field>
  );
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
        <TextField label={label} value={value} readOnly data-testid={testId} onFocus={(event) => event.currentTarget.select()} />
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
