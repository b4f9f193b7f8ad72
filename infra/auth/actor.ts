// Who is asking: the caller the HTTP pipeline authenticated (an API key of one workspace, or a person signed in
// to the console), or the actor a background job acts as. The pipeline sets it, the GraphQL context carries it,
// resolvers and scopes read it.
export type Actor = {
  workspaceId: string;
  userId: string | null;
  keyId: string;
  keyPrefix: string;
  scopes: ReadonlySet<string>;
  /** Set when a person signed in to the console asks (cookie session): the session, and the person's role. */
  session?: { id: string; role: string };
  /** Set when the AI agent acts (workers/agent): the run it acts for; its sends are the agent's messages. */
  agentRunId?: string;
};

/** Turns a bearer credential into its actor, or null when it is unknown or revoked. */
export type Authenticator = (credential: string) => Promise<Actor | null>;

/** Turns a session cookie's token into its actor and the CSRF token its writes must carry, or null when it has ended. */
export type SessionAuthenticator = (token: string) => Promise<{ actor: Actor; csrfToken: string } | null>;
