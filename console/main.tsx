// The console: the service's own web app for people (inbox, contacts, settings), served at / by
// facades/console/pages.ts and bundled by scripts/build.mjs. It signs people in through /auth and then uses only
// the public GraphQL API and its subscriptions.
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { Provider } from '@urql/preact';
import { client } from './client.js';
import type { JSX } from 'preact';
import { canManage, loadSession, session, sessionDelay, setupRequired, signOut, type Permission } from './session.js';
import { InvitePage, SetupPage, SignInPage } from './pages/people/auth.js';
import { InboxPage } from './pages/conversations/inbox.js';
import { ContactsPage } from './pages/contacts/contacts.js';
import { ApiKeysPage } from './pages/workspace/apiKeys.js';
import { WebhooksPage } from './pages/webhooks/webhooks.js';
import { TeamPage } from './pages/people/team.js';
import { IntegrationsPage } from './pages/workspace/integrations.js';
import { AccountPage } from './pages/people/account.js';
import { AgentPage } from './pages/agent/agent.js';
import { ConsentPage } from './pages/oauth/consent.js';
import { ConnectedAppsPage } from './pages/oauth/connectedApps.js';
import { TemplatesPage } from './pages/templates/templates.js';
import { ReportsPage } from './pages/reports/reports.js';
import { KnowledgePage } from './pages/knowledge/knowledge.js';
import { AutomationsPage } from './pages/automations/automations.js';
import { SchedulingPage } from './pages/scheduling/scheduling.js';
import { ConsentSettingsPage } from './pages/contacts/consentSettings.js';
import { CampaignsPage } from './pages/campaigns/campaigns.js';
import { BusinessHoursPage } from './pages/workspace/businessHours.js';

function NavLink({ href, children }: { href: string; children: string }) {
  const { path } = useLocation();
  const current = path === href || (href !== '/' && path.startsWith(`${href}/`)) || (href === '/inbox' && path === '/');
  return (
    <a href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}

function Layout() {
  const current = session.value;
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">{current?.workspace.name ?? 'Messaging CRM'}</span>
        <nav aria-label="Main">
          <NavLink href="/inbox">Inbox</NavLink>
          <NavLink href="/contacts">Contacts</NavLink>
          <NavLink href="/templates">Templates</NavLink>
          <NavLink href="/knowledge">Knowledge</NavLink>
          {canManage(current, 'automations') ? <NavLink href="/automations">Automations</NavLink> : null}
          {canManage(current, 'scheduling') ? <NavLink href="/scheduling">Scheduling</NavLink> : null}
          {canManage(current, 'campaigns') ? <NavLink href="/campaigns">Campaigns</NavLink> : null}
          {canManage(current, 'analytics') ? <NavLink href="/reports">Reports</NavLink> : null}
          {canManage(current, 'keys') ? <NavLink href="/settings/api-keys">API keys</NavLink> : null}
          {canManage(current, 'webhooks') ? <NavLink href="/settings/webhooks">Webhooks</NavLink> : null}
          {canManage(current, 'team') ? <NavLink href="/settings/team">Team</NavLink> : null}
          {canManage(current, 'integrations') ? <NavLink href="/settings/integrations">Integrations</NavLink> : null}
          {canManage(current, 'agent') ? <NavLink href="/settings/agent">AI agent</NavLink> : null}
          {canManage(current, 'campaigns') ? <NavLink href="/settings/consent">Consent</NavLink> : null}
          {canManage(current, 'settings') ? <NavLink href="/settings/business-hours">Business hours</NavLink> : null}
          <NavLink href="/settings/connected-apps">Connected apps</NavLink>
          <NavLink href="/settings/account">Account</NavLink>
          <a href="/graphql" target="_blank" rel="noopener">
            GraphiQL
          </a>
        </nav>
        <button type="button" class="link" onClick={() => void signOut()}>
          Sign out {current?.user.name ?? current?.user.email}
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Router>
          <Route path="/" component={InboxPage} />
          <Route path="/inbox" component={InboxPage} />
          <Route path="/inbox/:id" component={InboxPage} />
          <Route path="/contacts" component={ContactsPage} />
          <Route path="/contacts/:id" component={ContactsPage} />
          <Route path="/templates" component={TemplatesPage} />
          <Route path="/knowledge" component={KnowledgePage} />
          <Route path="/automations" component={managedBy('automations', AutomationsPage)} />
          <Route path="/automations/:id" component={managedBy('automations', AutomationsPage)} />
          <Route path="/scheduling" component={managedBy('scheduling', SchedulingPage)} />
          <Route path="/campaigns" component={managedBy('campaigns', CampaignsPage)} />
          <Route path="/campaigns/:id" component={managedBy('campaigns', CampaignsPage)} />
          <Route path="/reports" component={managedBy('analytics', ReportsPage)} />
          <Route path="/settings/api-keys" component={managedBy('keys', ApiKeysPage)} />
          <Route path="/settings/webhooks" component={managedBy('webhooks', WebhooksPage)} />
          <Route path="/settings/webhooks/:id" component={managedBy('webhooks', WebhooksPage)} />
          <Route path="/settings/team" component={managedBy('team', TeamPage)} />
          <Route path="/settings/integrations" component={managedBy('integrations', IntegrationsPage)} />
          <Route path="/settings/agent" component={managedBy('agent', AgentPage)} />
          <Route path="/settings/consent" component={managedBy('campaigns', ConsentSettingsPage)} />
          <Route path="/settings/business-hours" component={managedBy('settings', BusinessHoursPage)} />
          <Route path="/settings/connected-apps" component={ConnectedAppsPage} />
          <Route path="/settings/account" component={AccountPage} />
          <Route default component={NotFound} />
        </Router>
      </main>
    </div>
  );
}

