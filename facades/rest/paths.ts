// Path templates of the route table (`/contacts/{id}`): matching a request path, filling a template for a
// successor link, and the `:id` form that sofa-api's router expects.

type Segment = { literal: string } | { parameter: string };

export type PathTemplate = { template: string; segments: Segment[] };

export function parsePathTemplate(template: string): PathTemplate {
  const segments = template
    .split('/')
    .slice(1)
    .map((part): Segment => {
      const parameter = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(part)?.[1];
      return parameter ? { parameter } : { literal: part };
    });
  return { template, segments };
}

export function pathParameters(path: PathTemplate): string[] {
  return path.segments.flatMap((segment) => ('parameter' in segment ? [segment.parameter] : []));
}

/** The still percent-encoded value of each parameter, or null when the path does not fit the template. */
export function matchPath(path: PathTemplate, pathname: string): Record<string, string> | null {
  const parts = pathname.split('/').slice(1);
  if (parts.length !== path.segments.length) return null;
  const values: Record<string, string> = {};
  for (const [index, segment] of path.segments.entries()) {
    const part = parts[index] ?? '';
    if ('literal' in segment) {
      if (part !== segment.literal) return null;
    } else {
      if (part === '') return null;
      values[segment.parameter] = part;
    }
  }
  return values;
}

/** Orders templates so that a literal segment wins over a parameter at the same place (`/contacts/search`
 * before `/contacts/{id}`). */
export function bySpecificity(a: PathTemplate, b: PathTemplate): number {
  for (let index = 0; index < Math.min(a.segments.length, b.segments.length); index++) {
    const literalA = 'literal' in a.segments[index]!;
    const literalB = 'literal' in b.segments[index]!;
    if (literalA !== literalB) return literalA ? -1 : 1;
  }
  return 0;
}

export function fillPath(path: PathTemplate, values: Record<string, string>): string {
  return path.segments
    .map((segment) => ('literal' in segment ? segment.literal : (values[segment.parameter] ?? '')))
    .map((part) => `/${part}`)
    .join('');
}

export function sofaPath(path: PathTemplate): string {
  return fillPath(path, Object.fromEntries(pathParameters(path).map((name) => [name, `:${name}`])));
}
