import { withAsciiDomain } from './email-address.js';

/** A JSON number as Django REST Framework's CharField takes it: its text. Anything else as it is. */
export const numberAsText = (value: unknown): unknown =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : value;

type StringSchema = { type?: unknown; format?: unknown; minLength?: unknown; properties?: unknown };

/**
 * A body's fields as Django REST Framework's fields took them, before the body's validation (which
 * coerces nothing, schema-compilers.ts), by the route's body schema (JSON Schema objects nested by
 * `properties`):
 * - a JSON number where text belongs is its text (`"password": 12345678`);
 * - an e-mail address loses surrounding white space (`" ann@example.com "`), as EmailField trims,
 *   and an internationalized domain is written in ASCII (email-address.ts);
 * - a field that may not be blank (`minLength: 1`) and holds only white space is blank, and refused
 *   so ("This field may not be blank."); other text is kept exactly (a password's spaces count).
 * `true`, a list, an object or null stay as sent, for the validation to refuse.
 */
export function asFieldInput(body: unknown, schema: unknown): void {
  const stack: [unknown, unknown][] = [[body, schema]];
  while (stack.length > 0) {
    const [value, shape] = stack.pop()!;
    const properties = (shape as { properties?: Record<string, StringSchema> } | null)?.properties;
    if (!properties || value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const fields = value as Record<string, unknown>;
    for (const [key, property] of Object.entries(properties)) {
      if (property.type === 'object') {
        stack.push([fields[key], property]);
        continue;
      }
      if (property.type !== 'string') continue;
      const field = numberAsText(fields[key]);
      if (typeof field !== 'string') continue;
      if (property.format === 'email') fields[key] = withAsciiDomain(field.trim());
      else if (property.minLength === 1 && field.trim() === '') fields[key] = '';
      else fields[key] = field;
    }
  }
}
