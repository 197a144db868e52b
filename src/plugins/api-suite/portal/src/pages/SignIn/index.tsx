import type { ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { api } from '../../api';
import { useAuth } from '../../auth';
import { Notice } from '../../components/feedback';
import { Button, Field, FormProblem, useForm } from '../../components/form';
import type { PortalSettings } from '../../settings';

/** Sign in, or sign up where the site takes sign-ups, with users-permissions' own routes. */
export function SignIn({ settings, mode }: { settings: PortalSettings; mode: 'sign-in' | 'sign-up' }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? '/';
  const form = useForm({ username: '', email: '', password: '' }, async ({ username, email, password }) => {
    const session = mode === 'sign-in' ? await api.signIn(email, password) : await api.signUp(username, email, password);
    auth.signedIn(session);
    navigate(from, { replace: true });
  });

  if (auth.user) return <Navigate to={from} replace />;
  if (mode === 'sign-up' && !settings.allowRegister) {
    return (
      <Frame title={settings.title} heading="Create an account">
        <Notice>This site does not take sign-ups. Ask the site's owner for an account.</Notice>
        <p>
          <Link to="/sign-in">Sign in</Link>
        </p>
      </Frame>
    );
  }

  const signIn = mode === 'sign-in';
  return (
    <Frame title={settings.title} heading={mode === 'sign-in' ? 'Sign in' : 'Create an account'}>
      {auth.endedBecause && mode === 'sign-in' && <Notice tone="warning">{auth.endedBecause}</Notice>}
      <form onSubmit={form.submit} noValidate>
        <FormProblem problem={Object.keys(form.errors).length === 0 ? form.problem : null} />
        {!signIn && <Field label="Username" autoComplete="username" {...form.field('username')} required />}
        <Field
          label={signIn ? 'Email or username' : 'Email'}
          type={signIn ? 'text' : 'email'}
          autoComplete={signIn ? 'username' : 'email'}
          {...form.field('email')}
          error={form.errors.email ?? form.errors.identifier}
          required
        />
        <Field
          label="Password"
          type="password"
          autoComplete={signIn ? 'current-password' : 'new-password'}
          {...form.field('password')}
          hint={signIn ? undefined : 'At least 6 characters.'}
          required
        />
        <Button type="submit" variant="primary" busy={form.busy}>
          {signIn ? 'Sign in' : 'Create account'}
        </Button>
      </form>
      {mode === 'sign-in' && settings.allowRegister && (
        <p className="switch">
          No account yet? <Link to="/sign-up">Create one</Link>
        </p>
      )}
      {mode === 'sign-up' && (
        <p className="switch">
          Have an account? <Link to="/sign-in">Sign in</Link>
        </p>
      )}
    </Frame>
  );
}

function Frame({ title, heading, children }: { title: string; heading: string; children: ReactNode }) {
  return (
    <main className="auth-page" id="main">
      <div className="auth-card">
        <p className="brand">{title}</p>
        <h1>{heading}</h1>
        {children}
      </div>
    </main>
  );
}