const MANAGED: Record<Permission, string> = {
  keys: 'API keys',
  webhooks: 'webhooks',
  team: 'the team',
  integrations: 'integrations',
  agent: 'the AI agent',
  analytics: 'reports',
  automations: 'automations',
  scheduling: 'scheduling',
  campaigns: 'campaigns and consent keywords',
  settings: 'business hours',
};

/** Settings pages for owners and admins: another role sees why the page is closed (the API refuses it too). */
function managedBy(permission: Permission, Page: () => JSX.Element) {
  return function Managed() {
    return canManage(session.value, permission) ? (
      <Page />
    ) : (
      <p role="alert">
        Only owners and admins manage {MANAGED[permission]}; your role is {session.value?.user.role ?? 'unknown'}.
      </p>
    );
  };
}

function NotFound() {
  return (
    <p>
      This page does not exist. <a href="/inbox">Go to the inbox</a>.
    </p>
  );
}

/** Without a session: the setup page, an invitation, or sign-in; the links' tokens are in the URL fragment. */
function SignedOut() {
  const { path } = useLocation();
  if (path === '/setup' || (setupRequired.value && path !== '/invite')) return <SetupPage />;
  if (path === '/invite') return <InvitePage />;
  return <SignInPage />;
}

/** Until the session is read: why it is late, when the service refused or could not be reached, and when it is asked again. */
function SessionLoading() {
  const delay = sessionDelay.value;
  if (!delay) return <p class="loading">Loading the console…</p>;
  return (
    <p class="error" role="alert">
      The console could not open your session: {delay.message}. It tries again by itself in {delay.retrySeconds} s.
    </p>
  );
}

function App() {
  const { path } = useLocation();
  useEffect(() => {
    void loadSession();
  }, []);
  if (session.value === undefined) return <SessionLoading />;
  return session.value === null ? (
    <SignedOut />
  ) : (
    <Provider value={client}>{path === '/oauth/consent' ? <ConsentPage /> : <Layout />}</Provider>
  );
}

render(
  <LocationProvider>
    <App />
  </LocationProvider>,
  document.getElementById('app')!,
);
