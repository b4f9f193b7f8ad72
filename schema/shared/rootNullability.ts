// Every root field of queries and mutations is nullable, whatever its resolver declares: GraphQL nulls the
// nearest nullable parent of a failed field, so with non-null root fields one missing record in a query of
// several fields (or one refused mutation after others that ran) wiped the whole answer. Done once here, on the
// built schema, rather than field by field.
import { GraphQLNonNull, GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfigMap } from 'graphql';

function withNullableFields(type: GraphQLObjectType): GraphQLObjectType {
  const config = type.toConfig();
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const [name, field] of Object.entries(config.fields)) {
    fields[name] = { ...field, type: field.type instanceof GraphQLNonNull ? field.type.ofType : field.type };
  }
  return new GraphQLObjectType({ ...config, fields });
}

export function withNullableRootFields(schema: GraphQLSchema): GraphQLSchema {
  const config = schema.toConfig();
  const roots = [config.query, config.mutation].filter((type): type is GraphQLObjectType => type != null);
  const query = config.query ? withNullableFields(config.query) : undefined;
  const mutation = config.mutation ? withNullableFields(config.mutation) : undefined;
  return new GraphQLSchema({
    ...config,
    query,
    mutation,
    types: config.types.filter((type) => !roots.includes(type as GraphQLObjectType)),
  });
}
