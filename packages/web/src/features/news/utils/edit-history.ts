/**
 * The router state an item page's Edit link gives the edit form's history entry. With it, the entry
 * before the form is that item's page, so a save can go back to it instead of adding another one.
 */
export const fromItemPage = { fromItem: true } as const;

/** Whether the edit form was opened from its item's page (see `fromItemPage`). */
export function openedFromItemPage(state: unknown): boolean {
  return (state as { fromItem?: unknown } | null)?.fromItem === true;
}
