import { Button, Field, Grid, Modal, TextInput, Toggle } from '@strapi/design-system';
import { createContext, useContext, type ComponentProps, type CSSProperties, type ReactNode } from 'react';
import { fieldError, type ApiProblem } from '../../../shared/http';
import { useT } from '../utils/useT';
import { ProblemAlert } from './ProblemAlert';

/** The open dialog's problem, so each FormField finds the server's message for its own name. */
const FormProblem = createContext<ApiProblem | null | undefined>(undefined);

/** A problem no field names (only the form as a whole, or nothing): it is shown above the form, not under a field. */
export function isGeneralProblem(problem: ApiProblem | null | undefined): problem is ApiProblem {
  return Boolean(problem) && Object.keys(problem?.fields ?? {}).every((field) => field === '');
}

/**
 * The plugin's dialog: a title, the server's general problem above the form, and a footer with
 * Cancel (or `cancelLabel`) and the submit button (busy while its action runs). `footer`
 * replaces that footer for a dialog with other buttons.
 */
export function FormModal({
  title,
  onClose,
  problem,
  submit,
  cancelLabel,
  footer,
  contentStyle,
  children,
}: {
  title: ReactNode;
  onClose: () => void;
  /** The action's problem; shown above the form when no field carries it. */
  problem?: ApiProblem | null;
  /** The submit button: its label, and any of the button's own props (onClick, loading, disabled…). */
  submit?: { label: ReactNode } & Omit<ComponentProps<typeof Button>, 'children'>;
  cancelLabel?: ReactNode;
  footer?: ReactNode;
  contentStyle?: CSSProperties;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <Modal.Root open onOpenChange={(open) => !open && onClose()}>
      <Modal.Content style={contentStyle}>
        <Modal.Header>
          <Modal.Title>{title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {isGeneralProblem(problem) && <ProblemAlert problem={problem} />}
          <FormProblem.Provider value={problem}>{children}</FormProblem.Provider>
        </Modal.Body>
        <Modal.Footer>
          {footer ?? (
            <>
              <Modal.Close>
                <Button variant="tertiary">{cancelLabel ?? t('action.cancel')}</Button>
              </Modal.Close>
              {submit && <SubmitButton {...submit} />}
            </>
          )}
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
}

function SubmitButton({ label, ...props }: { label: ReactNode } & Omit<ComponentProps<typeof Button>, 'children'>) {
  return <Button {...props}>{label}</Button>;
}

/**
 * One form field: its label, the input, the hint and the server's message under it (each shown
 * only when there is one). The message is the dialog's problem for `name` (and the paths under
 * it) unless `error` says otherwise (null: none). With `col` it takes its place in the form's grid,
 * the whole row on a small screen unless `s` says otherwise.
 */
export function FormField({
  name,
  label,
  error,
  hint,
  required,
  col,
  s = 12,
  children,
}: {
  name: string;
  label: ReactNode;
  error?: string | null;
  hint?: string;
  required?: boolean;
  col?: number;
  s?: number;
  children: ReactNode;
}) {
  const problem = useContext(FormProblem);
  const field = (
    <Field.Root name={name} error={error === undefined ? fieldError(problem, name) : (error ?? undefined)} hint={hint} required={required}>
      <Field.Label>{label}</Field.Label>
      {children}
      <Field.Hint />
      <Field.Error />
    </Field.Root>
  );
  if (col === undefined) return field;
  return (
    <Grid.Item col={col} s={s} direction="column" alignItems="stretch">
      {field}
    </Grid.Item>
  );
}

/** An on/off switch labelled the plugin's way. */
export function OnOffToggle({
  checked,
  onCheckedChange,
  disabled,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const t = useT();
  return (
    <Toggle
      disabled={disabled}
      onLabel={t('toggle.on')}
      offLabel={t('toggle.off')}
      checked={checked}
      onChange={(event) => onCheckedChange(event.currentTarget.checked)}
    />
  );
}

/** A text input that hands over its value rather than the change event. */
export function TextValueInput({
  onValueChange,
  ...props
}: { onValueChange: (value: string) => void } & Omit<ComponentProps<typeof TextInput>, 'onChange'>) {
  return <TextInput {...props} onChange={(event: React.ChangeEvent<HTMLInputElement>) => onValueChange(event.currentTarget.value)} />;
}
