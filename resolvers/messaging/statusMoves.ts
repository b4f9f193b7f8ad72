// Every message sent is followed by several status moves: the send's own outcome, then the provider's delivery reports
// (sent, delivered, read), from every conversation at once. The moves that arrive in the same turn of the event loop
// are applied together, one statement per workspace (moveMessages), instead of one statement per move: each statement
// costs the service and the database a round trip and a query of its own. DataLoader does the collecting (its batch
// function and scheduling, caching off). Moves made inside a transaction do not come here (advanceMessageStatus).
import DataLoader from 'dataloader';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { MessageView } from '../shared/views.js';
import { moveMessages } from './messageStatus.js';
import type { StatusMove, StatusMoves } from '../shared/statusMoves.js';

type WorkspaceMove = { workspaceId: string; move: StatusMove };

/** At most this many moves in one statement. */
const MAX_MOVES = 500;

export function createStatusMoves(prisma: PrismaClient): StatusMoves {
  async function moveEach(workspaceId: string, moves: StatusMove[]): Promise<(MessageView | null | Error)[]> {
    try {
      return await moveMessages(prisma, workspaceId, moves);
    } catch (error) {
      // One move can fail the statement of all (a provider id that another message of the workspace already has):
      // then each is applied on its own, and only the failing one fails.
      if (moves.length === 1) return [error instanceof Error ? error : new Error(String(error))];
      return (await Promise.all(moves.map((move) => moveEach(workspaceId, [move])))).flat();
    }
  }

  async function moveTogether(requests: readonly WorkspaceMove[]): Promise<(MessageView | null | Error)[]> {
    const byWorkspace = new Map<string, number[]>();
    requests.forEach(({ workspaceId }, index) => {
      const indexes = byWorkspace.get(workspaceId) ?? [];
      indexes.push(index);
      byWorkspace.set(workspaceId, indexes);
    });
    const results: (MessageView | null | Error)[] = [];
    await Promise.all(
      [...byWorkspace].map(async ([workspaceId, indexes]) => {
        const moved = await moveEach(
          workspaceId,
          indexes.map((index) => requests[index]!.move),
        );
        indexes.forEach((index, position) => (results[index] = moved[position]!));
      }),
    );
    return results;
  }

  const loader = new DataLoader<WorkspaceMove, MessageView | null>(moveTogether, {
    cache: false,
    maxBatchSize: MAX_MOVES,
    // After the timers and I/O of this turn: reports that fell due together, and webhook deliveries read together.
    batchScheduleFn: (run) => setImmediate(run),
  });
  return { move: (workspaceId, move) => loader.load({ workspaceId, move }) };
}
