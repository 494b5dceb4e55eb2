import { ApiError } from './errors';

/** A failed submission, split into messages for named fields and messages for the whole form. */
export interface SubmissionErrors {
  fields: Record<string, string[]>;
  general: string[];
}

/** Keys of an error body that belong to the whole form rather than to one field. */
const GENERAL_KEYS = new Set(['non_field_errors', 'detail']);
/**
 * Keys that carry no message for a person (machine codes, status words) when their value is one
 * string; as a list of messages they are a field's (two-step sign-in's `code` field).
 */
const SILENT_KEYS = new Set(['code', 'status']);

function collect(body: Record<string, unknown>, prefix: string, into: SubmissionErrors): void {
  for (const [key, value] of Object.entries(body)) {
    if (SILENT_KEYS.has(key) && !Array.isArray(value)) continue;
    const name = prefix ? `${prefix}.${key}` : key;
    const messages = Array.isArray(value)
      ? value.filter((item): item is string => typeof item === 'string')
      : typeof value === 'string'
        ? [value]
        : [];
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      // DRF nests serializer errors: {user_profile: {website: [...]}} is field user_profile.website.
      collect(value as Record<string, unknown>, name, into);
    } else if (GENERAL_KEYS.has(key) && !prefix) {
      into.general.push(...messages);
    } else if (messages.length > 0) {
      into.fields[name] = messages;
    }
  }
}

function fallbackMessage(status: number): string {
  if (status === 413) return 'What you sent is too large.';
  if (status === 429) return 'Too many attempts. Please wait a little and try again.';
  if (status >= 500) return 'The server had a problem. Please try again shortly.';
  return `The request was refused (status ${status}).`;
}

/** "3 seconds", "2 minutes", "1 hour": a wait rounded up to the unit a person would use. */
function howLong(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const [count, unit] =
    seconds < 60 ? [seconds, 'second'] : minutes < 60 ? [minutes, 'minute'] : [Math.ceil(seconds / 3600), 'hour'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * Turns any submission failure into messages a person can act on: the server's 400 field
 * messages (`{field: [...]}`, `non_field_errors`, `{detail}`), or a plain sentence otherwise. A
 * 429 says how long to wait in words rather than the server's DRF text.
 */
export function describeSubmissionError(error: unknown): SubmissionErrors {
  const result: SubmissionErrors = { fields: {}, general: [] };
  if (error instanceof ApiError && error.status === 429 && error.retryAfter) {
    result.general.push(`Too many attempts. Please try again in ${howLong(error.retryAfter)}.`);
  } else if (error instanceof ApiError) {
    if (error.body && typeof error.body === 'object' && !Array.isArray(error.body)) {
      collect(error.body as Record<string, unknown>, '', result);
    }
    if (result.general.length === 0 && Object.keys(result.fields).length === 0) {
      result.general.push(fallbackMessage(error.status));
    }
  } else if (error instanceof TypeError) {
    result.general.push('Could not reach the server. Check your connection and try again.');
  } else {
    result.general.push('Something went wrong. Please try again.');
  }
  return result;
}
