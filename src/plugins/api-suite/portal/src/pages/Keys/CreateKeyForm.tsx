import { useState, type FormEvent } from 'react';
import { api, type NewApiKey } from '../../api';
import { Button, CheckboxGroup, FormProblem, TextField } from '../../components/form';
import { useAction } from '../../../../shared/hooks';

/** Name, scopes and an optional expiry; the server's messages beside each. */
export function CreateKeyForm({ onCreated, onCancel }: { onCreated(key: NewApiKey): void; onCancel(): void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['read']);
  const [expires, setExpires] = useState('');
  const create = useAction(async () => {
    const { data } = await api.createKey({
      name: name.trim() || undefined,
      scopes: scopes as Array<'read' | 'write'>,
      // The picker's local time, sent as an instant.
      expires_at: expires ? new Date(expires).toISOString() : undefined,
    });
    onCreated(data);
  });
  const fields = create.problem?.fields ?? {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby="create-key-heading">
      <h2 id="create-key-heading">Create a key</h2>
      <FormProblem problem={create.problem} />
      <TextField
        label="Name"
        name="name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={fields.name}
        hint="So you can tell your keys apart, such as the program that uses it."
      />
      <CheckboxGroup
        legend="Scopes"
        options={[
          { value: 'read', label: 'read: GET and HEAD requests' },
          { value: 'write', label: 'write: every other request' },
        ]}
        value={scopes}
        onChange={setScopes}
        error={fields.scopes}
      />
      <TextField
        label="Expires (optional)"
        name="expires_at"
        type="datetime-local"
        value={expires}
        onChange={(event) => setExpires(event.target.value)}
        error={fields.expires_at}
        hint="Leave empty for a key that does not expire."
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={create.busy}>
          Create key
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
