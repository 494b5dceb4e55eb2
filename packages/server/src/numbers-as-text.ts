/** A JSON number as Django REST Framework's CharField takes it: its text. Anything else as it is. */
export const numberAsText = (value: unknown): unknown =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : value;

/**
 * Each JSON number of `body` where its `schema` (a route's body schema, JSON Schema objects nested
 * by `properties`) has a string becomes its text (`"password": 12345678`), as Django REST Framework
 * takes it. `true`, a list, an object or null stay as sent, for the body's validation, which coerces
 * nothing, to refuse (schema-compilers.ts).
 */
export function numbersAsText(body: unknown, schema: unknown): void {
  const stack: [unknown, unknown][] = [[body, schema]];
  while (stack.length > 0) {
    const [value, shape] = stack.pop()!;
    const properties = (shape as { properties?: Record<string, { type?: unknown }> } | null)?.properties;
    if (!properties || value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const fields = value as Record<string, unknown>;
    for (const [key, property] of Object.entries(properties)) {
      if (property.type === 'string' && typeof fields[key] === 'number') fields[key] = numberAsText(fields[key]);
      else if (property.type === 'object') stack.push([fields[key], property]);
    }
  }
}
