import * as Type from './typebox.js';

/** The error answers as JSON Schemas (docs/api.md, "Errors"); types.ts derives their TypeScript types. */

/** `{detail, code?}`: every error but field errors; `code` is one of errorCodes when present. */
export const errorBody = Type.Object({ detail: Type.String(), code: Type.Optional(Type.String()) });

/**
 * `{field: ["message", …]}`, messages of no one field under `non_field_errors`. Written with
 * `additionalProperties` as OpenAPI 3.0 knows it: TypeBox's Record would write `patternProperties`.
 */
export const fieldErrors = Type.Unsafe<Record<string, string[]>>({
  type: 'object',
  additionalProperties: Type.Array(Type.String()),
});
