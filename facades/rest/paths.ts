// Path templates of the route table (`/contacts/{id}`): their parameters, the `:id` form that sofa-api's router
// expects, the order in which templates that could match one path are tried, and filling one for a link.

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

/** The template with each parameter replaced by the segment at its place in `path`, a path it matched. */
export function fillFrom(template: string, matchedTemplate: string, path: string): string {
  const segments = path.split('/');
  const values = new Map(matchedTemplate.split('/').map((segment, index) => [segment, segments[index] ?? '']));
  return template.replace(/\{\w+\}/g, (parameter) => values.get(parameter) ?? '');
}
