/** The server backends the suite runs against; each is one Playwright project. */
export const backends = ['sqlite', 'postgres'] as const;
export type Backend = (typeof backends)[number];

/** Environment variables global setup sets for the workers. */
export const envNames = {
  url: (backend: Backend) => `E2E_URL_${backend.toUpperCase()}`,
  mailbox: 'E2E_MAILBOX_URL',
} as const;
