// docs/architecture.md stays true: every layer's folders are named from its one list of areas (or are one of the
// cross-cutting folders it names), and every file of its "Where is…" table exists and exports the symbols its row
// names. A moved file, a renamed export or a folder outside the list fails here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../infra/paths.js';

const architecture = readFileSync(projectPath('docs/architecture.md'), 'utf8');

function section(heading: string): string {
  const start = architecture.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no section "${heading}"`);
  const end = architecture.indexOf('\n## ', start + 1);
  return architecture.slice(start, end < 0 ? undefined : end);
}

function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('|---'))
    .slice(1)
    .map((line) => line.split(' | ').map((cell) => cell.replace(/^\|\s*|\s*\|$/g, '').trim()));
}

const AREAS = tableRows(section('Areas')).map(([name]) => name!.replace(/`/g, ''));

function folders(path: string): string[] {
  return readdirSync(projectPath(path)).filter((name) => statSync(projectPath(path, name)).isDirectory());
}

const LAYERS: { path: string; names: () => string[]; crossCutting: readonly string[] }[] = [
  { path: 'schema', names: () => folders('schema'), crossCutting: ['shared'] },
  { path: 'resolvers', names: () => folders('resolvers'), crossCutting: ['shared'] },
  { path: 'test', names: () => folders('test'), crossCutting: ['facades', 'platform', 'console', 'support'] },
  { path: 'console/pages', names: () => folders('console/pages'), crossCutting: ['shared'] },
  { path: 'workers', names: () => folders('workers'), crossCutting: [] },
  {
    path: 'facades/operations',
    names: () => [...new Set(readdirSync(projectPath('facades/operations')).map((file) => basename(file, extname(file))))],
    crossCutting: ['index'],
  },
];

describe('areas (docs/architecture.md, "Areas")', () => {
  it('lists the areas once each', () => {
    expect(AREAS.length).toBeGreaterThan(10);
    expect(new Set(AREAS).size).toBe(AREAS.length);
  });

  it.each(LAYERS)('$path is divided by the listed areas only', ({ names, crossCutting }) => {
    const outside = names().filter((name) => !AREAS.includes(name) && !crossCutting.includes(name));
    expect(outside).toEqual([]);
  });

  it('puts every schema and resolver file inside an area or a shared folder', () => {
    const loose = (layer: string, allowed: readonly string[]) =>
      readdirSync(projectPath(layer)).filter((name) => name.endsWith('.ts') && !allowed.includes(name));
    expect(loose('schema', ['builder.ts', 'index.ts'])).toEqual([]);
    expect(loose('resolvers', [])).toEqual([]);
  });
});

/** `folder/file.ext`: `Symbol`, `Symbol` (or `folder/`): a path in the project and the symbols it exports. */
const NAMED_FILE = /`([\w.-]+(?:\/[\w.-]+)+(?:\.[a-z]+|\/))`((?::\s*`\w+`(?:,\s*`\w+`)*)?)/g;

const references = tableRows(section('Where is…')).flatMap(([question, where]) =>
  [...where!.matchAll(NAMED_FILE)].map((match) => ({
    question: question!,
    path: match[1]!,
    symbols: [...(match[2] ?? '').matchAll(/`(\w+)`/g)].map((symbol) => symbol[1]!),
  })),
);

function exportsSymbol(source: string, symbol: string): boolean {
  const declared = new RegExp(`export\\s+(?:async\\s+)?(?:function|const|let|class|type|interface|enum)\\s+${symbol}\\b`);
  const listed = new RegExp(`export\\s*(?:type\\s*)?\\{[^}]*\\b${symbol}\\b[^}]*\\}`);
  return declared.test(source) || listed.test(source);
}

describe('where is… (docs/architecture.md)', () => {
  it('names files in most rows', () => {
    expect(references.length).toBeGreaterThan(40);
  });

  it.each(references.filter((reference) => !reference.path.includes('<')))(
    '$question: $path exists and exports $symbols',
    ({ path, symbols }) => {
      expect(existsSync(projectPath(path)), `${path} exists`).toBe(true);
      if (symbols.length === 0) return;
      const source = readFileSync(projectPath(path), 'utf8');
      expect(symbols.filter((symbol) => !exportsSymbol(source, symbol))).toEqual([]);
    },
  );
});
