import { newsLimits } from './limits.js';
import * as Type from './typebox.js';

/**
 * The news calls' bodies as JSON Schemas (docs/api.md, "Local news" and "Shapes"): they document the
 * API, and the server serializes its answers with them; types.ts derives their TypeScript types. (The
 * creation's and the edit's bodies are read by the server itself, never validated by these.)
 */

export const newsFile = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: "The uploader's file name (metadata only)." }),
  size: Type.Integer({ description: 'Bytes.' }),
  content_type: Type.String({ description: 'Sniffed from the bytes, not taken from the uploader.' }),
  /** Signed, expiring URL: a plain link downloads the attachment. */
  url: Type.String({ description: 'Signed link, valid for about an hour; needs no Authorization header.' }),
});

export const newsItem = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
  /** ISO 8601 */
  created_at: Type.String({ format: 'date-time' }),
  /** The author's e-mail. */
  author: Type.String({ description: "The author's e-mail." }),
  files: Type.Array(newsFile),
});

/** The edit's fields other than the files it adds (those go in a multipart body as `files`). */
export const newsUpdateRequest = Type.Object({
  title: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
  remove_files: Type.Optional(
    Type.Array(Type.Integer(), {
      maxItems: newsLimits.maxRemovedFiles,
      description: "Ids of the item's files to remove; repeat the field for each.",
    }),
  ),
});
