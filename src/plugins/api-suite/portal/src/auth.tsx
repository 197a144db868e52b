import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SignedIn } from './api';
import { setToken, whenUnauthorized } from './http';

/**
 * The signed-in user: the JWT users-permissions gave, kept in this browser's local storage until
 * sign-out (which forgets it) or the first 401 (which forgets it and shows the sign-in page).
 */
export interface Auth {
  user: SignedIn['user'] | null;
  signedIn(session: SignedIn): void;
  signOut(reason?: string): void;
  /** Why the last session ended, shown on the sign-in page once. */
  endedBecause: string | null;
}

const AuthContext = createContext<Auth | null>(null);
const STORAGE_KEY = 'api-suite-portal-session';

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SignedIn | null>(() => restore());
  const [endedBecause, setEndedBecause] = useState<string | null>(null);
  setToken(session?.jwt ?? null);

  const signOut = useCallback((reason?: string) => {
    localStorage.removeItem(STORAGE_KEY);
    setToken(null);
    setSession(null);
    setEndedBecause(reason ?? null);
  }, []);

  useEffect(() => whenUnauthorized(() => signOut('Your session has ended. Sign in again.')), [signOut]);

  const value = useMemo<Auth>(
    () => ({
      user: session?.user ?? null,
      endedBecause,
      signOut,
      signedIn(next) {
        localStorage.setItem(
          STORAGE_KEY,
          JSON.stringify({ jwt: next.jwt, user: { id: next.user.id, username: next.user.username, email: next.user.email } })
        );
        setToken(next.jwt);
        setEndedBecause(null);
        setSession(next);
      },
    }),
    [session, endedBecause, signOut]
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

function restore(): SignedIn | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored ? (JSON.parse(stored) as SignedIn) : null;
  } catch {
    return null;
  }
}
