import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Device } from '../auth/sessions.js';
import type { NoticeContext } from '../mail/security-notices.js';

/** The device of a request, as a session records it: its User-Agent and client address. */
export const deviceOf = (request: FastifyRequest): Device => ({
  userAgent: request.headers['user-agent'] ?? '',
  ip: request.ip,
});

/** What a security notice says of the request that caused it: now, from this device and address. */
export const noticeContext = (app: FastifyInstance, request: FastifyRequest): NoticeContext => ({
  at: new Date(),
  ...deviceOf(request),
  publicUrl: app.config.publicUrl,
});
