/** JSON Schemas of the account calls' bodies and answers (CONTRACT.md, section 2). */

/** A required, non-blank string: Ajv's errors become "This field is required." / "may not be blank". */
export const requiredString = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;

export const limits = { email: 254, password: 1024, token: 2048, name: 150, phone: 50, website: 200, path: 500 } as const;

export const email = requiredString(limits.email);
export const password = requiredString(limits.password);
export const token = requiredString(limits.token);

/** An object body with these required string fields. */
export const bodyOf = (fields: Record<string, object>) =>
  ({ type: 'object', required: Object.keys(fields), properties: fields }) as const;

export const statusBody = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['OK', 'notfound'] } },
} as const;

export const profile = {
  type: 'object',
  required: ['email', 'first_name', 'last_name', 'user_profile'],
  properties: {
    email: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    user_profile: {
      type: 'object',
      required: ['telephone', 'mobile', 'website'],
      properties: { telephone: { type: 'string' }, mobile: { type: 'string' }, website: { type: 'string' } },
    },
  },
} as const;

export const stringProps = (...names: string[]) => ({
  type: 'object',
  required: names,
  properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
});
