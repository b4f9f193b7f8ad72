// Path templates of the route table (`/contacts/{id}`): their parameters, the `:id` form that sofa-api's router
// expects, the order in which templates that could match one path are tried, a matched path's values, and
// filling one for a link.

export function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

export function sofaPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/** A literal segment wins over a parameter at the same place (`/contacts/search` before `/contacts/{id}`). */
export function bySpecificity(a: string, b: string): number {
  const segmentsA = a.split('/');
  const segmentsB = b.split('/');
  for (let index = 0; index < Math.min(segmentsA.length, segmentsB.length); index++) {
    const literalA = !segmentsA[index]!.startsWith('{');
    const literalB = !segmentsB[index]!.startsWith('{');
    if (literalA !== literalB) return literalA ? -1 : 1;
  }
  return 0;
}

/** The segments of `path` by the parameter names of `template`, undecoded; null when the path does not match it. */
export function pathValues(template: string, path: string): Record<string, string> | null {
  const segments = path.split('/');
  const parts = template.split('/');
  if (segments.length !== parts.length) return null;
  const values: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const segment = segments[index]!;
    if (!/^\{\w+\}$/.test(part)) {
      if (segment !== part) return null;
    } else if (segment === '') return null;
    else values[part.slice(1, -1)] = segment;
  }
  return values;
}

/** The template with each parameter replaced by the segment at its place in `path`, a path it matched. */
export function fillFrom(template: string, matchedTemplate: string, path: string): string {
  const values = pathValues(matchedTemplate, path) ?? {};
  return template.replace(/\{(\w+)\}/g, (_parameter, name: string) => values[name] ?? '');
}
