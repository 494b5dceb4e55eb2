import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { hitLabel, normalizeQuery } from '../utils/search';
import type { usePdfSearch } from './use-pdf-search';

/**
 * The viewer's search box: Enter (or ↓) searches every page, then goes to the next hit, Shift+Enter
 * (or ↑) to the previous; `Hit N of M` or `No matches` is said politely.
 */
export function PdfSearch({ search }: { search: ReturnType<typeof usePdfSearch> }) {
  const [draft, setDraft] = useState('');
  const fieldId = useId();
  const { state, total } = search;
  const searching = state.query !== '' && state.counts === null;
  const fresh = normalizeQuery(draft) !== state.query;

  const go = (by: 1 | -1) => {
    if (fresh) void search.search(draft);
    else search.step(by);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    go(1);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && event.shiftKey) {
      event.preventDefault();
      go(-1);
    }
  };

  const status = searching ? 'Searching…' : state.counts && !fresh ? hitLabel(state.current ?? 0, total) : '';
  const canStep = !searching && (fresh ? draft.trim() !== '' : total > 0);

  return (
    <form className="pdf-group pdf-search" role="search" aria-label="Search the document" onSubmit={onSubmit}>
      <label htmlFor={fieldId}>Search</label>
      <input
        id={fieldId}
        type="search"
        name="search"
        className="pdf-search-field"
        autoComplete="off"
        enterKeyHint="search"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <Button
        variant="quiet"
        className="pdf-zoom-step"
        aria-label="Previous match"
        title="Previous match"
        disabled={!canStep}
        onClick={() => go(-1)}
      >
        ↑
      </Button>
      <Button
        type="submit"
        variant="quiet"
        className="pdf-zoom-step"
        aria-label="Next match"
        title="Next match"
        disabled={!canStep}
      >
        ↓
      </Button>
      {/* Polite, but not a second role=status: the viewer's own says the page (`Page N of M`). */}
      <span className="pdf-search-status" aria-live="polite" aria-atomic="true">
        {status}
      </span>
    </form>
  );
}
