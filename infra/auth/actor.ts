// Who is asking: the caller the HTTP pipeline authenticated (an API key of one workspace), or the actor a
// background job acts as. The pipeline sets it, the GraphQL context carries it, resolvers and scopes read it.
export type Actor = {
  workspaceId: string;
  userId: string | null;
  keyId: string;
  keyPrefix: string;
  scopes: ReadonlySet<string>;
  /** Set when the AI agent acts (workers/agent): the run it acts for; its sends are the agent's messages. */
  agentRunId?: string;
};

/** Turns a bearer credential into its actor, or null when it is unknown or revoked. */
export type Authenticator = (credential: string) => Promise<Actor | null>;
