/**
 * Checks every answer given as data against its zod schema (answers already written as JSON text,
 * services/json-text.ts, are sent as they are), then writes it as JSON: what
 * fastify-type-provider-zod's serializerCompiler does, with safeParse in place of safeEncode.
 * For our output schemas (plain shapes: no codecs, no transforms) the two accept and return the
 * same (known keys, in the schema's order); safeParse runs zod's compiled object check, which is
 * cheaper, and a feed page runs it for every post (tests/bench).
 */
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';

function resolveSchema(schema: unknown): $ZodType {
  if (schema instanceof $ZodType) return schema;
  if (schema && typeof schema === 'object' && 'properties' in schema && schema.properties instanceof $ZodType) return schema.properties;
  throw new Error(`not a zod schema: ${JSON.stringify(schema)}`);
}

export const checkedSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  const zodSchema = resolveSchema(schema);
  return (data) => {
    const result = safeParse(zodSchema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
