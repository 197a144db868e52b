import { Combobox, ComboboxOption, Field } from '@strapi/design-system';
import { useEffect, useState } from 'react';
import { useApiSuiteClient, type Consumer } from '../api';
import { useT } from '../utils/useT';

/**
 * Choose a users-permissions user (a consumer of the API), searched on the server by username
 * or e-mail as the editor types.
 */
export function UserPicker({
  label,
  hint,
  value,
  onChange,
  error,
  name,
}: {
  label: string;
  hint?: string;
  value: number | null;
  onChange: (id: number | null) => void;
  error?: string;
  name: string;
}) {
  const t = useT();
  const client = useApiSuiteClient();
  const [search, setSearch] = useState('');
  const [users, setUsers] = useState<Consumer[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    const timer = setTimeout(() => {
      client.consumers(search).then(
        (page) => {
          if (cancelled) return;
          setUsers(page.data);
          setFailed(null);
          setLoading(false);
        },
        (reason: unknown) => {
          if (cancelled) return;
          setFailed(reason instanceof Error ? reason.message : t('error.generic'));
          setLoading(false);
        }
      );
    }, 250);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [client, search, t]);

  return (
    <Field.Root name={name} error={error ?? failed ?? undefined} hint={hint} required>
      <Field.Label>{label}</Field.Label>
      <Combobox
        value={value === null ? undefined : String(value)}
        onChange={(next) => onChange(next ? Number(next) : null)}
        onInputChange={(event) => setSearch(event.currentTarget.value)}
        onClear={() => onChange(null)}
        loading={loading}
        loadingMessage={t('users.loading')}
        noOptionsMessage={() => t('users.none')}
        placeholder={t('users.placeholder')}
        // The server filters (by username or e-mail); the combobox shows what it answered.
        autocomplete="none"
      >
        {users.map((user) => (
          <ComboboxOption key={user.id} value={String(user.id)} textValue={`${user.username} <${user.email}>`}>
            {`${user.username} <${user.email}>`}
          </ComboboxOption>
        ))}
      </Combobox>
      <Field.Hint />
      <Field.Error />
    </Field.Root>
  );
}
