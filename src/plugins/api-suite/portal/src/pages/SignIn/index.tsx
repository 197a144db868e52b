import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { api } from '../../api';
import { useAuth } from '../../auth';
import { Notice } from '../../components/feedback';
import { Button, FormProblem, TextField } from '../../components/form';
import { useAction } from '../../../../shared/hooks';
import type { PortalSettings } from '../../settings';

/** Sign in, or sign up where the site takes sign-ups, with users-permissions' own routes. */
export function SignIn({ settings, mode }: { settings: PortalSettings; mode: 'sign-in' | 'sign-up' }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? '/';
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction(async () => {
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

  const fields = action.problem?.fields ?? {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run();
  };
  return (
    <Frame title={settings.title} heading={mode === 'sign-in' ? 'Sign in' : 'Create an account'}>
      {auth.endedBecause && mode === 'sign-in' && <Notice tone="warning">{auth.endedBecause}</Notice>}
      <form onSubmit={submit} noValidate>
        <FormProblem problem={action.problem && Object.keys(fields).length === 0 ? action.problem : null} />
        {mode === 'sign-up' && (
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            error={fields.username}
            required
          />
        )}
        <TextField
          label={mode === 'sign-in' ? 'Email or username' : 'Email'}
          name="email"
          type={mode === 'sign-in' ? 'text' : 'email'}
          autoComplete={mode === 'sign-in' ? 'username' : 'email'}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={fields.email ?? fields.identifier}
          required
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={fields.password}
          hint={mode === 'sign-up' ? 'At least 6 characters.' : undefined}
          required
        />
        <Button type="submit" variant="primary" busy={action.busy}>
          {mode === 'sign-in' ? 'Sign in' : 'Create account'}
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
