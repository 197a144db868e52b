import { useState } from 'react';
import { api } from '../../api';
import { useAuth } from '../../auth';
import { Notice } from '../../components/feedback';
import { Button, Field, FormProblem, useForm } from '../../components/form';
import { useAction } from '../../../../shared/hooks';

/**
 * The consumer's own account: a copy of everything the site holds about them, as one JSON file,
 * and closing the account, behind the password and a confirmation.
 */
export function Account() {
  const { user } = useAuth();
  const exported = useAction(() => api.exportAccount());
  const [closing, setClosing] = useState(false);
  return (
    <>
      <h1>Account</h1>
      <p className="lead">
        Signed in as <strong>{user?.username}</strong> ({user?.email}).
      </p>

      <section className="card" aria-labelledby="export-heading">
        <h2 id="export-heading">Your data</h2>
        <p>
          One JSON file with everything this site holds about you: your profile, your API keys (their prefixes, never the keys), your
          webhook endpoints (never their signing secrets), your scrapers, your requests by month, your orders and your billing.
        </p>
        <Button busy={exported.busy} onClick={() => void exported.run()}>
          Download my data
        </Button>
        {exported.problem && <Notice tone="error">{exported.problem.message}</Notice>}
      </section>

      <section className="card" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete your account</h2>
        <ul>
          <li>Your API keys stop working at once, everywhere.</li>
          <li>Your webhook endpoints and scrapers are deleted; nothing more is sent or fetched for you.</li>
          <li>A paid subscription is cancelled: you are not charged again.</li>
          <li>Records of your orders and requests are kept for accounting, without your name or address.</li>
        </ul>
        <p>This cannot be undone. Download your data first if you want to keep it.</p>
        {closing ? (
          <DeleteAccountForm onCancel={() => setClosing(false)} />
        ) : (
          <Button variant="danger" onClick={() => setClosing(true)}>
            Delete my account…
          </Button>
        )}
      </section>
    </>
  );
}

function DeleteAccountForm({ onCancel }: { onCancel(): void }) {
  const { signOut } = useAuth();
  const [understood, setUnderstood] = useState(false);
  const form = useForm(
    { password: '' },
    async ({ password }) => {
      await api.deleteAccount(password);
      signOut('Your account has been deleted. An e-mail confirms it.');
    },
    ({ password }) => ({
      ...(password === '' ? { password: 'Enter your password.' } : {}),
      ...(understood ? {} : { understood: 'Tick this to confirm.' }),
    })
  );
  // The server's "not your password" belongs beside the password.
  const passwordError = form.errors.password ?? (form.problem?.code === 'invalid_password' ? form.problem.message : undefined);
  return (
    <form className="form" onSubmit={form.submit} noValidate aria-label="Delete your account">
      <FormProblem problem={form.problem?.code === 'invalid_password' ? null : form.problem} />
      <Field label="Password" type="password" autoComplete="current-password" {...form.field('password')} error={passwordError} />
      <Field
        as="checkbox"
        label="I understand that my account and everything in it will be deleted, and that this cannot be undone."
        checked={understood}
        onChange={setUnderstood}
        error={form.errors.understood}
      />
      <div className="form-actions">
        <Button type="submit" variant="danger" busy={form.busy}>
          Delete my account
        </Button>
        <Button onClick={onCancel}>Keep it</Button>
      </div>
    </form>
  );
}
