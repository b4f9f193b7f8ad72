// Creating a workspace: the workspace, its owner, a sandbox messaging integration and (for the CLI) an
// all-scopes API key, in one transaction so that a failure leaves nothing half-made.
import { z } from 'zod';
import { randomInt } from 'node:crypto';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { SecretBox } from '../../infra/crypto/secrets.js';
import { randomToken } from '../../infra/crypto/tokens.js';
import { ALL_KEY_SCOPES } from './scopes.js';
import { createApiKey } from './apiKeys.js';
import { parseInput } from '../shared/validation.js';
import type { Db } from '../shared/context.js';

const input = z.object({
  name: z.string().trim().min(1, { message: 'is required' }).max(200),
  email: z.string().trim().toLowerCase().email({ message: 'must be an email address' }),
  userName: z.string().trim().min(1).max(200).nullish(),
});

export type CreatedWorkspace = {
  workspace_id: string;
  user_id: string;
  integration_id: string;
  phone_number_id: string;
  app_secret: string;
  verify_token: string;
  api_key: string;
};

type WorkspaceInput = { name: string; email: string; userName?: string | null; passwordHash?: string | null };

/** The integration credentials kept sealed at rest. */
export type IntegrationCredentials = { access_token: string; app_secret: string; verify_token: string };

export function createWorkspace(services: { prisma: PrismaClient; secrets: SecretBox }, raw: WorkspaceInput): Promise<CreatedWorkspace> {
  return services.prisma.$transaction((tx) => createWorkspaceIn(tx, services.secrets, raw, { withKey: true }));
}

/** The workspace, its owner and its sandbox integration inside the caller's transaction; a key only when asked. */
export async function createWorkspaceIn(
  tx: Db,
  secrets: SecretBox,
  raw: WorkspaceInput,
  options: { withKey: true },
): Promise<CreatedWorkspace>;
export async function createWorkspaceIn(
  tx: Db,
  secrets: SecretBox,
  raw: WorkspaceInput,
  options: { withKey: false },
): Promise<Omit<CreatedWorkspace, 'api_key'>>;
export async function createWorkspaceIn(
  tx: Db,
  secrets: SecretBox,
  raw: WorkspaceInput,
  options: { withKey: boolean },
): Promise<Omit<CreatedWorkspace, 'api_key'> & { api_key?: string }> {
  const { name, email, userName } = parseInput(input, raw);
  const credentials: IntegrationCredentials = {
    access_token: `sandbox_${randomToken(18)}`,
    app_secret: randomToken(24),
    verify_token: randomToken(18),
  };
  const phoneNumberId = `${Date.now()}${randomInt(100_000, 999_999)}`;
  const workspace = await tx.workspace.create({ data: { name } });
  const user = await tx.user.create({
    data: {
      company_id: workspace.id,
      email,
      name: userName ?? null,
      role: 'owner',
      password_hash: raw.passwordHash ?? null,
      password_changed_at: raw.passwordHash ? new Date() : null,
    },
  });
  const integration = await tx.integration.create({
    data: {
      company_id: workspace.id,
      provider: 'sandbox',
      phone_number_id: phoneNumberId,
      business_account_id: `waba_${phoneNumberId}`,
      display_phone_number: '+15550100000',
      credentials: secrets.seal(JSON.stringify(credentials)),
    },
  });
  const key = options.withKey
    ? await createApiKey(tx, { workspaceId: workspace.id, userId: user.id, name: 'Owner key', scopes: ALL_KEY_SCOPES })
    : null;
  return {
    workspace_id: workspace.id,
    user_id: user.id,
    integration_id: integration.id,
    phone_number_id: integration.phone_number_id,
    app_secret: credentials.app_secret,
    verify_token: credentials.verify_token,
    ...(key ? { api_key: key.api_key } : {}),
  };
}
