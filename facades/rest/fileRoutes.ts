// The file routes of the facade table (RestRoute.file): each answers a file rather than its operation's JSON, so
// sofa's router (adapter.ts), which answers JSON, does not take them; this one finds them by path, answers a
// method the route lacks with the one 405, and hands the path's values to its kind's answerer.
import { methodNotAllowed } from '../../infra/http/errorResponse.js';
import type { FileKind } from '../core/table.js';
import type { FileAnswer } from './fileAnswer.js';
import { MEDIA_FILE } from './mediaRoute.js';
import { CSV_EXPORT_FILE } from './csvExportRoute.js';
import { REST_BASE_PATH, type BoundRoute } from './routes.js';

export const FILE_ANSWERS: Record<FileKind, FileAnswer> = { media: MEDIA_FILE, csv: CSV_EXPORT_FILE };

/** A path template as a pattern: each `{name}` one segment, the rest literal. */
function patternOf(path: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = path
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '([^/]+)' : literal(part)))
    .join('');
  return new RegExp(`^${literal(REST_BASE_PATH)}${source}$`);
}

export function createFileRouter(routes: readonly BoundRoute[], services: Parameters<FileAnswer['answerer']>[0]) {
  const files = routes.flatMap((bound) => {
    const kind = bound.route.file;
    if (!kind) return [];
    const file = FILE_ANSWERS[kind];
    return [{ pattern: patternOf(bound.route.path), names: bound.pathParameters, allow: file.allow, answer: file.answerer(services) }];
  });
  return {
    /** The answer of the file route the path names, or null when it names none. */
    async handle(request: Request, url: URL, requestId: string): Promise<Response | null> {
      for (const file of files) {
        const match = file.pattern.exec(url.pathname);
        if (!match) continue;
        if (!file.allow.includes(request.method)) return methodNotAllowed(request, url.pathname, requestId, file.allow.join(', '));
        return file.answer(request, Object.fromEntries(file.names.map((name, index) => [name, match[index + 1]!])), requestId);
      }
      return null;
    },
  };
}
