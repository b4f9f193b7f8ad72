// The tags an audience by tags and fields names must be the workspace's: a 400 naming the unknown ones (a
// deleted tag would otherwise quietly shrink the audience to nobody).
import type { Db } from '../shared/context.js';
import { invalid } from '../shared/errors.js';

/** How many unknown tag ids an error names. */
const NAMED_UNKNOWN_TAGS = 5;

export async function assertSegmentTags(db: Db, workspaceId: string, tagIds: string[]): Promise<void> {
  if (tagIds.length === 0) return;
  const known = await db.tag.findMany({ where: { id: { in: tagIds }, company_id: workspaceId }, select: { id: true } });
  if (known.length === tagIds.length) return;
  const found = new Set(known.map((tag) => tag.id));
  const unknown = tagIds.filter((id) => !found.has(id));
  throw invalid({
    audience_tag_ids: `names ${unknown.length} tag(s) not in this workspace: ${unknown.slice(0, NAMED_UNKNOWN_TAGS).join(', ')}`,
  });
}
