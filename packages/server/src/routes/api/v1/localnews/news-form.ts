import type { FastifyRequest } from 'fastify';
import { serverMessages, type FieldErrors } from '@hello/contract';
import { ApiError, httpErrors } from '../../../../http-errors.js';
import { guardedParts } from '../../../../plugins/app/form-bodies.js';
import { cleanFileName } from '../../../../storage/file-names.js';
import type { StagedUpload, UploadStore } from '../../../../storage/uploads.js';

export interface NewsForm {
  title?: unknown;
  content?: unknown;
  files: (StagedUpload & { name: string })[];
}

export interface UploadLimits { maxUploadFileBytes: number; maxUploadFiles: number }

const MAX_TITLE_LENGTH = 255;

/**
 * Reads the create-news body. Multipart files are streamed one by one into staging; the parser's limits
 * stop an oversized file or one file too many while it streams. On any failure every staged file is
 * removed before the error goes on. JSON and url-encoded bodies carry no files (so they get the
 * files-required answer).
 */
export async function readNewsForm(request: FastifyRequest, uploads: UploadStore, limits: UploadLimits): Promise<NewsForm> {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    return { title: lastOf(body.title), content: lastOf(body.content), files: [] };
  }
  const form: NewsForm = { files: [] };
  try {
    for await (const part of guardedParts(request)) {
      if (part.type === 'file') {
        // Only `files` carries attachments; an empty file input arrives with no file name.
        if (part.fieldname !== 'files' || !part.filename) {
          part.file.resume();
          continue;
        }
        form.files.push({ ...(await uploads.stage(part.file)), name: cleanFileName(part.filename) });
        if (part.file.truncated) throw httpErrors.payloadTooLarge(serverMessages.fileTooLarge(limits.maxUploadFileBytes));
      } else if (part.fieldname === 'title' || part.fieldname === 'content') {
        if (part.valueTruncated) throw httpErrors.payloadTooLarge();
        form[part.fieldname] = part.value;
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
  if (code === 'FST_REQ_FILE_TOO_LARGE') return httpErrors.payloadTooLarge(serverMessages.fileTooLarge(limits.maxUploadFileBytes));
  if (statusCode !== undefined || errno !== undefined) return error;
  return new ApiError(400, { detail: serverMessages.malformedBody }); // busboy: malformed multipart data
}

/** Field errors in Django REST Framework's words; `{}` when the form is valid. */
export function newsFormErrors(form: NewsForm): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of ['title', 'content'] as const) {
    const value = form[field];
    if (value === undefined || value === null) errors[field] = [serverMessages.fieldRequired];
    else if (typeof value !== 'string') errors[field] = [serverMessages.notAString];
    else if (value.trim() === '') errors[field] = [serverMessages.blank];
    // PostgreSQL cannot store U+0000 in text; refuse it on both databases, as DRF does.
    else if (value.includes('\u0000')) errors[field] = ['Null characters are not allowed.'];
  }
  if (typeof form.title === 'string' && form.title.length > MAX_TITLE_LENGTH) {
    errors.title = [`Ensure this field has no more than ${MAX_TITLE_LENGTH} characters.`];
  }
  if (form.files.length === 0) errors.files = [serverMessages.fieldRequired];
  else if (form.files.some((f) => f.size === 0)) errors.files = ['The submitted file is empty.'];
  return errors;
}

/** A repeated url-encoded field arrives as an array: the last value counts, as for other calls. */
const lastOf = (value: unknown) => (Array.isArray(value) ? value.at(-1) : value);
