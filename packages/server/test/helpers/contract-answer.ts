import { decodedBody, type EncodedAnswer } from './decoded-body.js';

/**
 * What every answer of the API must look like (docs/api.md, "Shapes" and "Errors"), checked without
 * vitest's expect so a property test can report the failing request with it.
 */
export interface Answer extends EncodedAnswer {
  statusCode: number;
}

const STACK_TRACE =
  /\bat [\w$.<>]+ \(|\(node:internal|node_modules\/|\/src\/[\w/-]+\.ts|\.js:\d+:\d+|\bError: [^"]*\n\s+at /;

/**
 * Problems with an answer, or [] when it honours the contract: never a 5xx, JSON everywhere but a
 * file, `{detail, code?}` or `{field: [messages]}` (or the reset calls' `{status: "notfound"}`) for
 * every error, WWW-Authenticate on 401, Retry-After on 429, and no stack trace.
 */
export function contractProblems(res: Answer, options: { file?: boolean } = {}): string[] {
  const problems: string[] = [];
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode >= 500) problems.push(`status ${res.statusCode}`);
  const text = answerText(res);
  if (text === undefined) return [...problems, `body does not decode as ${String(res.headers['content-encoding'])}`];
  if (STACK_TRACE.test(text)) problems.push('stack trace in the body');
  const isFile = options.file && (res.statusCode === 200 || res.statusCode === 206 || res.statusCode === 304);
  if (isFile || res.statusCode === 304 || (res.statusCode === 204 && text === '')) return problems;
  if (!type.startsWith('application/json')) {
    problems.push(`content-type ${type || '(none)'} for status ${res.statusCode}`);
    return problems;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push('body is not JSON');
    return problems;
  }
  if (res.statusCode >= 400) problems.push(...errorShapeProblems(body));
  if (res.statusCode === 401 && !res.headers['www-authenticate']) problems.push('401 without WWW-Authenticate');
  if (res.statusCode === 429 && !res.headers['retry-after']) problems.push('429 without Retry-After');
  return problems;
}

/**
 * The body as the client reads it: a client that sent Accept-Encoding may get any answer above 1 KiB
 * compressed. undefined when the bytes do not decode as their Content-Encoding says.
 */
export function answerText(res: EncodedAnswer): string | undefined {
  try {
    return decodedBody(res).toString('utf8');
  } catch {
    return undefined;
  }
}

export function errorShapeProblems(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return [`error body is not an object: ${JSON.stringify(body)}`];
  const entries = Object.entries(body);
  if (entries.length === 0) return ['error body is empty'];
  if ('detail' in body) {
    const { detail, code, ...rest } = body as Record<string, unknown>;
    const bad =
      typeof detail !== 'string' || (code !== undefined && typeof code !== 'string') || Object.keys(rest).length > 0;
    return bad ? [`not {detail, code?}: ${JSON.stringify(body)}`] : [];
  }
  if ('status' in body && entries.length === 1) {
    return (body as { status: unknown }).status === 'notfound'
      ? []
      : [`unexpected status body: ${JSON.stringify(body)}`];
  }
  const bad = entries.filter(
    ([, v]) => !Array.isArray(v) || v.length === 0 || v.some((m) => typeof m !== 'string' || m === ''),
  );
  return bad.length > 0 ? [`not {field: [messages]}: ${JSON.stringify(body).slice(0, 300)}`] : [];
}
