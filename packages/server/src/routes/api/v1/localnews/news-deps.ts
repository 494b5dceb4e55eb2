import type { FastifyInstance } from 'fastify';
import type { NewsDeps } from '../../../../news/news-changes.js';

/** What the news calls hand to news/news-changes.ts: this app's database, uploads and log. */
export const newsDeps = (app: FastifyInstance): NewsDeps => ({ db: app.db, uploads: app.uploads, log: app.log });
