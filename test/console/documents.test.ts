// The console's GraphQL documents (the gql`…` templates of console/**/*.ts(x)) are its contract with the schema,
// as facades/operations/*.graphql are the facades': each one, with the string constants it splices in, must
// validate against the schema and be used by its file, so a renamed or removed field fails here rather than
// as a blank console page. The documents are read from the sources with the TypeScript parser, not imported.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { parse, validate } from 'graphql';
import { schema } from '../../schema/index.js';
import { projectPath } from '../../infra/paths.js';

type ConsoleDocument = { file: string; name: string; text: string; uses: number };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The value of a string constant of the file (a literal or a template without substitutions). */
function constantText(source: ts.SourceFile, name: string): string {
  let text: string | undefined;
  source.forEachChild(function visit(node) {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer) {
      if (ts.isStringLiteral(node.initializer) || ts.isNoSubstitutionTemplateLiteral(node.initializer)) text = node.initializer.text;
    }
    node.forEachChild(visit);
  });
  if (text === undefined) throw new Error(`${source.fileName}: ${name} is spliced into a document but is no string constant`);
  return text;
}

function documentText(source: ts.SourceFile, template: ts.TemplateLiteral): string {
  if (ts.isNoSubstitutionTemplateLiteral(template)) return template.text;
  return template.templateSpans.reduce((text, span) => {
    if (!ts.isIdentifier(span.expression)) throw new Error(`${source.fileName}: a document splices in an expression that is no constant`);
    return text + constantText(source, span.expression.text) + span.literal.text;
  }, template.head.text);
}

function consoleDocuments(): ConsoleDocument[] {
  return sourceFiles(projectPath('console')).flatMap((file) => {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const found: ConsoleDocument[] = [];
    const references = new Map<string, number>();
    source.forEachChild(function visit(node) {
      if (ts.isIdentifier(node)) references.set(node.text, (references.get(node.text) ?? 0) + 1);
      if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'gql') {
        const declaration = node.parent;
        const name = ts.isVariableDeclaration(declaration) && ts.isIdentifier(declaration.name) ? declaration.name.text : '';
        found.push({ file: file.slice(projectPath('console').length + 1), name, text: documentText(source, node.template), uses: 0 });
      }
      node.forEachChild(visit);
    });
    // The declaration itself is one reference; a document is used when its constant appears once more.
    return found.map((document) => ({ ...document, uses: (references.get(document.name) ?? 0) - 1 }));
  });
}

const documents = consoleDocuments();

describe("the console's GraphQL documents", () => {
  it('are all found: every gql template of the console is read', () => {
    const templates = sourceFiles(projectPath('console')).reduce(
      (count, file) => count + (readFileSync(file, 'utf8').match(/\bgql`/g)?.length ?? 0),
      0,
    );
    expect(documents.length).toBe(templates);
    expect(documents.length).toBeGreaterThan(30);
  });

  it.each(documents.map((document) => [`${document.file} ${document.name}`, document] as const))(
    '%s is a named constant, used, and valid against the schema',
    (_label, document) => {
      expect(document.name).not.toBe('');
      expect(document.uses).toBeGreaterThan(0);
      expect(validate(schema, parse(document.text)).map((error) => error.message)).toEqual([]);
    },
  );

  it('would catch a document that asks for a field the schema does not have', () => {
    const broken = parse('query Broken { contacts(limit: 1) { data { id no_such_field } } }');
    expect(validate(schema, broken).map((error) => error.message)).toEqual(['Cannot query field "no_such_field" on type "Customer".']);
  });
});
