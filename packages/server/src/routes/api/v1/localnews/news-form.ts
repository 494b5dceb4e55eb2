import type { FastifyRequest } from 'fastify';
import { newsLimits, serverMessages, type FieldErrors } from '@hello/contract';
import { ApiError, httpErrors } from '../../../../http-errors.js';
import { guardedParts } from '../../../../multipart-parts.js';
import { numberAsText } from '../../../../field-input.js';
import { cleanFileName } from '../../../../storage/file-names.js';
import type { StagedUpload, UploadStore } from '../../../../storage/uploads.js';
import { parseId } from '../../../parse-id.js';

export interface NewsForm {
  title?: unknown;
  content?: unknown;
  /**
   * `remove_files` of an edit, each value as sent (repeated in a form, an array in JSON; null as
   * JSON's null), or, for a JSON value that is no list, its type as Django REST Framework names it.
   */
  removeFiles: unknown[] | null | { notAList: string };
  files: (StagedUpload & { name: string })[];
}

export interface UploadLimits {
  maxUploadFileBytes: number;
  maxUploadFiles: number;
}

/**
 * Reads the body of a news item's creation or edit. Multipart files are streamed one by one into staging; the parser's limits
 * stop an oversized file or one file too many while it streams. On any failure every staged file is
 * removed before the error goes on. JSON and url-encoded bodies carry no files (so they get the
 * files-required answer).
 */
export async function readNewsForm(
  request: FastifyRequest,
  uploads: UploadStore,
  limits: UploadLimits,
): Promise<NewsForm> {
  if (!request.isMultipart()) {
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body))
      throw httpErrors.field('non_field_errors', serverMessages.notADictionary);
    const { title, content, remove_files } = body as Record<string, unknown>;
    // A repeated url-encoded field arrives as an array, and its last value counts, as for other
    // calls; in JSON an array (or null) where a string belongs is the client's mistake, answered so,
    // and a number is its text, as everywhere (field-input.ts).
    const json = /^application\/json/i.test(request.headers['content-type'] ?? '');
    return {
      title: json ? numberAsText(title) : lastOf(title),
      content: json ? numberAsText(content) : lastOf(content),
      removeFiles:
        remove_files === undefined
          ? []
          : remove_files === null
            ? null
            : json && !Array.isArray(remove_files)
              ? { notAList: pythonType(remove_files) }
              : [remove_files].flat(),
      files: [],
    };
  }
  const removeFiles: unknown[] = [];
  const form: NewsForm = { removeFiles, files: [] };
  try {
    for await (const part of guardedParts(request)) {
      if (part.type === 'file') {
        // Only `files` carries attachments; an empty file input arrives with no file name.
        if (part.fieldname !== 'files' || !part.filename) {
          part.file.resume();
          continue;
        }
        form.files.push({ ...(await uploads.stage(part.file)), name: cleanFileName(part.filename) });
        if (part.file.truncated)
          throw httpErrors.payloadTooLarge(serverMessages.fileTooLarge(limits.maxUploadFileBytes));
      } else if (part.fieldname === 'title' || part.fieldname === 'content') {
        if (part.valueTruncated) throw httpErrors.payloadTooLarge();
        form[part.fieldname] = part.value;
      } else if (part.fieldname === 'remove_files') {
        removeFiles.push(part.value);
      }
    }
  } catch (error) {
    await uploads.discard(form.files.map((f) => f.storageName));
    throw uploadError(error, limits);
  }
  return form;
}

/** The contract's answer for the multipart parser's errors; disk and other server faults go on as they are. */
function uploadError(error: unknown, limits: UploadLimits): unknown {
  if (error instanceof ApiError) return error;
  const { code, statusCode, errno } = error as { code?: string; statusCode?: number; errno?: number };
  if (code === 'FST_FILES_LIMIT') return httpErrors.payloadTooLarge(serverMessages.tooManyFiles(limits.maxUploadFiles));
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return httpErrors.payloadTooLarge(serverMessages.fileTooLarge(limits.maxUploadFileBytes));
  if (statusCode !== undefined || errno !== undefined) return error;
  return new ApiError(400, { detail: serverMessages.malformedBody }); // busboy: malformed multipart data
}

/**
 * Field errors in Django REST Framework's words; `{}` when the form is valid. A creation needs every
 * field; an edit (`partial`) checks only the fields it sends, needs no file, and may name files to remove.
 */
export function newsFormErrors(form: NewsForm, partial = false): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of ['title', 'content'] as const) {
    const value = form[field];
    if (value === undefined) {
      if (!partial) errors[field] = [serverMessages.fieldRequired];
    } else if (value === null) errors[field] = [serverMessages.notNull];
    else if (typeof value !== 'string') errors[field] = [serverMessages.notAString];
    else if (value.trim() === '') errors[field] = [serverMessages.blank];
    // PostgreSQL cannot store U+0000 in text; refuse it on both databases, as DRF does.
    else if (value.includes('\u0000')) errors[field] = [serverMessages.nullCharacters];
  }
  if (typeof form.title === 'string' && form.title.length > newsLimits.maxTitleLength) {
    errors.title = [serverMessages.titleTooLong(newsLimits.maxTitleLength)];
  }
  if (form.files.length === 0 && !partial) errors.files = [serverMessages.fieldRequired];
  else if (form.files.some((f) => f.size === 0)) errors.files = [serverMessages.emptyFile];
  if (partial) {
    const ids = form.removeFiles;
    if (ids === null) errors.remove_files = [serverMessages.notNull];
    else if (!Array.isArray(ids)) errors.remove_files = [serverMessages.notAList(ids.notAList)];
    else if (ids.some((value) => fileId(value) === undefined)) errors.remove_files = [serverMessages.invalidInteger];
    // Bounded before any query: each id is a parameter of one statement, which both databases limit.
    else if (ids.length > newsLimits.maxRemovedFiles)
      errors.remove_files = [serverMessages.tooManyElements(newsLimits.maxRemovedFiles)];
  }
  return errors;
}

/** A JSON value's type by its Python name, as Django REST Framework's messages give it. */
const pythonType = (value: unknown): string =>
  typeof value === 'string'
    ? 'str'
    : typeof value === 'boolean'
      ? 'bool'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'int'
          : 'float'
        : 'dict';

/** A file id as JSON (a number) or a form (a string) sends it. */
export const fileId = (value: unknown): number | undefined =>
  parseId(
    typeof value === 'number' && Number.isInteger(value)
      ? String(value)
      : typeof value === 'string'
        ? value.trim()
        : undefined,
  );

/** The last of a repeated url-encoded field's values (see readNewsForm). */
const lastOf = (value: unknown) => (Array.isArray(value) ? value.at(-1) : value);
