// Reads a REST request's inputs as the arguments of the route's GraphQL field and checks them against the
// argument types, strictly, before sofa-api sees them. sofa coerces loosely (a number for a string) and
// reports a wrong type without naming the field; clients are owed VALIDATION_ERROR with {<field>: <reason>}.
// Domain rules (limit 1..100, uuid formats, status values) stay in the resolvers.
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLLeafType,
} from 'graphql';

export type ArgumentReading = { values: Record<string, unknown>; problems: Record<string, string> };

/** The path gives these arguments; a query parameter or body key of the same name would be a second value. */
const GIVEN_BY_PATH = 'is given by the path and must not be repeated';

/** GET and DELETE: path parameters and query parameters. An empty query parameter counts as absent. */
export function readQueryArguments(
  args: readonly GraphQLArgument[],
  pathValues: Record<string, string>,
  query: URLSearchParams,
): ArgumentReading {
  const reading: ArgumentReading = { values: {}, problems: {} };
  for (const arg of args) {
    if (arg.name in pathValues && query.has(arg.name)) {
      reading.problems[arg.name] = GIVEN_BY_PATH;
      continue;
    }
    const given = arg.name in pathValues ? [pathValues[arg.name]!] : query.getAll(arg.name).filter((value) => value !== '');
    if (given.length > 1 && !isListType(getNullableInput(arg.type))) {
      reading.problems[arg.name] = 'must be given once';
      continue;
    }
    const leafName = getNamedType(arg.type).name;
    const values = given.map((text) => fromQueryText(text, leafName));
    const value = isListType(getNullableInput(arg.type)) ? (values.length > 0 ? values : undefined) : values[0];
    checkArgument(arg, value, reading);
  }
  return reading;
}

/** POST, PUT and PATCH: path parameters and the keys of the JSON object body (other keys are ignored). A key
 * given as null stays in the reading: in an update, null clears a field where an omitted key leaves it. */
export function readBodyArguments(
  args: readonly GraphQLArgument[],
  pathValues: Record<string, string>,
  body: Record<string, unknown>,
): ArgumentReading {
  const reading: ArgumentReading = { values: {}, problems: {} };
  for (const arg of args) {
    if (arg.name in pathValues && arg.name in body) reading.problems[arg.name] = GIVEN_BY_PATH;
    else checkArgument(arg, arg.name in pathValues ? pathValues[arg.name] : body[arg.name], reading);
  }
  return reading;
}

function checkArgument(arg: GraphQLArgument, value: unknown, reading: ArgumentReading): void {
  if (value === undefined && arg.defaultValue !== undefined) return;
  const before = Object.keys(reading.problems).length;
  collectProblems(value, arg.type, arg.name, reading.problems);
  if (Object.keys(reading.problems).length === before && value !== undefined) reading.values[arg.name] = value;
}

function getNullableInput(type: GraphQLInputType): GraphQLInputType {
  return isNonNullType(type) ? type.ofType : type;
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Query text as the JSON value a client would have sent for that type. */
function fromQueryText(text: string, typeName: string): unknown {
  switch (typeName) {
    case 'Int':
      return INTEGER.test(text) ? Number(text) : text;
    case 'Float':
      return NUMBER.test(text) ? Number(text) : text;
    case 'Boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

function collectProblems(value: unknown, type: GraphQLInputType, path: string, problems: Record<string, string>): void {
  if (isNonNullType(type)) {
    if (value === undefined || value === null) problems[path] = 'is required';
    else collectProblems(value, type.ofType, path, problems);
    return;
  }
  if (value === undefined || value === null) return;
  if (isListType(type)) {
    if (!Array.isArray(value)) problems[path] = 'must be an array';
    else value.forEach((item, index) => collectProblems(item, type.ofType, `${path}.${index}`, problems));
    return;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      problems[path] = 'must be an object';
      return;
    }
    const fields = type.getFields();
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!fields[key]) problems[`${path}.${key}`] = 'is not a known field';
    for (const field of Object.values(fields)) {
      if (record[field.name] === undefined && field.defaultValue !== undefined) continue;
      collectProblems(record[field.name], field.type, `${path}.${field.name}`, problems);
    }
    return;
  }
  if (!acceptsLeaf(type, value)) problems[path] = leafReason(type);
}

function acceptsLeaf(type: GraphQLLeafType, value: unknown): boolean {
  // GraphQL also takes an integer as an ID; this API's ids are strings.
  if (type.name === 'ID' && typeof value !== 'string') return false;
  try {
    type.parseValue(value);
    return true;
  } catch {
    return false;
  }
}

function leafReason(type: GraphQLLeafType): string {
  if (isEnumType(type))
    return `must be one of ${type
      .getValues()
      .map((value) => value.name)
      .join(', ')}`;
  switch (type.name) {
    case 'Int':
      return 'must be an integer';
    case 'Float':
      return 'must be a number';
    case 'Boolean':
      return 'must be true or false';
    case 'String':
    case 'ID':
      return 'must be a string';
    default:
      return `must be a valid ${type.name}`;
  }
}
