import type { KeyboardEvent } from 'react';

/**
 * A keydown handler for an in-page question (Delete this item? Log out the other devices?): Escape
 * answers Cancel, as it would close a dialog, unless `when` is false (its answer is being sent).
 */
export const onEscape =
  (cancel: () => void, when = true) =>
  (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !when) return;
    event.preventDefault();
    cancel();
  };
