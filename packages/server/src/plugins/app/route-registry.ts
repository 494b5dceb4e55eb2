import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Methods some route answers for this URL: lets the not-found handler say 405 instead of 404. */
    allowedMethods(url: string): string[];
  }
}

/** Remembers every route's pattern and methods as routes are added. */
export default fp(async function routeRegistry(app: FastifyInstance) {
  const routes: { pattern: RegExp; methods: Set<string> }[] = [];
  app.decorate('allowedMethods', (url: string) => {
    const pathname = url.split('?')[0] ?? '';
    const methods = new Set<string>();
    for (const route of routes) if (route.pattern.test(pathname)) route.methods.forEach((m) => methods.add(m));
    return [...methods].sort();
  });
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return; // catch-alls (the web app) say nothing about methods
    // A parameter stands for one path segment, or for what its own pattern allows (`:id(^[1-9][0-9]*$)`).
    const params = [...route.url.matchAll(/:[A-Za-z_]\w*(?:\(\^?([^/]*?)\$?\))?/g)];
    const texts = route.url
      .split(/:[A-Za-z_]\w*(?:\([^/]*\))?/)
      .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
    const source = texts.map((text, i) => (i === 0 ? text : `(?:${params[i - 1]![1] ?? '[^/]+'})${text}`)).join('');
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ pattern: new RegExp(`^${source}$`), methods: new Set(methods) });
  });
});
