import { api, type NewApiKey } from '../../api';
import { CheckboxGroup, Field, FormActions, FormProblem, useForm } from '../../components/form';

/** Name, scopes and an optional expiry; the server's messages beside each. */
export function CreateKeyForm({ onCreated, onCancel }: { onCreated(key: NewApiKey): void; onCancel(): void }) {
  const form = useForm({ name: '', scopes: ['read'], expires_at: '' }, async ({ name, scopes, expires_at }) => {
    const { data } = await api.createKey({
      name: name.trim() || undefined,
      scopes: scopes as Array<'read' | 'write'>,
      // The picker's local time, sent as an instant.
      expires_at: expires_at ? new Date(expires_at).toISOString() : undefined,
    });
    onCreated(data);
  });
  return (
    <form className="card form" onSubmit={form.submit} noValidate aria-labelledby="create-key-heading">
      <h2 id="create-key-heading">Create a key</h2>
      <FormProblem problem={form.problem} />
      <Field label="Name" {...form.field('name')} hint="So you can tell your keys apart, such as the program that uses it." />
      <CheckboxGroup
        legend="Scopes"
        options={[
          { value: 'read', label: 'read: GET and HEAD requests' },
          { value: 'write', label: 'write: every other request' },
        ]}
        {...form.field('scopes')}
      />
      <Field
        label="Expires (optional)"
        type="datetime-local"
        {...form.field('expires_at')}
        hint="Leave empty for a key that does not expire."
      />
      <FormActions submit="Create key" busy={form.busy} onCancel={onCancel} />
    </form>
  );
}
