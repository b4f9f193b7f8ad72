// The fixture a test file starts from: the harness (the real app on a test database) and one workspace with
// an all-scopes key, opened before the file's first test and closed after its last. It is returned at once
// and filled in by a beforeAll hook, so a file declares it at the top and reads it in tests and hooks:
//   const shop = useWorkspace({ name: 'Shop' });
//   it('…', async () => { await shop.harness.graphql(shop.key, '{ users { email } }') });
// Reading it before the hook has run (at the top of the file) throws, rather than handing out undefined.
import { afterAll, beforeAll } from 'vitest';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';
import { startHarness, type Harness, type HarnessOptions } from './harness.js';

export type WorkspaceFixture = {
  harness: Harness;
  workspace: CreatedWorkspace;
  /** The workspace's all-scopes API key. */
  key: string;
  prisma: PrismaClient;
};

export function useWorkspace(options: HarnessOptions & { name?: string } = {}): WorkspaceFixture {
  let opened: WorkspaceFixture | undefined;
  beforeAll(async () => {
    const harness = await startHarness(options);
    const workspace = await harness.workspace(options.name);
    opened = { harness, workspace, key: workspace.api_key, prisma: harness.db.prisma };
  });
  afterAll(() => opened?.harness.close());

  const read = <Field extends keyof WorkspaceFixture>(field: Field): WorkspaceFixture[Field] => {
    if (!opened) throw new Error(`useWorkspace(): ${field} is read before the file's beforeAll hooks have run`);
    return opened[field];
  };
  return {
    get harness() {
      return read('harness');
    },
    get workspace() {
      return read('workspace');
    },
    get key() {
      return read('key');
    },
    get prisma() {
      return read('prisma');
    },
  };
}
