// A resolver that writes several rows together may be called on its own (ctx.prisma is the client) or inside a
// caller's transaction (the booking page creates a new contact and books its appointment in one): it then joins that
// transaction. Prisma 7 would nest it as a savepoint, which the embedded database's adapter does not implement; a
// transaction client is told apart by lacking $connect, which Prisma hides from it.
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { Db } from './context.js';

/** Runs `work` in a transaction: a new one, or the caller's when `prisma` is already a transaction client. */
export function inTransaction<Result>(prisma: PrismaClient, work: (tx: Db) => Promise<Result>): Promise<Result> {
  return '$connect' in prisma ? prisma.$transaction(work) : work(prisma as Db);
}
