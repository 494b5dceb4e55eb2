import type { FastifyInstance } from 'fastify';

// TODO(owner of this route): replace with the real routes.
export default async function tokenRoutes(app: FastifyInstance) {
  void app;
}
