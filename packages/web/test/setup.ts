import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor give up after 1 s by default; on a CI machine whose CPU is mostly taken by its
// neighbours a lazy route's first import alone can take longer. Tests use Testing Library's waitFor
// (not vi.waitFor) so that this one setting governs every wait.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});
