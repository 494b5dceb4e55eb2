import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { serverMessages, type FieldErrors } from '@hello/contract';

/**
 * Turns Ajv's errors for a request body into Django REST Framework's shape:
 * `{"email": ["This field is required."]}`.
 */
export function fieldErrorsFromValidation(errors: FastifySchemaValidationError[]): FieldErrors {
  const out: FieldErrors = {};
  const add = (field: string, message: string) => {
    const list = (out[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    const pointer = error.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    if (error.keyword === 'required') {
      add(
        pointer ? `${pointer}.${String(params.missingProperty)}` : String(params.missingProperty),
        serverMessages.fieldRequired,
      );
    } else if (!pointer) {
      add('non_field_errors', serverMessages.notADictionary);
    } else if (error.keyword === 'minLength' && params.limit === 1) {
      add(pointer, serverMessages.blank);
    } else if (error.keyword === 'maxLength') {
      add(pointer, `Ensure this field has no more than ${String(params.limit)} characters.`);
    } else if (error.keyword === 'format' && params.format === 'email') {
      add(pointer, serverMessages.invalidEmail);
    } else if (error.keyword === 'type' && (error as { data?: unknown }).data === null) {
      add(pointer, serverMessages.notNull);
    } else if (error.keyword === 'type' && params.type === 'string') {
      add(pointer, serverMessages.notAString);
    } else if (error.keyword === 'type' && params.type === 'integer') {
      add(pointer, serverMessages.invalidInteger);
    } else if (error.keyword === 'minimum') {
      add(pointer, serverMessages.minValue(Number(params.limit)));
    } else if (error.keyword === 'maximum') {
      add(pointer, serverMessages.maxValue(Number(params.limit)));
    } else {
      add(pointer, 'Invalid value.');
    }
  }
  // A blank field is only that, as in Django REST Framework: not also "Enter a valid email address.".
  for (const [field, messages] of Object.entries(out))
    if (messages.includes(serverMessages.blank)) out[field] = [serverMessages.blank];
  return out;
}
