/** What a key or token may do. */
export type Scope = 'read' | 'write';

/** Who is calling, once the access middleware has let a request through. */
export interface Principal {
  kind: 'key' | 'oauth' | 'user' | 'shared';
  userId: number | null;
  consumerId: string | null;
  isAdmin: boolean;
  scopes: Scope[];
  keyId: number | null;
}

/** What the access middleware leaves in `ctx.state.apiSuite` for the handlers after it. */
export interface AccessState {
  /** null on the open routes (token endpoint, plans), which need no credential. */
  principal: Principal | null;
}
